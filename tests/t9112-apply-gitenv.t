#!/bin/bash
# --apply, --apply=head, =merge and --range-diff with git's own variables
# set, as a hook or a maintainer's script has them: GIT_DIR and
# GIT_WORK_TREE naming the user's repository (from a folder outside it,
# or relative to a subfolder), GIT_INDEX_FILE another index. The trial in the temporary worktree uses
# its own git folder, work tree and index, never the user's; the result
# is the run's without them (the same commits: the dates are fixed), another index is the one updated when git would use it, and a
# series that does not apply leaves the user's refs, index, config and
# worktree list as they were. Last, a real post-checkout hook in a linked
# worktree (git gives its hooks an absolute GIT_DIR there) applies a
# series.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-deps.sh"
plan 32

diff_setup || exit 1
export GIT_COMMITTER_DATE="1700000000 +0000" GIT_AUTHOR_DATE="1700000000 +0000"
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

# run DIR ARGS...: lore-am in DIR, its stderr in DIR.err
run() { _d=$1; shift; (cd "$_d" && "$LORE_AM" -m "$TRASH/thread.mbox" "$@" "$id" \
	</dev/null >"$_d.out" 2>"$_d.err"); }
# from_script DIR ARGS...: the same from $TRASH, with GIT_DIR and
# GIT_WORK_TREE naming DIR
from_script() { _d=$1; shift; (cd "$TRASH" && GIT_DIR=$_d/.git GIT_WORK_TREE=$_d \
	"$LORE_AM" -m "$TRASH/thread.mbox" "$@" "$id" </dev/null >"$_d.out" 2>"$_d.err"); }
# result DIR: what an --apply leaves (INDEX: another index file)
result() {
	(cd "$1" && git rev-parse HEAD && git ls-files -s && git status --porcelain &&
	 { cut -f1,3 .git/FETCH_HEAD 2>/dev/null || :; } &&
	 git worktree list --porcelain | grep -c '^worktree ')
}
fresh() { user_clone "$1" >/dev/null 2>&1; }

for mode in "" "=head" "=merge"; do
	fresh "$TRASH/ref"
	run "$TRASH/ref" --apply$mode
	ok $? "--apply$mode without git's variables exits 0"
	result "$TRASH/ref" >"$TRASH/want$mode"
	[ -n "$mode" ] || git -C "$TRASH/ref" ls-files -s >"$TRASH/want.ls"
	fresh "$TRASH/e"
	from_script "$TRASH/e" --apply$mode
	ok $? "--apply$mode with GIT_DIR and GIT_WORK_TREE set exits 0"
	result "$TRASH/e" >"$TRASH/got"
	same_file "$TRASH/got" "$TRASH/want$mode" "... the same commits, index and work tree"
done
tip=$(head -1 "$TRASH/want")
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary folder left"

# another index: the one updated, .git/index untouched
fresh "$TRASH/i"
cp "$TRASH/i/.git/index" "$TRASH/other-index"
sum=$(sha1sum <"$TRASH/i/.git/index")
(cd "$TRASH/i" && GIT_INDEX_FILE=$TRASH/other-index "$LORE_AM" -m "$TRASH/thread.mbox" \
	--apply "$id" </dev/null >/dev/null 2>"$TRASH/i.err")
ok $? "--apply with GIT_INDEX_FILE set to another index exits 0"
is "$(git -C "$TRASH/i" rev-parse HEAD)" "$tip" "the same commits"
is "$(GIT_INDEX_FILE=$TRASH/other-index git -C "$TRASH/i" ls-files -s)" \
	"$(cat "$TRASH/want.ls")" "that index holds the series' tree"
is "$(sha1sum <"$TRASH/i/.git/index")" "$sum" ".git/index is as it was"

# a script in a subfolder, naming the repository relative to it (a git
# started elsewhere with -C would read them from there)
fresh "$TRASH/s"
mkdir -p "$TRASH/s/sub/deeper"
(cd "$TRASH/s/sub/deeper" && GIT_DIR=../../.git GIT_WORK_TREE=../.. "$LORE_AM" \
	-m "$TRASH/thread.mbox" --apply "$id" </dev/null >/dev/null 2>"$TRASH/s.err")
ok $? "--apply from a subfolder, GIT_DIR and GIT_WORK_TREE relative to it: exit 0"
result "$TRASH/s" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "... the same commits, index and work tree"

# --apply=merge into another index
fresh "$TRASH/m"
cp "$TRASH/m/.git/index" "$TRASH/m-index"
(cd "$TRASH/m" && GIT_INDEX_FILE=$TRASH/m-index "$LORE_AM" -m "$TRASH/thread.mbox" \
	--apply=merge "$id" </dev/null >/dev/null 2>"$TRASH/m.err")
ok $? "--apply=merge with GIT_INDEX_FILE set to another index exits 0"
is "$(git -C "$TRASH/m" rev-parse HEAD)" "$(head -1 "$TRASH/want=merge")" "the same merge"
is "$(GIT_INDEX_FILE=$TRASH/m-index git -C "$TRASH/m" ls-files -s)" \
	"$(cat "$TRASH/want.ls")" "that index holds the merge's tree"

# the range-diff
la -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/rd.want" 2>/dev/null
ok $? "--range-diff without git's variables exits 0"
(cd "$TRASH" && GIT_DIR=$TRASH/u/.git GIT_WORK_TREE=$TRASH/u "$LORE_AM" \
	-m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/rd.got" 2>/dev/null)
ok $? "--range-diff with GIT_DIR and GIT_WORK_TREE set exits 0"
canon "$TRASH/rd.want" >"$TRASH/rd.want.c"
canon "$TRASH/rd.got" >"$TRASH/rd.got.c"
same_file "$TRASH/rd.got.c" "$TRASH/rd.want.c" "... the same range-diff"
cp "$TRASH/u/.git/index" "$TRASH/u-index"
(cd "$TRASH/u" && GIT_INDEX_FILE=$TRASH/u-index "$LORE_AM" \
	-m "$TRASH/thread.mbox" --range-diff "$id" 2>/dev/null | canon /dev/stdin >"$TRASH/rd.idx.c")
same_file "$TRASH/rd.idx.c" "$TRASH/rd.want.c" "... and with GIT_INDEX_FILE set"

# a series that does not apply: c.c is there already
fresh "$TRASH/f"
(cd "$TRASH/f" && echo "int other;" >c.c && git add c.c && git commit -qm "c: other")
cp "$TRASH/f/.git/index" "$TRASH/f-index"
# (the entries of both indexes: git status, in the precheck, may write
# an index again with its files' stat data refreshed)
state() {
	deps_state "$1" && git -C "$1" ls-files -s &&
	GIT_INDEX_FILE=$TRASH/f-index git -C "$1" ls-files -s && cat "$1/.git/config"
}
state "$TRASH/f" >"$TRASH/before"
from_script "$TRASH/f" --apply
is $? 1 "a series that does not apply, with GIT_DIR and GIT_WORK_TREE: exit 1"
check "git am's reason is said" grep -q "git am failed at patch" "$TRASH/f.err"
(cd "$TRASH/f" && GIT_INDEX_FILE=$TRASH/f-index "$LORE_AM" -m "$TRASH/thread.mbox" \
	--apply=merge "$id" </dev/null >/dev/null 2>"$TRASH/f2.err")
is $? 1 "and with GIT_INDEX_FILE, --apply=merge: exit 1"
state "$TRASH/f" >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "refs, both indexes, config and worktrees as they were"

# a real hook: post-checkout in a linked worktree applies the series
# when a review branch is made
fresh "$TRASH/h"
git -C "$TRASH/h" worktree add -q "$TRASH/lw" main 2>/dev/null ||
	git -C "$TRASH/h" worktree add -q --detach "$TRASH/lw" main
cat >"$TRASH/h/.git/hooks/post-checkout" <<EOF
#!/bin/sh
[ -f "$TRASH/wanted" ] || exit 0
rm -f "$TRASH/wanted"
env | grep '^GIT_DIR=' >"$TRASH/hook.env"
"$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" </dev/null >/dev/null 2>"$TRASH/hook.err"
echo \$? >"$TRASH/hook.rc"
EOF
chmod +x "$TRASH/h/.git/hooks/post-checkout"
main_before=$(cd "$TRASH/h" && git rev-parse HEAD && sha1sum .git/index)
touch "$TRASH/wanted"
git -C "$TRASH/lw" checkout -q -b review
is "$(cat "$TRASH/hook.rc" 2>/dev/null)" 0 "lore-am in the post-checkout hook exits 0"
check "git gave the hook an absolute GIT_DIR" grep -q "^GIT_DIR=/.*/worktrees/" "$TRASH/hook.env"
is "$(git -C "$TRASH/lw" rev-parse review)" "$tip" \
	"the review branch holds the series, the same commits"
is "$(git -C "$TRASH/lw" status --porcelain)" "" "its work tree and index are clean"
is "$(cd "$TRASH/h" && git rev-parse HEAD && sha1sum .git/index)" "$main_before" \
	"the main worktree is as it was"
done_testing
