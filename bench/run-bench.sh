#!/usr/bin/env bash
# run-bench.sh - lore-am against `b4 am` on generated patch threads, and the
# per-message cost of the --passthrough filter mode.
#
# Usage:
#   run-bench.sh [-r RUNS] [-s "small medium large"] [-P MESSAGES] [-C] [-w DIR] [-L LORE_AM]
#   run-bench.sh -I [-s "large"] [-w DIR] [-L LORE_AM]
#
#   -r RUNS      runs per command and thread (medians; default 5; hyperfine
#                does more runs of the fast commands on its own)
#   -s SIZES     thread presets to time (default "small medium large")
#   -P MESSAGES  messages in the passthrough mailbox (default 10000; 0 skips)
#   -C           skip counting lore-am's instructions with callgrind (which
#                is deterministic, unlike times on a busy machine)
#   -w DIR       keep the generated threads and raw results in DIR
#   -L LORE_AM   the binary to time (default: ./lore-am of this tree)
#   -I           only count lore-am's instructions (callgrind) on each thread
#                and give them per input byte, with a checksum of the bytes
#                written; no timing, no b4 (default thread: large)
#
# Prints a Markdown report on stdout (progress goes to stderr). Needs git,
# perl, cc, b4 and hyperfine. See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "run-bench.sh: $*" >&2; exit 2; }
say() { echo "run-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
runs=5 sizes="small medium large" ptmsgs=10000 work='' lore=$here/../lore-am
count=1 only_count=0 sizes_given=''

while [ $# -gt 0 ]; do
	case $1 in
	-r) runs=${2:?}; shift 2 ;;
	-s) sizes=${2:?} sizes_given=1; shift 2 ;;
	-P) ptmsgs=${2:?}; shift 2 ;;
	-C) count=0; shift ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	-I) only_count=1; shift ;;
	-h|--help) usage 0 ;;
	*) echo "run-bench.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "-r takes a positive number" ;; esac
case $ptmsgs in ''|*[!0-9]*) die "-P takes a number" ;; esac
if [ "$only_count" = 1 ]; then
	need="git perl cc valgrind"
	[ -n "$sizes_given" ] || sizes=large
else
	need="git perl cc b4 hyperfine"
fi
for p in $need; do
	command -v "$p" >/dev/null || die "$p not found"
done
command -v valgrind >/dev/null || count=0
[ -x "$lore" ] || die "$lore not found (run make first)"
lore=$(cd "$(dirname "$lore")" && pwd)/$(basename "$lore")

if [ -n "$work" ]; then
	mkdir -p "$work"
	work=$(cd "$work" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/lore-am-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi

# Both tools see the same clean environment: no user or system git config,
# a scratch repository as the current directory (b4 wants one).
export HOME=$work/home XDG_CACHE_HOME=$work/home/.cache
export XDG_CONFIG_HOME=$work/home/.config
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
export LC_ALL=C.UTF-8 TZ=UTC
unset GIT_CONFIG_COUNT GIT_DIR GIT_WORK_TREE
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email "bench@example.org"
git config --global b4.attestation-policy off
repo=$work/repo
cc -O2 -o "$work/rusage" "$here/rusage.c" || die "cannot build bench/rusage.c"
[ -d "$repo/.git" ] || git init -q "$repo"
cd "$repo"

# median of the numbers on stdin, one a line
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# fmt_ms SECONDS: milliseconds with a sensible precision
fmt_ms() { awk -v s="$1" 'BEGIN { m = s * 1000; printf(m < 10 ? "%.2f" : m < 100 ? "%.1f" : "%.0f", m) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf("%.1f", a / b); else print "n/a" }'; }

# timeit LABEL N INPUT CMD...: N runs of CMD <INPUT, output discarded;
# writes "wall user sys maxrss_kb" lines to $work/LABEL.time
timeit() {
	local label=$1 n=$2 in=$3
	shift 3
	"$work/rusage" "$n" "$in" "$@" >"$work/$label.time" ||
		die "$label failed: $*"
}
col() { awk -v c="$2" '{ print $c }' "$work/$1.time" | median; }
cpu() { awk '{ print $2 + $3 }' "$work/$1.time" | median; }

machine() {
	local cpu_model
	cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) CPUs, ${cpu_model:-unknown CPU}, $(uname -sr)," \
		"$(awk '/MemTotal/ { printf("%.1f GB RAM", $2 / 1048576) }' /proc/meminfo)"
	# the binary named as a reader can find it: in this tree, or by -L
	local root bin
	root=$(cd "$here/.." && pwd)
	case $lore in
	"$root"/*) bin="./${lore#"$root/"} of this tree" ;;
	*) bin="$(basename "$lore") given with -L" ;;
	esac
	echo "- lore-am: $("$lore" --version), binary $bin (bench scripts from" \
		"$(git -C "$here/.." describe --always --dirty 2>/dev/null || echo 'a tree outside git'))"
	echo "- b4: $(b4 --version 2>&1 | head -1), git $(git --version | awk '{ print $3 }'), hyperfine $(hyperfine --version | awk '{ print $2 }')"
	echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# ---- 1. lore-am and b4 on the same threads ----------------------------
gen() {
	local preset=$1
	if [ ! -s "$work/$preset.mbox" ] || [ ! -s "$work/$preset.id" ]; then
		say "generating the $preset thread"
		"$here/gen-thread.sh" --preset "$preset" -o "$work/$preset.mbox" \
			>"$work/$preset.id"
	fi
}

# -I: the instruction count alone, deterministic on a busy machine
if [ "$only_count" = 1 ]; then
	echo "## lore-am's instructions (callgrind)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); lore-am $("$lore" --version | awk '{ print $2 }')" \
		"(tree $(git -C "$here/.." describe --always --dirty 2>/dev/null || echo '?'))"
	echo "- command: \`valgrind --tool=callgrind lore-am -q -m THREAD MSGID </dev/null\`"
	echo
	echo "| thread | messages | input bytes | instructions | per input byte | output bytes | output sha1 |"
	echo "|---|---|---|---|---|---|---|"
	for s in $sizes; do
		gen "$s"
		say "counting lore-am's instructions on the $s thread (callgrind)"
		valgrind --tool=callgrind --callgrind-out-file="$work/$s.cg" \
			"$lore" -q -m "$work/$s.mbox" "$(cat "$work/$s.id")" \
			</dev/null >"$work/$s.cg.out" 2>"$work/$s.cg.err" ||
			die "callgrind run failed: $(tail -3 "$work/$s.cg.err")"
		i=$(sed -n 's/.*Collected : *//p' "$work/$s.cg.err")
		b=$(wc -c <"$work/$s.mbox")
		echo "| $s | $(grep -c '^From ' "$work/$s.mbox") | $b" \
			"| $(awk -v i="$i" 'BEGIN { printf("%.1f M", i / 1e6) }')" \
			"| $(awk -v i="$i" -v b="$b" 'BEGIN { printf("%.1f", i / b) }')" \
			"| $(wc -c <"$work/$s.cg.out") | $(sha1sum <"$work/$s.cg.out" | cut -c1-12) |"
	done
	exit 0
fi

lore_cmd() { echo "'$lore' -q -m '$work/$1.mbox' '$(cat "$work/$1.id")' </dev/null"; }
b4_cmd() { echo "b4 -q -n am -m - -o - '$(cat "$work/$1.id")' <'$work/$1.mbox'"; }

# Both must succeed and write the same number of patches before we time them.
sanity() {
	local s=$1 nl nb
	sh -c "$(lore_cmd "$s")" >"$work/$s.lore.mbx" 2>"$work/$s.lore.err" ||
		die "lore-am failed on the $s thread: $(head -3 "$work/$s.lore.err")"
	sh -c "$(b4_cmd "$s")" >"$work/$s.b4.mbx" 2>"$work/$s.b4.err" ||
		die "b4 failed on the $s thread: $(head -3 "$work/$s.b4.err")"
	nl=$(grep -c '^Subject: \[PATCH' "$work/$s.lore.mbx" || true)
	nb=$(grep -c '^Subject: \[PATCH' "$work/$s.b4.mbx" || true)
	[ "$nl" -gt 0 ] && [ "$nl" = "$nb" ] ||
		die "$s thread: lore-am wrote $nl patches, b4 $nb"
	echo "$nl"
}

declare -A npatch nmsg size lw bw lc bc lr br li
for s in $sizes; do
	gen "$s"
	npatch[$s]=$(sanity "$s")
	nmsg[$s]=$(grep -c '^From ' "$work/$s.mbox")
	size[$s]=$(wc -c <"$work/$s.mbox")
	say "timing the $s thread (hyperfine, at least $runs runs each)"
	hyperfine --style basic --warmup 1 --min-runs "$runs" \
		--export-csv "$work/$s.csv" -n lore-am "$(lore_cmd "$s")" \
		-n b4 "$(b4_cmd "$s")" >"$work/$s.hyperfine" 2>&1 ||
		die "hyperfine failed: $(tail -3 "$work/$s.hyperfine")"
	lw[$s]=$(awk -F, '$1 == "lore-am" { print $4 }' "$work/$s.csv")
	bw[$s]=$(awk -F, '$1 == "b4" { print $4 }' "$work/$s.csv")
	say "CPU time and peak memory of the $s thread ($runs runs each)"
	timeit "$s.lore" "$((runs < 20 ? 20 : runs))" /dev/null "$lore" -q -m "$work/$s.mbox" \
		"$(cat "$work/$s.id")"
	timeit "$s.b4" "$runs" "$work/$s.mbox" b4 -q -n am -m - -o - \
		"$(cat "$work/$s.id")"
	lc[$s]=$(cpu "$s.lore")
	bc[$s]=$(cpu "$s.b4")
	lr[$s]=$(col "$s.lore" 4)
	br[$s]=$(col "$s.b4" 4)
	if [ "$count" = 1 ]; then
		say "counting lore-am's instructions on the $s thread (callgrind)"
		valgrind --tool=callgrind --callgrind-out-file="$work/$s.cg" \
			"$lore" -q -m "$work/$s.mbox" "$(cat "$work/$s.id")" \
			</dev/null >/dev/null 2>"$work/$s.cg.err" ||
			die "callgrind run failed: $(tail -3 "$work/$s.cg.err")"
		li[$s]=$(sed -n 's/.*Collected : *//p' "$work/$s.cg.err")
	fi
done

echo "## lore-am against b4 am"
echo
machine
echo "- commands, in the scratch git repository, same environment for both:"
echo '  `lore-am -q -m THREAD MSGID </dev/null` and'
echo '  `b4 -q -n am -m - -o - MSGID <THREAD` (b4 reads the mbox on stdin:'
echo '  Debian b4 0.12 fails on `-m FILE` with folded subjects)'
echo "- wall: median of hyperfine (warm-up 1, at least $runs runs);" \
	"CPU (user+sys) and peak RSS: median of $runs runs of b4 and of at least 20 of lore-am (wait4 rusage, bench/rusage.c)"
echo
echo "| thread | messages | mbox | patches | lore-am wall | b4 wall | b4/lore-am | lore-am CPU | b4 CPU | lore-am RSS | b4 RSS | RSS lore-am/b4 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for s in $sizes; do
	echo "| $s | ${nmsg[$s]} | $(awk -v b="${size[$s]}" 'BEGIN { printf("%.0f KB", b / 1024) }') | ${npatch[$s]}" \
		"| $(fmt_ms "${lw[$s]}") ms | $(fmt_ms "${bw[$s]}") ms | $(ratio "${bw[$s]}" "${lw[$s]}")x" \
		"| $(fmt_ms "${lc[$s]}") ms | $(fmt_ms "${bc[$s]}") ms" \
		"| $(awk -v k="${lr[$s]}" 'BEGIN { printf("%.1f MB", k / 1024) }')" \
		"| $(awk -v k="${br[$s]}" 'BEGIN { printf("%.1f MB", k / 1024) }')" \
		"| $(awk -v a="${lr[$s]}" -v b="${br[$s]}" 'BEGIN { printf("%.2f", a / b) }') |"
done
echo
echo "Growth with the thread (lore-am wall time and, when counted, instructions" \
	"executed, per message of the thread):"
echo
echo "| thread | messages | lore-am wall | per message | instructions | per message |"
echo "|---|---|---|---|---|---|"
for s in $sizes; do
	echo "| $s | ${nmsg[$s]} | $(fmt_ms "${lw[$s]}") ms" \
		"| $(awk -v w="${lw[$s]}" -v n="${nmsg[$s]}" 'BEGIN { printf("%.1f us", w * 1e6 / n) }')" \
		"| $(awk -v i="${li[$s]:-}" 'BEGIN { if (i == "") print "-"; else printf("%.1f M", i / 1e6) }')" \
		"| $(awk -v i="${li[$s]:-}" -v n="${nmsg[$s]}" 'BEGIN { if (i == "") print "-"; else printf("%.0f k", i / n / 1e3) }') |"
done
echo
# what the machine allows: starting the binary, and reading every byte
if [ -n "${lw[large]:-}" ]; then
	hyperfine --style basic --warmup 3 --min-runs 20 --export-csv "$work/floor.csv" \
		-n start "'$lore' --version" \
		-n config "git config -z --get-regexp '^(lore-am|b4|user)\\.'" \
		-n read "cat '$work/large.mbox' >/dev/null" >"$work/floor.hyperfine" 2>&1 ||
		die "hyperfine failed: $(tail -3 "$work/floor.hyperfine")"
	floor() { fmt_ms "$(awk -F, -v n="$1" '$1 == n { print $4 }' "$work/floor.csv")"; }
	echo "Floors on this machine (hyperfine medians): \`lore-am --version\`" \
		"(starting the process and loading its libraries) $(floor start) ms;" \
		"a \`git config\` call (lore-am makes one only when it cannot read git's files itself) $(floor config) ms;" \
		"\`cat\` of the large mbox $(floor read) ms."
	echo
fi

# ---- 2. --passthrough, one process per incoming message ----------------
[ "$ptmsgs" -gt 0 ] || exit 0

echo "## --passthrough: per-message cost"
echo
# The mailbox: copies of the small thread (a 5-patch series and its 20
# replies), each copy with its own Message-IDs, as a list delivers them. Each
# message is piped through lore-am with its own thread as the source (-m),
# as a procmail recipe does with a local or fetched thread.
ptdir=$work/passthrough
gen small
if [ ! -s "$ptdir/count" ] || [ "$(cat "$ptdir/count")" != "$ptmsgs" ]; then
	say "building a $ptmsgs-message mailbox"
	rm -rf "$ptdir"
	mkdir -p "$ptdir/threads" "$ptdir/msgs"
	per=$(grep -c '^From ' "$work/small.mbox")
	copies=$(((ptmsgs + per - 1) / per))
	for ((c = 0; c < copies; c++)); do
		sed -e "s/@example\.org>/@t$c.example.org>/g" \
			-e "s/@mail\.example\.net>/@t$c.mail.example.net>/g" \
			"$work/small.mbox" >"$ptdir/threads/$c.mbox"
		mkdir "$ptdir/msgs/$c"
		git mailsplit -o"$ptdir/msgs/$c" "$ptdir/threads/$c.mbox" >/dev/null
	done
	# the first PTMSGS messages, in delivery order within each thread
	(cd "$ptdir/msgs" && find . -type f | sort -t/ -k2,2n -k3,3 | head -n "$ptmsgs" |
		sed 's|^\./||') >"$ptdir/list"
	echo "$ptmsgs" >"$ptdir/count"
fi
n=$(wc -l <"$ptdir/list")

# loop TEMPLATE: run TEMPLATE once per message (THREAD and MSG substituted),
# prints the elapsed seconds
loop() {
	local tmpl=$1 t0 t1
	t0=$(date +%s.%N)
	while IFS=/ read -r c m; do
		t=${tmpl//THREAD/$ptdir/threads/$c.mbox}
		eval "${t//MSG/$ptdir/msgs/$c/$m}"
	done <"$ptdir/list"
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
per_msg() { awk -v t="$1" -v n="$n" 'BEGIN { printf("%.2f", t * 1000 / n) }'; }

say "passthrough floor: the same loop with cat"
floor=$(loop "cat <MSG >/dev/null")
mkdir -p "$ptdir/out"
if "$lore" --help 2>&1 | grep -c -- '--passthrough' >/dev/null; then
	say "timing --passthrough over $n messages"
	pt=$(loop "'$lore' --passthrough -q -m THREAD -o '$ptdir/out' <MSG >'$ptdir/copy' 2>>'$ptdir/err'")
	echo "- mailbox: $n messages ($(awk -v n="$n" 'BEGIN { printf("%d", (n + 25) / 26) }')" \
		"threads of a 5-patch series with 20 replies, each with its own ids)"
	echo "- command per message: \`lore-am --passthrough -q -m THREAD -o OUT <MSG >COPY\`"
	echo "- total $(awk -v t="$pt" 'BEGIN { printf("%.1f", t) }') s, **$(per_msg "$pt") ms per message**;" \
		"the same loop with \`cat\` instead of lore-am: $(per_msg "$floor") ms per message" \
		"(lore-am's own share: $(per_msg "$(awk -v a="$pt" -v b="$floor" 'BEGIN { print a - b }')") ms)"
else
	say "this lore-am has no --passthrough: not measured"
	ref=$(loop "'$lore' -q -m THREAD -o '$ptdir/out' <MSG >/dev/null 2>>'$ptdir/err' || true")
	echo "- **not measured**: this lore-am has no \`--passthrough\` option yet."
	echo "- for reference only (not the passthrough mode): the same loop over $n" \
		"messages running the am filter (\`lore-am -q -m THREAD -o OUT <MSG\`)" \
		"takes $(per_msg "$ref") ms per message; with \`cat\` instead of" \
		"lore-am, $(per_msg "$floor") ms per message"
fi
echo
