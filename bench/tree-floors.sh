#!/usr/bin/env bash
# tree-floors.sh - the git work of lore-am's --apply and --range-diff done by
# hand with plain git, and the variants of it worth trying, for
# bench/tree-bench.sh. Run in the top folder of a clean work tree whose
# HEAD is the series' base; the am-ready mboxes come from `lore-am -o -`.
#
# Usage:
#   tree-floors.sh apply VARIANT MBX        leaves the result in refs/floor/tip
#   tree-floors.sh rangediff VARIANT OLD.MBX NEW.MBX   the range-diff on stdout
#
# apply VARIANTs (each ends with the series as commits on HEAD, like
# --apply: the user's tree is touched only once the whole series applied):
#   seq        lore-am's own sequence (filter/git/apply.c): a worktree added
#              with --no-checkout, non-cone sparse patterns of the touched
#              files, read-tree -mu, git am there, merge --ff-only here
#   expect     seq with sparse.expectFilesOutsideOfPatterns=true (no lstat
#              of every skipped file at each index read)
#   idx4       expect, the worktree's index written as version 4
#   cone       a cone-mode sparse checkout of the touched folders with the
#              sparse index (index.sparse=true), git am there
#   cached     no worktree: a temporary index (GIT_INDEX_FILE) of the base,
#              then per patch git mailinfo, git apply --cached, write-tree,
#              commit-tree
#   fi         git am on a small tree of the touched files only (as
#              rangediff small), then the same commits rebuilt on the full
#              base by one git fast-import (each commit's changed blobs,
#              author, committer and message): no index of the full tree
# rangediff VARIANTs:
#   seq        two worktrees as in apply seq, git range-diff
#   expect     the same with sparse.expectFilesOutsideOfPatterns=true
#   small      b4's "fake am": per revision a commit whose tree holds only
#              the files the patches touch (a temporary index filled from
#              ls-tree), git am on it in a worktree, git range-diff
#   smallpar   small with the two revisions made at the same time
set -euo pipefail

die() { echo "tree-floors.sh: $*" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tree-floors.XXXXXX")
wts=()
cleanup() {
	local w
	for w in "${wts[@]}"; do
		git worktree remove --force "$w" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

SPARSE=(-c core.sparseCheckout=true -c core.sparseCheckoutCone=false)
CONE=(-c core.sparseCheckout=true -c core.sparseCheckoutCone=true
	-c index.sparse=true -c sparse.expectFilesOutsideOfPatterns=true)

# patterns MBX: the touched files as non-cone patterns, one a line
patterns() {
	git apply --numstat "$1" | cut -f3- | sed -e 's|^|/|'
}

# worktree VARIANT MBX DIR: a worktree at HEAD with the touched files only
worktree() {
	local v=$1 mbx=$2 wt=$3 gitdir
	git worktree add --quiet --no-checkout --detach "$wt" HEAD
	wts+=("$wt")
	gitdir=$(git -C "$wt" rev-parse --git-dir)
	mkdir -p "$gitdir/info"
	case $v in
	cone)
		# the folders of the touched files as cone patterns (what
		# `git sparse-checkout set --cone` writes, without the
		# extensions.worktreeConfig it would turn on)
		git apply --numstat "$mbx" | cut -f3- | sed -e 's|/[^/]*$||' |
			sort -u | awk 'BEGIN { print "/*"; print "!/*/" }
			{ n = split($0, p, "/"); d = ""
			  for (i = 1; i < n; i++) { d = d "/" p[i]
				if (!(d in seen)) { seen[d]; print d "/"; print "!" d "/*/" } }
			  print d "/" p[n] "/" }' >"$gitdir/info/sparse-checkout"
		git -C "$wt" "${CONE[@]}" read-tree -mu HEAD
		;;
	*)
		patterns "$mbx" >"$gitdir/info/sparse-checkout"
		git -C "$wt" "${SPARSE[@]}" "${EXTRA[@]}" read-tree -mu HEAD
		;;
	esac
}

am_in() {
	local wt=$1 mbx=$2
	case $VARIANT in
	cone) git -C "$wt" "${CONE[@]}" am --quiet <"$mbx" ;;
	*) git -C "$wt" "${SPARSE[@]}" "${EXTRA[@]}" am --quiet <"$mbx" ;;
	esac
}

# cached MBX: the series committed without a worktree; prints the tip
cached() {
	local mbx=$1 parent tree f
	export GIT_INDEX_FILE=$tmp/index
	git read-tree HEAD
	parent=$(git rev-parse HEAD)
	mkdir "$tmp/split"
	git mailsplit -o"$tmp/split" "$mbx" >/dev/null
	for f in "$tmp"/split/*; do
		git mailinfo "$tmp/msg" "$tmp/patch" <"$f" >"$tmp/info"
		git apply --cached "$tmp/patch"
		tree=$(git write-tree)
		parent=$(
			GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$tmp/info")
			GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$tmp/info")
			GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$tmp/info")
			export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
			{ sed -n 's/^Subject: //p' "$tmp/info"; echo; cat "$tmp/msg"; } |
				git commit-tree "$tree" -p "$parent"
		)
	done
	unset GIT_INDEX_FILE
	echo "$parent"
}

apply() {
	local mbx=$1 tip
	case $VARIANT in
	cached) tip=$(cached "$mbx") ;;
	seq|expect|idx4|cone)
		worktree "$VARIANT" "$mbx" "$tmp/wt"
		am_in "$tmp/wt" "$mbx"
		tip=$(git -C "$tmp/wt" rev-parse HEAD)
		;;
	fi) tip=$(on_full "$(small "$mbx" s)") ;;
	*) die "unknown apply variant '$VARIANT'" ;;
	esac
	git merge --ff-only --quiet "$tip"
	git update-ref refs/floor/tip "$tip"
}

# small MBX NAME: b4's fake am of one revision; prints "start end"
small() {
	local mbx=$1 n=$2 tree start
	GIT_INDEX_FILE=$tmp/$n.index
	export GIT_INDEX_FILE
	git ls-tree -r HEAD -- $(git apply --numstat "$mbx" | cut -f3-) |
		git update-index --add --index-info
	tree=$(git write-tree)
	unset GIT_INDEX_FILE
	start=$(echo "fake base" | git commit-tree "$tree")
	git worktree add --quiet --detach "$tmp/$n" "$start"
	wts+=("$tmp/$n")
	git -C "$tmp/$n" am --quiet <"$mbx"
	echo "$start $(git -C "$tmp/$n" rev-parse HEAD)"
}

# on_full "START END": the commits START..END again on HEAD's full tree,
# by one fast-import (blobs by id, so nothing is copied); prints the tip
on_full() {
	local start=${1% *} end=${1#* }
	git log --reverse --raw --no-renames --no-abbrev --date=raw \
		--format='%x01%an%x02%ae%x02%ad%x02%cn%x02%ce%x02%cd%x02%B%x03' \
		"$start..$end" | perl -e '
		local $/; my $in = <STDIN>; my $from = shift; my $n = 0;
		for my $c (split /\x01/, $in) {
			next if $c eq "";
			my ($h, $raw) = split /\x03/, $c, 2;
			my ($an, $ae, $ad, $cn, $ce, $cd, $msg) = split /\x02/, $h, 7;
			$n++;
			print "commit refs/floor/fi\nmark :$n\n";
			print "author $an <$ae> $ad\ncommitter $cn <$ce> $cd\n";
			print "data ", length($msg), "\n$msg\n";
			print "from ", ($n == 1 ? $from : ":" . ($n - 1)), "\n";
			for (split /\n/, $raw) {
				next unless /^:(\d+) (\d+) \S+ (\S+) (\S)\t(.*)$/;
				print $4 eq "D" ? "D $5\n" : "M $2 $3 $5\n";
			}
			print "\n";
		}' "$(git rev-parse HEAD)" | git fast-import --quiet
	git rev-parse refs/floor/fi
	git update-ref -d refs/floor/fi
}

rangediff() {
	local old=$1 new=$2 a b
	case $VARIANT in
	small)
		read -r a0 a1 < <(small "$old" old)
		read -r b0 b1 < <(small "$new" new)
		git range-diff --no-color "$a0..$a1" "$b0..$b1"
		;;
	smallpar)
		wts+=("$tmp/old" "$tmp/new")
		small "$old" old >"$tmp/old.range" &
		small "$new" new >"$tmp/new.range" || { wait; die "v2 does not apply"; }
		wait $! || die "v1 does not apply"
		read -r a0 a1 <"$tmp/old.range"
		read -r b0 b1 <"$tmp/new.range"
		git range-diff --no-color "$a0..$a1" "$b0..$b1"
		;;
	seq|expect)
		worktree "$VARIANT" "$old" "$tmp/old"
		am_in "$tmp/old" "$old"
		worktree "$VARIANT" "$new" "$tmp/new"
		am_in "$tmp/new" "$new"
		a=$(git rev-parse HEAD)
		git range-diff --no-color "$a..$(git -C "$tmp/old" rev-parse HEAD)" \
			"$a..$(git -C "$tmp/new" rev-parse HEAD)"
		;;
	*) die "unknown rangediff variant '$VARIANT'" ;;
	esac
}

[ $# -ge 3 ] || die "usage: tree-floors.sh apply|rangediff VARIANT MBX..."
what=$1 VARIANT=$2
shift 2
EXTRA=()
case $VARIANT in
expect) EXTRA=(-c sparse.expectFilesOutsideOfPatterns=true) ;;
idx4) EXTRA=(-c sparse.expectFilesOutsideOfPatterns=true -c index.version=4) ;;
esac
case $what in
apply) [ $# = 1 ] || die "apply takes one mbox"; apply "$1" ;;
rangediff) [ $# = 2 ] || die "rangediff takes two mboxes"; rangediff "$1" "$2" ;;
*) die "unknown step '$what'" ;;
esac
