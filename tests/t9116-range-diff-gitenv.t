#!/bin/bash
# --range-diff with git's own variables set (GIT_DIR and GIT_WORK_TREE,
# from outside, relative from a subfolder, or naming a work tree that
# holds another .git; GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
# GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES) takes the same small-tree way
# as without them: each git am in a git folder of lore-am's own, which
# gets none of them, no worktree registered, the few git processes of
# that way, and the same range-diff and words on stderr; the user's
# refs, indexes and worktree list as they were.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-deps.sh"
plan 40

diff_setup || exit 1
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR" "$TRASH/u/sub"
U=$TRASH/u

# rd NAME DIR [VAR=VALUE...]: lore-am --range-diff in DIR with those
# variables, git's trace in NAME.tr, its output canonical in NAME.out
rd() {
	_n=$1 _d=$2; shift 2
	(cd "$_d" && env "$@" GIT_TRACE2_EVENT="$TRASH/$_n.tr" "$LORE_AM" \
		-m "$TRASH/thread.mbox" --range-diff "$id" </dev/null \
		>"$TRASH/$_n.raw" 2>"$TRASH/$_n.err")
	_rc=$?
	canon "$TRASH/$_n.raw" >"$TRASH/$_n.out"
	return $_rc
}
# started NAME: the git processes of that run; worktrees NAME: its
# `git worktree add`s; trees NAME: its small trees
started() { grep -c '"event":"start"' "$TRASH/$1.tr"; }
worktrees() { grep -c '"argv":\["git",[^]]*"worktree","add"' "$TRASH/$1.tr"; }
trees() { grep -c '"argv":\["git","-C","[^"]*","update-index"' "$TRASH/$1.tr"; }

rd want "$U"
ok $? "--range-diff without git's variables exits 0"
check "the range-diff is there" grep -q "c: add c" "$TRASH/want.out"
n0=$(started want)

cp "$U/.git/index" "$TRASH/other-index"
# a work tree with a .git of its own that is not the repository named
git clone -q "$TRASH/repo" "$TRASH/w2" && git -C "$TRASH/w2" checkout -q main &&
	rm -rf "$TRASH/w2/.git" && git init -q "$TRASH/w2"
deps_state "$U" >"$TRASH/before"
sum=$(cat "$U/.git/index" "$TRASH/other-index" | sha1sum)

# check_same NAME: what the run NAME gave is the plain run's, the same way
check_same() {
	same_file "$TRASH/$1.out" "$TRASH/want.out" "$1: the same range-diff"
	same_file "$TRASH/$1.err" "$TRASH/want.err" "$1: the same words on stderr"
	is "$(worktrees "$1"):$(trees "$1")" "0:1" "$1: no worktree registered, one small tree"
	_n=$(started "$1")
	check "$1: at most two git processes more than without ($_n, $n0)" \
		test "$_n" -le $((n0 + 2))
}

# setting NAME DESCRIPTION DIR VAR=VALUE...: the range-diff run in DIR
# with the variables set exits 0 and gives what the plain run gives
setting() {
	_s=$1 _desc=$2; shift 2
	rd "$_s" "$@"
	ok $? "$_desc: exit 0"
	check_same "$_s"
}

setting gitdir "GIT_DIR and GIT_WORK_TREE from outside" \
	"$TRASH" GIT_DIR="$U/.git" GIT_WORK_TREE="$U"
setting relative "GIT_DIR and GIT_WORK_TREE relative to a subfolder" \
	"$U/sub" GIT_DIR=../.git GIT_WORK_TREE=..
setting index "GIT_INDEX_FILE another index" \
	"$U" GIT_INDEX_FILE="$TRASH/other-index"
setting objects "GIT_OBJECT_DIRECTORY" \
	"$U" GIT_OBJECT_DIRECTORY="$U/.git/objects"
setting common "GIT_COMMON_DIR" "$U" GIT_COMMON_DIR="$U/.git"
setting ceiling "GIT_CEILING_DIRECTORIES" \
	"$U/sub" GIT_CEILING_DIRECTORIES="$TRASH"
# the small tree's folders share the repository GIT_DIR names, not the
# work tree's own .git (which has none of its objects)
setting other "GIT_WORK_TREE holding another .git" \
	"$TRASH/w2" GIT_DIR="$U/.git" GIT_WORK_TREE="$TRASH/w2"

deps_state "$U" >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "the user's refs, status and worktrees as they were"
is "$(cat "$U/.git/index" "$TRASH/other-index" | sha1sum)" "$sum" "both indexes as they were"
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary folder left"
done_testing
