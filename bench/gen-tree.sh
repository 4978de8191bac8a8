#!/usr/bin/env bash
# gen-tree.sh - a kernel-sized git repository and patch series on it, made
# for bench/tree-bench.sh: FILES files in DIRS folders with a history of
# COMMITS commits, written by one `git fast-import` (nothing is stored in
# the project: the repository is generated into DIR). On top of it, with
# bench/gen-thread.sh -b, a series of 10 and one of 50 patches, each in
# two revisions with review replies, as real `git format-patch` mails in
# one thread mbox per series. Same arguments => same commits and bytes.
#
# Usage:
#   gen-tree.sh [-f FILES] [-d DIRS] [-c COMMITS] [-S "10 50"] [-s SEED] -o DIR
#
#   -f FILES    files in the tree (default 80000)
#   -d DIRS     folders holding them (default 4000)
#   -c COMMITS  commits of history (default 3000)
#   -S SIZES    patches per series (default "10 50"); each has v1 and v2
#               and 4 review replies a patch
#   -s SEED     seed of every random choice (default 1)
#   -o DIR      where to write (created; must be empty or absent)
#
# In DIR: tree.git (bare: branch main, the history), sN.git for each
# series (a --shared clone of tree.git with tag base, branches v1 and v2;
# base's parent is tree.git's main), sN.mbox (the thread, mboxrd) and
# sN.id (the Message-ID of v2's cover letter). See bench/README.md.
set -euo pipefail

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
	exit "${1:-2}"
}
die() { echo "gen-tree.sh: $*" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
files=80000 dirs=4000 commits=3000 sizes="10 50" seed=1 out=''
while [ $# -gt 0 ]; do
	case $1 in
	-f) files=${2:?}; shift 2 ;;
	-d) dirs=${2:?}; shift 2 ;;
	-c) commits=${2:?}; shift 2 ;;
	-S) sizes=${2:?}; shift 2 ;;
	-s) seed=${2:?}; shift 2 ;;
	-o) out=${2:?}; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "gen-tree.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
[ -n "$out" ] || die "-o DIR is required"
for v in files dirs commits seed; do
	case ${!v} in ''|*[!0-9]*) die "-$v takes a number" ;; esac
done
for s in $sizes; do
	case $s in ''|*[!0-9]*|0) die "-S takes patch counts" ;; esac
done
[ "$dirs" -ge 1 ] && [ "$files" -ge "$dirs" ] || die "need FILES >= DIRS >= 1"
[ "$commits" -ge 1 ] || die "need at least one commit"
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "-o $out: exists and is not empty"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC LC_ALL=C

# The tree: folders top/mid/leafN under a few kernel-like top folders,
# files of 10 to 60 lines of C named after their folder. The first commit
# holds every file; each later one changes 1 to 4 files (a line added at
# the end, so a file's content is its version count: nothing is kept in
# memory but those counts). Dates stop before gen-thread.sh's base.
read -r -d '' PERL_TREE <<'PERL' || true
use strict;
use warnings;
my ($seed, $NF, $ND, $NC) = @ARGV;
srand($seed * 6151 + 3);
sub rnd { int(rand($_[0])) }
binmode STDOUT;
my @TOP = qw(drivers drivers drivers drivers drivers drivers drivers
	arch arch fs fs net sound include kernel tools Documentation lib mm);
my @MID = qw(gpio iio mtd regulator frob usb pci scsi gpu net media input
	hwmon i2c spi clk pinctrl power soc staging tty video block crypto
	acpi base firmware misc mmc nvme phy platform rtc thermal watchdog
	x86 arm64 riscv core);
my @WORD = qw(alpha bravo cobalt delta ember falcon garnet harbor iris
	jasper kestrel lumen marble nickel onyx pebble quartz raven sable
	topaz umber velvet willow xenon yarrow zephyr);
my @dir;
for my $i (0 .. $ND - 1) {
	push @dir, sprintf('%s/%s/%s%d', $TOP[$i % @TOP],
		$MID[int($i / @TOP) % @MID], $WORD[$i % @WORD], $i);
}
my (@path, @len);
for my $i (0 .. $NF - 1) {
	my $d = $i % $ND;
	my $n = int($i / $ND);
	my $leaf = (split m{/}, $dir[$d])[-1];
	push @path, sprintf('%s/%s-%d.%s', $dir[$d], $leaf, $n, $n % 3 ? 'c' : 'h');
	push @len, 10 + rnd(50);
}
sub content {
	my ($i, $ver) = @_;
	(my $id = $path[$i]) =~ s/[^A-Za-z0-9]/_/g;
	my $s = "// SPDX-License-Identifier: GPL-2.0\n/* $path[$i] */\n\n";
	for my $l (1 .. $len[$i]) {
		$s .= $l % 8 == 1 ? "static int ${id}_f$l(int x)\n{\n"
		    : $l % 8 == 0 ? "\treturn x;\n}\n\n"
		    : "\tx = x * $l + " . (($i * 31 + $l * 7) % 1000) . ";\n";
	}
	$s .= "/* change $_ */\n" for 1 .. $ver;
	return $s;
}
my @ver = (0) x $NF;
my $t = 1700000000 - $NC * 3600;
sub commit {
	my ($msg, @changed) = @_;
	print "commit refs/heads/main\n";
	print "author Tree Builder <tree\@example.org> $t +0000\n";
	print "committer Tree Builder <tree\@example.org> $t +0000\n";
	print 'data ', length($msg), "\n$msg\n";
	for my $i (@changed) {
		my $data = content($i, $ver[$i]);
		print "M 100644 inline $path[$i]\ndata ", length($data), "\n$data\n";
	}
	$t += 3600;
}
commit("Initial import\n", 0 .. $NF - 1);
for my $k (2 .. $NC) {
	my @changed = map { rnd($NF) } 0 .. rnd(4);
	my %seen;
	@changed = grep { !$seen{$_}++ } @changed;
	$ver[$_]++ for @changed;
	my $p = $path[$changed[0]];
	my ($sub) = $p =~ m{^[^/]+/([^/]+)/};
	commit("$sub: change $k\n\nA generated change to " . scalar(@changed) .
		" file(s).\n\nSigned-off-by: Tree Builder <tree\@example.org>\n", @changed);
}
PERL

t0=$(date +%s)
git init -q --bare -b main "$out/tree.git"
# fast-import grows and trims its heap by brk() for every file of the big
# first commit; on a virtual machine each brk is slow (80 000 files: 90 s,
# nearly all of it brk). A top pad and a high trim threshold make it 5 s.
perl -e "$PERL_TREE" "$seed" "$files" "$dirs" "$commits" |
	GLIBC_TUNABLES=glibc.malloc.top_pad=67108864:glibc.malloc.trim_threshold=268435456 \
	git -C "$out/tree.git" fast-import --quiet
git -C "$out/tree.git" gc -q --auto
echo "gen-tree.sh: $files files in $dirs folders, $commits commits:" \
	"$(($(date +%s) - t0)) s" >&2

for n in $sizes; do
	git clone -q --bare --shared "$out/tree.git" "$out/s$n.git"
	"$here/gen-thread.sh" -b "$out/s$n.git" -p "$n" -r 2 -R "$((4 * n))" \
		-s "$seed" -o "$out/s$n.mbox" >"$out/s$n.id"
done
echo "gen-tree.sh: done in $(($(date +%s) - t0)) s" >&2
