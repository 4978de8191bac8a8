#!/usr/bin/env bash
# gate-bench.sh - what the maintainer's gate (lore-am.gate) costs: the
# large generated thread (gen-thread.sh --preset large, 3303 messages,
# v3 of 100 patches) read in a work tree of the kernel-sized repository
# (gen-tree.sh: 80 000 files, 3 000 commits, release tags v6.6 and v6.7
# added), with the gate off and on (warn), in two forms: the thread as
# generated (no Fixes:, every patch signed off by its author: the gate
# runs no git process) and the same thread with a Fixes: line in every
# patch naming a commit of the tree (100 distinct commits, all newer than
# v6.7). For each: RUNS interleaved pairs (off, then warn) of runs under
# bench/rusage.c, their medians of wall time and of user+system CPU time
# (lore-am and every process it started and waited for), the processes
# each run started (strace -f, when there), then the instructions of
# lore-am alone and with the git processes it starts (callgrind, which
# a loaded machine does not change). Where perf works, the same pairs
# again under `perf stat` (task-clock and page faults, the git children
# counted); where strace is, the system calls of one run of each (the
# cost that instructions do not show: writes, opens, stats, execs). The
# report ends with the one command that measures it all again in the
# same work folder (the tree and threads kept).
#
# Usage:
#   gate-bench.sh [-n RUNS] [-i] [-w DIR] [-L LORE_AM]
#
#   -n RUNS     interleaved pairs of runs (default 10)
#   -i          instructions only, no wall or CPU time (a loaded
#               machine's wall time is noise)
#   -w DIR      work folder, kept and reused (default bench/out/gate)
#   -L LORE_AM  the binary to time (default ./lore-am of this tree)
#
# Prints a Markdown report on stdout; progress on stderr. Needs git, perl,
# cc and valgrind (strace for the process counts). See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "gate-bench.sh: $*" >&2; exit 2; }
say() { echo "gate-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
runs=10 work=$here/out/gate lore=$here/../lore-am wall=1
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=${2:?}; shift 2 ;;
	-i) wall=0; shift ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "gate-bench.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "-n takes a positive number" ;; esac
for p in git perl cc valgrind; do
	command -v "$p" >/dev/null || die "$p not found"
done
lore=$(cd "$(dirname "$lore")" && pwd)/$(basename "$lore")
[ -x "$lore" ] || die "no lore-am at $lore"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# the tree, a work tree of it with release tags, the thread
if [ ! -d "$work/tree/tree.git" ]; then
	say "generating the tree (about 20 s)"
	rm -rf "$work/tree"
	"$here/gen-tree.sh" -S 10 -o "$work/tree" >&2
fi
if [ ! -d "$work/user" ]; then
	say "checking out the tree (80 000 files)"
	git clone -q "$work/tree/tree.git" "$work/user"
	git -C "$work/user" tag -a -m v6.6 v6.6 main~2000
	git -C "$work/user" tag -a -m v6.7 v6.7 main~1000
fi
if [ ! -f "$work/large.id" ]; then
	say "generating the large thread"
	"$here/gen-thread.sh" --preset large -o "$work/large.mbox" >"$work/large.id"
fi
id=$(cat "$work/large.id")
# every patch (not the cover letters, not the replies) gets a Fixes:
# naming one of the tree's last 100 commits, above its first sign-off;
# bodies sent base64 or quoted-printable are left as they are
if [ ! -f "$work/fixes.mbox" ]; then
	git -C "$work/user" log -n 100 --abbrev=12 --format='%h %s' main \
		>"$work/commits"
	perl -e '
	open(my $c, "<", $ARGV[0]) or die; my @c = <$c>; chomp @c;
	open(my $m, "<", $ARGV[1]) or die; local $/; my $all = <$m>;
	my @msgs = split /(?=^From \S+ .*\n)/m, $all; my ($k, $n) = (0, 0);
	for (@msgs) {
		my ($h, $b) = split /\n\n/, $_, 2; next unless defined $b;
		next unless $h =~ /^Subject: \[PATCH[^\]]*\s0*[1-9]\d*\/\d+\]/mi;
		next if $h =~ /^Content-Transfer-Encoding: *(base64|quoted)/mi;
		my ($id, $s) = split / /, $c[$k++ % @c], 2;
		$n++ if $b =~ s/^(Signed-off-by: )/Fixes: $id ("$s")\n$1/m;
		$_ = "$h\n\n$b";
	}
	print STDERR "gate-bench.sh: a Fixes: line in $n patches\n";
	open(my $o, ">", $ARGV[2]) or die; print $o @msgs;
	' "$work/commits" "$work/large.mbox" "$work/fixes.mbox"
fi
for g in off warn; do
	mkdir -p "$work/home-$g"
	printf '[lore-am]\n\tgate = %s\n\tattestation-policy = off\n' "$g" \
		>"$work/home-$g/.gitconfig"
done

cc -O2 -o "$work/rusage" "$here/rusage.c" || die "cannot build bench/rusage.c"
cd "$work/user"
# one run under rusage: "wall user sys rss" (seconds, KB)
one() {
	HOME=$work/home-$1 "$work/rusage" 1 /dev/null "$lore" -m "$work/$2.mbox" -o - "$id"
}
# the median of column $1 (1 wall, 2 user+sys) of a file of rusage lines
median() {
	awk -v c="$1" '{ print (c == 1 ? $1 : $2 + $3) }' "$2" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.4f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
ratio() { perl -e "printf '%.3f', $2 / $1"; }
# perf stat on this machine (a container may forbid it)?
perf_ok=0
command -v perf >/dev/null && perf stat -x, -e task-clock true >/dev/null 2>&1 && perf_ok=1
# one run under perf stat: "task-clock(ms) page-faults"
one_perf() {
	HOME=$work/home-$1 perf stat -x, -e task-clock,page-faults -o "$work/perf.one" \
		"$lore" -m "$work/$2.mbox" -o - "$id" >/dev/null 2>&1
	awk -F, '/task-clock/ { t = $1 } /page-faults/ { p = $1 } END { print t, p }' "$work/perf.one"
}
# the system calls of one run (lore-am and its children): "total writes
# opens+stats execs"
sys_run() {
	command -v strace >/dev/null || { echo "n/a"; return; }
	HOME=$work/home-$1 strace -f -qq -c -o "$work/sc.$1.$2" \
		"$lore" -m "$work/$2.mbox" -o - "$id" >/dev/null 2>&1 || true
	awk '$NF == "total" { t = $4 } $NF == "write" { w = $4 }
	     $NF ~ /^(openat|open|newfstatat|stat|lstat|statx|access)$/ { o += $4 }
	     $NF == "execve" { e = $4 }
	     END { printf "%d calls, %d writes, %d opens+stats, %d execve", t, w, o, e }' \
		"$work/sc.$1.$2"
}
# the processes one run starts (lore-am itself not counted): the
# execve(2) calls that succeeded, under strace -f
nproc_run() {
	command -v strace >/dev/null || { echo "n/a"; return; }
	HOME=$work/home-$1 strace -f -qq -e trace=execve -o "$work/st.$1.$2" \
		"$lore" -m "$work/$2.mbox" -o - "$id" >/dev/null 2>&1 || true
	echo $(( $(grep -c 'execve(.*= 0$' "$work/st.$1.$2") - 1 ))
}
report=$work/report.md
{
	echo "Command: \`bench/gate-bench.sh -n $runs$([ "$wall" = 1 ] || echo ' -i')\`, $(date -u +%H:%M) UTC, load $(cut -d' ' -f1 /proc/loadavg) at the start."
	echo
	if [ "$wall" = 1 ]; then
		echo "| thread | wall, gate off | gate warn | warn / off | CPU (user+sys), gate off | gate warn | warn / off | processes, off | warn |"
		echo "|---|---|---|---|---|---|---|---|---|"
	fi
} >"$report"
for t in large fixes; do
	[ "$wall" = 1 ] || break
	say "timing $t: $runs interleaved pairs"
	one off "$t" >/dev/null; one warn "$t" >/dev/null
	: >"$work/$t.off.times"; : >"$work/$t.warn.times"
	for _ in $(seq "$runs"); do
		one off "$t" >>"$work/$t.off.times"
		one warn "$t" >>"$work/$t.warn.times"
	done
	wo=$(median 1 "$work/$t.off.times") ww=$(median 1 "$work/$t.warn.times")
	co=$(median 2 "$work/$t.off.times") cw=$(median 2 "$work/$t.warn.times")
	echo "| $t (medians) | ${wo} s | ${ww} s | $(ratio "$wo" "$ww") | ${co} s | ${cw} s | $(ratio "$co" "$cw") | $(nproc_run off "$t") | $(nproc_run warn "$t") |" >>"$report"
done
[ "$wall" = 1 ] && echo "Load $(cut -d' ' -f1 /proc/loadavg) at the end of the timed runs." >>"$report"
if [ "$wall" = 1 ] && [ "$perf_ok" = 1 ]; then
	{
		echo
		echo "| thread | task-clock, gate off | gate warn | warn / off | page faults, off | warn |"
		echo "|---|---|---|---|---|---|"
	} >>"$report"
	for t in large fixes; do
		say "perf stat $t: $runs interleaved pairs"
		: >"$work/$t.off.perf"; : >"$work/$t.warn.perf"
		for _ in $(seq "$runs"); do
			one_perf off "$t" >>"$work/$t.off.perf"
			one_perf warn "$t" >>"$work/$t.warn.perf"
		done
		po=$(median 1 "$work/$t.off.perf") pw=$(median 1 "$work/$t.warn.perf")
		fo=$(awk '{ print $2 }' "$work/$t.off.perf" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		fw=$(awk '{ print $2 }' "$work/$t.warn.perf" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		echo "| $t (medians) | $po ms | $pw ms | $(ratio "$po" "$pw") | $fo | $fw |" >>"$report"
	done
fi
if [ "$wall" = 1 ] && command -v strace >/dev/null; then
	{
		echo
		echo "| thread | system calls, gate off | gate warn |"
		echo "|---|---|---|"
		for t in large fixes; do
			echo "| $t | $(sys_run off "$t") | $(sys_run warn "$t") |"
		done
	} >>"$report"
fi
# instructions of lore-am alone and of lore-am with the git processes
# it starts (--trace-children: one callgrind file a process)
for t in large fixes; do
	for g in off warn; do
		say "counting instructions: $t, gate $g"
		rm -rf "$work/cg.$t.$g"; mkdir -p "$work/cg.$t.$g"
		HOME=$work/home-$g valgrind --tool=callgrind --trace-children=yes \
			--callgrind-out-file="$work/cg.$t.$g/%p" "$lore" \
			-m "$work/$t.mbox" -o - "$id" >/dev/null 2>"$work/cg.$t.$g.err" || true
		self=$(grep -l "^cmd: *$lore " "$work/cg.$t.$g"/* | head -1)
		eval "i_${t}_$g=$(sed -n 's/^summary: //p' "$self")"
		eval "a_${t}_$g=$(cat "$work/cg.$t.$g"/* | sed -n 's/^summary: //p' | awk '{ s += $1 } END { print s }')"
	done
done
{
	echo
	echo "| thread | instructions, gate off | gate warn | warn / off | with the git children, off | warn | warn / off | processes the gate adds |"
	echo "|---|---|---|---|---|---|---|---|"
	for t in large fixes; do
		eval "o=\$i_${t}_off w=\$i_${t}_warn ao=\$a_${t}_off aw=\$a_${t}_warn"
		echo "| $t | $o | $w | $(perl -e "printf '%.4f', $w / $o") | $ao | $aw | $(perl -e "printf '%.4f', $aw / $ao") | $(( $(nproc_run warn "$t") - $(nproc_run off "$t") )) |"
	done
	echo
	echo "Binary: $lore ($(git -C "$(dirname "$lore")" describe --always --dirty 2>/dev/null || echo unknown)). To measure again (on a quiet machine, after a merge), the tree and threads kept:"
	echo
	echo "    bench/gate-bench.sh -n 20 -w $work -L $lore"
} >>"$report"
cat "$report"
