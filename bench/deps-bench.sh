#!/usr/bin/env bash
# deps-bench.sh - what a series' prerequisites cost (issue 26): a
# repository of COMMITS commits (default 5000, made by one git
# fast-import: each changes one of 200 files), a series of one patch on
# HEAD whose cover letter names, with `git format-patch --base`'s
# prerequisite-patch-id:, the patch of the oldest of them, read from a
# local mailbox. lore-am with that line (it asks git once whether the
# tree has the patch: `git log -p | git patch-id --stable` over
# lore-am.deps-lookback commits) against lore-am --no-deps, and the
# difference against the same git pipeline run alone over the same
# range: the ratio says what lore-am adds to git's own pass. Medians of
# RUNS interleaved runs, wall time.
#
# Usage:
#   deps-bench.sh [-n RUNS] [-c COMMITS] [-w DIR] [-L LORE_AM]
#
#   -n RUNS     runs of each command (default 10)
#   -c COMMITS  commits of the history (default 5000)
#   -w DIR      work folder, made anew (default bench/out/deps)
#   -L LORE_AM  the binary to time (default ./lore-am of this tree)
#
# Prints a Markdown report on stdout; progress on stderr. Needs git and
# perl. See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
say() { echo "deps-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
runs=10 commits=5000 work=$here/out/deps lore=$here/../lore-am
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=${2:?}; shift 2 ;;
	-c) commits=${2:?}; shift 2 ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "deps-bench.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
lore=$(cd "$(dirname "$lore")" && pwd)/$(basename "$lore")
rm -rf "$work" && mkdir -p "$work"
export HOME=$work/home GIT_CONFIG_NOSYSTEM=1 LC_ALL=C.UTF-8 TZ=UTC
export XDG_CACHE_HOME=$work/cache
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email bench@example.org
git config --global init.defaultBranch main

say "a history of $commits commits"
R=$work/repo
git init -q "$R"
perl -e '
	my $n = shift;
	for my $i (1 .. $n) {
		my $f = sprintf("f%03d.c", $i % 200);
		my $t = 1700000000 + $i;
		print "blob\nmark :$i\ndata <<EOB\nline $i of $f\nEOB\n";
		print "commit refs/heads/main\n";
		print "committer Bench <bench\@example.org> $t +0000\n";
		print "data <<EOM\nchange $i\nEOM\n";
		print "M 100644 :$i $f\n\n";
	}' "$commits" | git -C "$R" fast-import --quiet
git -C "$R" checkout -q main
first=$(git -C "$R" rev-list --max-parents=0 HEAD)
git -C "$R" tag base "$first"

say "a series on HEAD that stands on the oldest commit"
(cd "$R" && git checkout -q -b topic && echo top >top.c && git add top.c &&
 git commit -q -m "top: add top" -m "Signed-off-by: Bench Maintainer <bench@example.org>" &&
 git format-patch -q --cover-letter --thread=shallow -o "$work/s" HEAD~1 &&
 git checkout -q main)
pid=$(git -C "$R" show "$first" | git patch-id --stable | cut -c1-40)
perl -i -pe "\$_ .= \"prerequisite-patch-id: $pid\n\" if /^\\*\\*\\* BLURB HERE/" \
	"$work"/s/0000-*
cat "$work"/s/*.patch >"$work/s.mbox"
id=$(sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$work"/s/0000-* | head -1)

t() { # t CMD...: wall time of one run in ms
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
deps() { (cd "$R" && "$lore" -q --no-attestation -m "$work/s.mbox" "$id"); }
nodeps() { (cd "$R" && "$lore" -q --no-attestation --no-deps -m "$work/s.mbox" "$id"); }
pipeline() {
	git -C "$R" log -p --no-merges --max-count=5000 --format='commit %H' HEAD |
		git -C "$R" patch-id --stable
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

(cd "$R" && "$lore" --no-attestation -m "$work/s.mbox" "$id" 2>&1 >/dev/null) |
	grep -q "already in the tree" || { say "the prerequisite was not found in the tree"; exit 1; }
: >"$work/deps.ms" >"$work/nodeps.ms" >"$work/pipe.ms"
for _ in $(seq "$runs"); do
	t deps >>"$work/deps.ms"
	t nodeps >>"$work/nodeps.ms"
	t pipeline >>"$work/pipe.ms"
done
d=$(median <"$work/deps.ms") n=$(median <"$work/nodeps.ms") p=$(median <"$work/pipe.ms")
echo "### Dependencies: one prerequisite-patch-id in a $commits-commit history"
echo
echo "| run | median ms ($runs runs) |"
echo "|---|---|"
echo "| lore-am, the prerequisite looked up in the tree | $d |"
echo "| lore-am --no-deps | $n |"
echo "| git log -p --max-count=5000 \\| git patch-id --stable alone | $p |"
echo
awk -v d="$d" -v n="$n" -v p="$p" 'BEGIN {
	printf "What the lookup adds: %d ms, %.2fx the git pipeline alone.\n",
		d - n, p ? (d - n) / p : 0 }'
