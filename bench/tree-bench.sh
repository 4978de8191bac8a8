#!/usr/bin/env bash
# tree-bench.sh - the whole key press in a kernel-sized tree: lore-am's
# -o -, --apply (=head, =merge) and --range-diff against b4's am, shazam
# (-H, -M) and diff, and against the same git work done by hand
# (bench/tree-floors.sh), on a generated repository of 80 000 files in
# 4 000 folders with 3 000 commits (bench/gen-tree.sh) and a 10- and a
# 50-patch series; then --check's cost with a per-patch command, and git's
# trace2 account of where lore-am's time goes.
#
# Usage:
#   tree-bench.sh [-n PAIRS] [-S "10 50"] [-s STEPS] [-w DIR] [-L LORE_AM] [-X] [-T] [-K]
#
#   -n PAIRS    interleaved runs of each command (default 5; medians)
#   -S SIZES    the series, in patches (default "10 50")
#   -s STEPS    only these steps (default "out apply head merge rangediff"),
#               with their floors; the others' cells say nan or n/a
#   -w DIR      work folder, kept and reused (default bench/out/tree): the
#               generated tree, the user's clone, raw timings
#   -L LORE_AM  the binary to time (default ./lore-am of this tree)
#   -X          skip the variants that are not floors (fi, idx4, cone,
#               cached, rd expect, rd smallpar)
#   -T          skip the trace2 summary
#   -K          skip the --check measure
#   -k          only the --check measure
#
# Every run starts from the same state: the clone's branch reset to the
# series' base, FETCH_HEAD, ORIG_HEAD, b4's .git/b4-cover and
# extensions.worktreeConfig (which b4 shazam -H/-M leave) removed, b4's
# cache put back to the thread alone. After each run the result is checked:
# the tree of the series' v2 and the same patch-ids, as separate commits.
# Prints a Markdown report on stdout; progress on stderr. Needs git, perl,
# cc and b4. See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "tree-bench.sh: $*" >&2; exit 2; }
say() { echo "tree-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
pairs=5 sizes="10 50" work=$here/out/tree lore=$here/../lore-am
steps="out apply head merge rangediff"
variants=1 trace=1 checks=1 only_check=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) pairs=${2:?}; shift 2 ;;
	-S) sizes=${2:?}; shift 2 ;;
	-s) steps=${2:?}; shift 2 ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	-X) variants=0; shift ;;
	-T) trace=0; shift ;;
	-K) checks=0; shift ;;
	-k) only_check=1; shift ;;
	-h|--help) usage 0 ;;
	*) echo "tree-bench.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $pairs in ''|*[!0-9]*|0) die "-n takes a positive number" ;; esac
for p in git perl cc b4; do
	command -v "$p" >/dev/null || die "$p not found"
done
[ -x "$lore" ] || die "$lore not found (run make first)"
lore=$(cd "$(dirname "$lore")" && pwd)/$(basename "$lore")
mkdir -p "$work"
work=$(cd "$work" && pwd)
floors=$here/tree-floors.sh

export HOME=$work/home XDG_CACHE_HOME=$work/home/.cache
export XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
export LC_ALL=C.UTF-8 TZ=UTC
unset GIT_CONFIG_COUNT GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
unset GIT_TRACE2 GIT_TRACE2_EVENT GIT_TRACE2_PERF
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email "bench@example.org"
git config --global b4.attestation-policy off
git config --global advice.detachedHead false
cc -O2 -o "$work/rusage" "$here/rusage.c" || die "cannot build bench/rusage.c"

# ---- the tree, the series and the user's clone ------------------------
gen=$work/gen
ok=1
for n in $sizes; do [ -s "$gen/s$n.id" ] || ok=0; done
if [ "$ok" = 0 ]; then
	say "generating the tree and the series (bench/gen-tree.sh)"
	rm -rf "$gen"
	t0=$(date +%s.%N)
	"$here/gen-tree.sh" -S "$sizes" -o "$gen"
	gen_secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf("%.1f", b - a) }')
	echo "$gen_secs" >"$gen/seconds"
fi
user=$work/user
if [ ! -e "$user/.git/bench-ready" ]; then
	say "cloning the tree and checking out its 80 000 files"
	rm -rf "$user"
	git clone -q --shared -n "$gen/tree.git" "$user"
	git -C "$user" fetch -q "$gen/s$(echo $sizes | cut -d' ' -f1).git" \
		"+refs/tags/base:refs/tags/base"
	git -C "$user" checkout -q -b work base
	touch "$user/.git/bench-ready"
fi
for n in $sizes; do
	git -C "$user" fetch -q "$gen/s$n.git" "+refs/tags/base:refs/tags/base" \
		"+refs/heads/v1:refs/heads/s$n-v1" "+refs/heads/v2:refs/heads/s$n-v2"
done
cd "$user"

declare -A id
for n in $sizes; do
	id[$n]=$(cat "$gen/s$n.id")
	# the am-ready mboxes of both revisions, as lore-am writes them: the
	# input of the hand floors
	"$lore" -q -m "$gen/s$n.mbox" -o - "${id[$n]}" </dev/null >"$work/s$n.mbx"
	"$lore" -q -m "$gen/s$n.mbox" -v 1 -o - "${id[$n]}" </dev/null >"$work/s$n.v1.mbx"
	# b4 diff reads a thread only from lore.kernel.org or its cache: the
	# cache it keeps after a first run, primed with the thread
	rm -rf "$work/b4diff-$n"
	mkdir -p "$work/b4diff-$n"
	git mailsplit --mboxrd -o"$work/b4diff-$n" "$gen/s$n.mbox" >/dev/null
	# the expected result: v2's tree and patch-ids
	git rev-parse "s$n-v2^{tree}" >"$work/s$n.tree"
	git log -p "base..s$n-v2" | git patch-id --stable | cut -d' ' -f1 |
		sort >"$work/s$n.pids"
done

# ---- one run: same start, timed, result checked -----------------------
reset_state() {
	rm -rf .git/rebase-apply .git/MERGE_HEAD .git/MERGE_MSG .git/MERGE_MODE
	git reset -q --hard base
	rm -f .git/FETCH_HEAD .git/ORIG_HEAD .git/b4-cover .git/config.worktree
	git config --unset-all extensions.worktreeConfig 2>/dev/null || true
	git worktree prune
	git update-ref -d refs/floor/tip 2>/dev/null || true
	rm -rf "$XDG_CACHE_HOME/b4" "$XDG_DATA_HOME/b4"
}
b4_prime() {
	local d
	d=$XDG_CACHE_HOME/b4/$(printf %s "${id[$1]}" | sha1sum | cut -c1-40).diff.msgs
	mkdir -p "$d"
	cp "$work/b4diff-$1"/* "$d/"
}

# expect N COMMIT: COMMIT holds the series, as separate commits on base
expect() {
	local n=$1 c=$2
	[ "$(git rev-parse "$c^{tree}")" = "$(cat "$work/s$n.tree")" ] || return 1
	git log -p "base..$c" | git patch-id --stable | cut -d' ' -f1 |
		sort | cmp -s - "$work/s$n.pids"
}
check_result() {
	local n=$1 kind=$2
	case $kind in
	branch) expect "$n" HEAD ;;
	head)
		[ "$(git rev-parse HEAD)" = "$(git rev-parse base)" ] &&
			expect "$n" "$(cut -f1 .git/FETCH_HEAD)" ;;
	merge)
		[ "$(git rev-parse HEAD^1)" = "$(git rev-parse base)" ] &&
			expect "$n" HEAD^2 && expect "$n" HEAD ;;
	none) true ;;
	esac
}

# timed N LABEL KIND INPUT CMD...: one run from the reset state; appends
# "wall user sys maxrss" to $work/t/N.LABEL
timed() {
	local n=$1 label=$2 kind=$3 in=$4
	shift 4
	reset_state
	[ "$label" != b4.rangediff ] || b4_prime "$n"
	if ! "$work/rusage" 1 "$in" "$@" >>"$work/t/$n.$label"; then
		# again, for git's or b4's words (rusage discards them)
		reset_state
		"$@" <"$in" >/dev/null 2>"$work/t/last.err" || true
		die "$label ($n patches) failed: $(tail -3 "$work/t/last.err")"
	fi
	check_result "$n" "$kind" ||
		die "$label ($n patches): the result is not the series' v2"
}

# run_one N WHO STEP: the command of one cell of the table
run_one() {
	local n=$1 who=$2 step=$3 t=$gen/s$1.mbox i=${id[$1]}
	case $who.$step in
	L.out) timed "$n" L.out none /dev/null "$lore" -q -m "$t" -o - "$i" ;;
	B.out) timed "$n" B.out none "$t" b4 -q -n --offline-mode am -m - -o - "$i" ;;
	L.apply) timed "$n" L.apply branch /dev/null "$lore" -q -m "$t" --apply "$i" ;;
	B.apply) timed "$n" B.apply branch "$t" b4 -q -n --offline-mode shazam -m - "$i" ;;
	L.head) timed "$n" L.head head /dev/null "$lore" -q -m "$t" --apply=head "$i" ;;
	B.head) timed "$n" B.head head "$t" b4 -q -n --offline-mode shazam -H -m - "$i" ;;
	L.merge) timed "$n" L.merge merge /dev/null "$lore" -q -m "$t" --apply=merge "$i" ;;
	B.merge) timed "$n" B.merge merge "$t" b4 -q -n --offline-mode shazam -M -m - "$i" ;;
	L.rangediff) timed "$n" L.rangediff none /dev/null "$lore" -q -m "$t" --range-diff "$i" ;;
	B.rangediff) timed "$n" b4.rangediff none /dev/null b4 -q -n --offline-mode diff "$i" ;;
	F.am) timed "$n" F.am branch "$work/s$n.mbx" git am --quiet ;;
	F.*) local v=${step#*-}
		case $step in
		apply-*) timed "$n" "F.$step" branch /dev/null "$floors" apply "$v" "$work/s$n.mbx" ;;
		rd-*) timed "$n" "F.$step" none /dev/null "$floors" rangediff "$v" \
			"$work/s$n.v1.mbx" "$work/s$n.mbx" ;;
		esac ;;
	esac
}

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# med N LABEL [COLUMN]: the median wall time (or column) of a cell
med() { awk -v c="${3:-1}" '{ print $c }' "$work/t/$1.$2" | median; }
# cpu N LABEL: the median user+system CPU time of a cell (the git it runs
# included: rusage waits for it), steadier than wall time under load
cpu() { awk '{ print $2 + $3 }' "$work/t/$1.$2" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf("%.2f", a / b); else print "n/a" }'; }
secs() { awk -v s="$1" 'BEGIN { printf(s < 1 ? "%.3f" : "%.2f", s) }'; }
mark() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "met" : "**missed**") }'; }

mkdir -p "$work/t" "$work/cmp"
if [ "$only_check" = 0 ]; then
# ---- sanity: the outputs both tools write are the same series ---------
say "checking both tools' results once"
mkdir -p "$work/t" "$work/cmp"
rm -f "$work"/t/[0-9]*
for n in $sizes; do
	reset_state
	"$lore" -q -m "$gen/s$n.mbox" -o - "${id[$n]}" </dev/null >"$work/cmp/L$n.mbx"
	b4 -q -n --offline-mode am -m - -o - "${id[$n]}" <"$gen/s$n.mbox" >"$work/cmp/B$n.mbx"
	for w in L B; do
		git mailsplit -o"$work/cmp/$w$n" "$work/cmp/$w$n.mbx" >/dev/null 2>&1 ||
			mkdir -p "$work/cmp/$w$n"
		git patch-id --stable <"$work/cmp/$w$n.mbx" | cut -d' ' -f1 | sort \
			>"$work/cmp/$w$n.pids"
	done
	cmp -s "$work/cmp/L$n.pids" "$work/s$n.pids" && cmp -s "$work/cmp/B$n.pids" "$work/s$n.pids" ||
		die "-o - ($n patches): lore-am's and b4's patches are not v2's"
	# range-diff: the same pairs of patches (the markers may differ:
	# lore-am's commits carry the reviewers' trailers, b4 diff's do not)
	"$lore" -q -m "$gen/s$n.mbox" --range-diff "${id[$n]}" </dev/null >"$work/cmp/L$n.rd"
	b4_prime "$n"
	b4 -q -n --offline-mode diff "${id[$n]}" </dev/null >"$work/cmp/B$n.rd" 2>/dev/null
	for w in L B; do
		sed -e 's/\x1b\[[0-9;]*m//g' "$work/cmp/$w$n.rd" |
			sed -En 's/^ *([0-9-]+): +[0-9a-f-]+ [=!<>] +([0-9-]+): +[0-9a-f-]+ (.*)/\1 \2 \3/p' \
			>"$work/cmp/$w$n.pairs"
	done
	[ -s "$work/cmp/L$n.pairs" ] && cmp -s "$work/cmp/L$n.pairs" "$work/cmp/B$n.pairs" ||
		die "--range-diff ($n patches): lore-am and b4 diff pair other patches"
done

# ---- the interleaved runs ---------------------------------------------
fl="F.am F.apply-seq F.apply-expect F.rd-small F.rd-seq"
[ "$variants" = 0 ] || fl="$fl F.apply-fi F.apply-idx4 F.apply-cone F.apply-cached F.rd-expect F.rd-smallpar"
case " $steps " in *" rangediff "*) ;; *) fl=$(echo $fl | tr ' ' '\n' | grep -v '^F.rd-' | xargs) ;; esac
case " $steps " in *" apply "*|*" head "*|*" merge "*) ;; *) fl=$(echo $fl | tr ' ' '\n' | grep '^F.rd-' | xargs) ;; esac
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)
for ((r = 1; r <= pairs; r++)); do
	for n in $sizes; do
		say "round $r of $pairs, $n patches (load $(cut -d' ' -f1 /proc/loadavg))"
		for s in $steps; do
			# the pair's order alternates, so that a load change hits
			# both tools alike
			if [ $((r % 2)) = 1 ]; then
				run_one "$n" L "$s"; run_one "$n" B "$s"
			else
				run_one "$n" B "$s"; run_one "$n" L "$s"
			fi
		done
		for f in $fl; do run_one "$n" F "${f#F.}"; done
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
t_end=$(date +%s)


# ---- the report --------------------------------------------------------
echo "## lore-am against b4 in a kernel-sized tree (bench/tree-bench.sh)"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`bench/tree-bench.sh -n $pairs -S \"$sizes\"\`"
echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"load average $load0 at the start of the timed runs, $load1 at the end ($((t_end - t_start)) s)"
echo "- lore-am $("$lore" --version | awk '{ print $2 }') (tree $(git -C "$here/.." describe --always --dirty 2>/dev/null || echo '?'))," \
	"b4 $(b4 --version 2>&1 | head -1), git $(git --version | awk '{ print $3 }')"
echo "- tree: $(git ls-files | wc -l) files, $(git rev-list --count base) commits;" \
	"index $(($(stat -c %s .git/index) / 1024)) KB${gen_secs:+; generated in $gen_secs s}"
echo "- each cell: median wall time of $pairs runs, the lore-am and b4 runs of a step interleaved (order alternating)," \
	"each from the reset state, each result checked (v2's tree and patch-ids)"
echo "- b4 runs \`b4 -q -n --offline-mode\` with the thread on stdin (\`-m -\`: b4 0.12 fails on" \
	"\`-m FILE\` with folded subjects), so -M does not prompt and merges with --no-edit, as lore-am does without a terminal;" \
	"\`b4 diff\` reads the thread from its cache (primed before each run; its fake-am cache removed)"
echo
printf '| step |'
for n in $sizes; do printf ' %s patches: lore-am / b4 | lore-am | b4 |' "$n"; done
echo
printf '|---|'
for n in $sizes; do printf -- '---|---|---|'; done
echo
name_L() {
	case $1 in
	out) echo '`-o - ID` vs `b4 am -o -`' ;;
	apply) echo '`--apply` vs `b4 shazam`' ;;
	head) echo '`--apply=head` vs `b4 shazam -H`' ;;
	merge) echo '`--apply=merge` vs `b4 shazam -M`' ;;
	rangediff) echo '`--range-diff` vs `b4 diff`' ;;
	esac
}
for s in $steps; do
	b=B.$s
	[ "$s" != rangediff ] || b=b4.rangediff
	printf '| %s |' "$(name_L "$s")"
	for n in $sizes; do
		l=$(med "$n" "L.$s") bb=$(med "$n" "$b")
		printf ' %s | %s s | %s s |' "$(ratio "$l" "$bb")" "$(secs "$l")" "$(secs "$bb")"
	done
	echo
done
echo
echo "The same in user+system CPU time (lore-am or b4 and every process they ran; steadier than"
echo "wall time on a loaded machine, blind to waiting and to work spread over cores):"
echo
printf '| step |'
for n in $sizes; do printf ' %s patches: lore-am / b4 | lore-am | b4 |' "$n"; done
echo
printf '|---|'
for n in $sizes; do printf -- '---|---|---|'; done
echo
for s in $steps; do
	b=B.$s
	[ "$s" != rangediff ] || b=b4.rangediff
	printf '| %s |' "$(name_L "$s")"
	for n in $sizes; do
		l=$(cpu "$n" "L.$s") bb=$(cpu "$n" "$b")
		printf ' %s | %s s | %s s |' "$(ratio "$l" "$bb")" "$(secs "$l")" "$(secs "$bb")"
	done
	echo
done
case " $steps " in *" apply "*)
printf '| `--apply` vs floor A (plain `git am`) |'
for n in $sizes; do
	l=$(cpu "$n" L.apply) bb=$(cpu "$n" F.am)
	printf ' %s | %s s | %s s |' "$(ratio "$l" "$bb")" "$(secs "$l")" "$(secs "$bb")"
done
echo ;;
esac
echo
echo "Against the hand floors (\`bench/tree-floors.sh\`, the same am-ready mbox, medians of $pairs):"
echo
printf '| what |'
for n in $sizes; do printf ' %s patches |' "$n"; done
echo
printf '|---|'
for n in $sizes; do printf -- '---|'; done
echo
row() {
	local title=$1 label=$2
	[ -e "$work/t/${sizes%% *}.$label" ] || return 0
	printf '| %s |' "$title"
	for n in $sizes; do printf ' %s s |' "$(secs "$(med "$n" "$label")")"; done
	echo
}
row '`git am` of the mbox in the work tree (floor A)' F.am
row "lore-am's sequence by hand (apply seq)" F.apply-seq
row 'the same with `sparse.expectFilesOutsideOfPatterns=true` (floor B)' F.apply-expect
row "lore-am's range-diff sequence by hand (rd seq)" F.rd-seq
row 'small-index range-diff, b4'"'"'s fake am (floor C)' F.rd-small
if [ "$variants" = 1 ]; then
	row 'apply fi: git am on the small tree, commits rebuilt by fast-import' F.apply-fi
	row 'apply idx4: floor B with a version 4 index' F.apply-idx4
	row 'apply cone: cone patterns, sparse index' F.apply-cone
	row 'apply cached: temporary index, apply --cached, commit-tree' F.apply-cached
	row 'rd expect: rd seq with expectFilesOutsideOfPatterns' F.rd-expect
	row 'rd smallpar: floor C, both revisions at once' F.rd-smallpar
fi
echo
echo "Targets (ratios of this run: wall time, then user+system CPU time):"
echo
printf '| target |'
for n in $sizes; do printf ' %s patches: wall | CPU |' "$n"; done
echo
printf '|---|'
for n in $sizes; do printf -- '---|---|'; done
echo
# target_row TITLE LABEL BASE LIMIT: the wall and CPU ratios of LABEL to BASE
target_row() {
	local r c
	printf '| %s |' "$1"
	for n in $sizes; do
		r=$(ratio "$(med "$n" "$2")" "$(med "$n" "$3")")
		c=$(ratio "$(cpu "$n" "$2")" "$(cpu "$n" "$3")")
		printf ' %sx: %s | %sx: %s |' "$r" "$(mark "$r" "$4")" "$c" "$(mark "$c" "$4")"
	done
	echo
}
for s in $(echo $steps | tr ' ' '\n' | grep -x 'apply\|head\|merge'); do
	m=$([ "$s" = apply ] || echo "=$s")
	target_row "\`--apply$m\` <= 1.2x floor A" "L.$s" F.am 1.2
	target_row "\`--apply$m\` <= 0.6x b4" "L.$s" "B.$s" 0.6
done
case " $steps " in *" rangediff "*)
target_row '`--range-diff` <= 0.3x `b4 diff`' L.rangediff b4.rangediff 0.3
printf '| `--range-diff` against floor C |'
for n in $sizes; do
	printf ' %sx | %sx |' "$(ratio "$(med "$n" L.rangediff)" "$(med "$n" F.rd-small)")" \
		"$(ratio "$(cpu "$n" L.rangediff)" "$(cpu "$n" F.rd-small)")"
done
echo ;;
esac
echo

# ---- trace2: where lore-am's time goes ---------------------------------
if [ "$trace" = 1 ]; then
	for n in $sizes; do
		for s in apply head merge rangediff; do
			reset_state
			rm -f "$work/t/trace.$n.$s"
			a=(--apply)
			case $s in head) a=(--apply=head) ;; merge) a=(--apply=merge) ;; rangediff) a=(--range-diff) ;; esac
			t0=$(date +%s.%N)
			GIT_TRACE2_EVENT=$work/t/trace.$n.$s "$lore" -q -m "$gen/s$n.mbox" "${a[@]}" \
				"${id[$n]}" </dev/null >/dev/null 2>&1 || die "traced run failed"
			awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }' >"$work/t/trace.$n.$s.wall"
		done
	done
	echo "Where lore-am's time goes (git's trace2 events, one traced run each; git commands by name, their"
	echo "own elapsed time, and the index and checkout regions inside them, summed over the processes):"
	echo
	for n in $sizes; do
		for s in apply head merge rangediff; do
			perl "$here/trace2-sum.pl" "$(cat "$work/t/trace.$n.$s.wall")" \
				"$n patches, \`$(name_L "$s" | sed 's/`//g; s/ vs .*//')\`" <"$work/t/trace.$n.$s"
		done
	done
fi

fi

# ---- --check: one run of the check command per patch ---------------------
if [ "$checks" = 1 ]; then
	n=$(echo "$sizes" | awk '{ print $NF }')
	# a checkpatch-like command: reads the patch, flags long lines,
	# trailing white space and a missing sign-off, as --terse does, and
	# takes 0.1 s more, as a real checker's start-up and rules would
	cat >"$work/check.pl" <<'PERL'
#!/usr/bin/perl
my ($n, $sob) = (0, 0);
while (<STDIN>) {
	$n++;
	$sob = 1 if /^Signed-off-by: /;
	next unless /^\+/ && !/^\+\+\+ /;
	print "-:$n: WARNING: line length exceeds 100 columns\n" if length($_) > 101;
	print "-:$n: ERROR: trailing whitespace\n" if /[ \t]\n\z/;
}
print "-:$n: ERROR: Missing Signed-off-by: line(s)\n" unless $sob;
select(undef, undef, undef, 0.1);
PERL
	chmod +x "$work/check.pl"
	git config lore-am.am-perpatch-check-cmd "$work/check.pl"
	say "--check: $n patches, $pairs runs"
	rm -f "$work/t/$n.check" "$work/t/$n.nocheck" "$work/t/$n.one"
	for ((r = 1; r <= pairs; r++)); do
		timed "$n" nocheck none /dev/null "$lore" -q -m "$gen/s$n.mbox" -o - "${id[$n]}"
		timed "$n" check none /dev/null "$lore" -m "$gen/s$n.mbox" --check -o - "${id[$n]}"
	done
	rm -rf "$work/cmp/one"
	mkdir -p "$work/cmp/one"
	git mailsplit -o"$work/cmp/one" "$work/s$n.mbx" >/dev/null
	"$work/rusage" "$pairs" "$work/cmp/one/0001" "$work/check.pl" >"$work/t/$n.one"
	"$lore" -m "$gen/s$n.mbox" --check -o - "${id[$n]}" </dev/null 2>"$work/cmp/check.err" >/dev/null
	git config --unset lore-am.am-perpatch-check-cmd
	c=$(med "$n" check) nc=$(med "$n" nocheck) one=$(med "$n" one)
	echo "\`--check\` with a per-patch command ($n patches; the command: a Perl script of checkpatch's"
	echo "\`--terse\` kind that takes 0.1 s a patch; medians of $pairs runs):"
	echo
	echo "| what | wall |"
	echo "|---|---|"
	echo "| \`lore-am -o - ID\` | $(secs "$nc") s |"
	echo "| \`lore-am --check -o - ID\` | $(secs "$c") s |"
	echo "| the checks' share (the difference) | $(secs "$(awk -v a="$c" -v b="$nc" 'BEGIN { print a - b }')") s |"
	echo "| one run of the command on one patch | $(secs "$one") s |"
	echo "| $n runs one after the other (sequential floor) | $(secs "$(awk -v o="$one" -v n="$n" 'BEGIN { print o * n }')") s |"
	echo "| $n runs, $(nproc) at a time (the parallel target) | $(secs "$(awk -v o="$one" -v n="$n" -v c="$(nproc)" 'BEGIN { print o * int((n + c - 1) / c) }')") s |"
	echo
	echo "lore-am's summary line: $(grep '^Checked' "$work/cmp/check.err" || echo none)"
	echo
fi
reset_state
