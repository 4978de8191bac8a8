#!/bin/bash
# --range-diff's trial runs in git folders of lore-am's own making: one
# small tree for both revisions when they share a base, each git am with
# its own HEAD and index and the repository's objects, refs, config and
# hooks, no worktree registered, few git processes; the range-diff the
# same as the registered worktrees' (the way taken when a git folder of
# its own cannot name the repository), and the same when each revision
# has a base of its own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 17

diff_setup || exit 1
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
U=$TRASH/u
base=$(git -C "$U" rev-parse base)

# git am's hook, in each revision's run: what git sees there
hook=$U/.git/hooks/pre-applypatch
printf '#!/bin/sh\n{ git worktree list --porcelain | grep -c "^worktree "; git rev-parse --git-common-dir; } >>"%s"\n' \
	"$TRASH/seen" >"$hook"
chmod +x "$hook"
la -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "--range-diff exits 0"
check "the range-diff is there" grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$" "$TRASH/out"
is "$(grep -c '^[0-9]' "$TRASH/seen")" 5 "the repository's hook ran for each of the 5 patches"
is "$(grep '^[0-9]' "$TRASH/seen" | sort -u)" 1 "while git am ran, no worktree but the user's was registered"
is "$(grep -v '^[0-9]' "$TRASH/seen" | sort -u)" "$U/.git" "git am wrote into the user's repository's objects and refs"
rm "$hook"

# the git processes, as git's trace2 counts them (the registered
# worktrees took 39 for these two revisions)
GIT_TRACE2_EVENT=$TRASH/trace la -m "$TRASH/thread.mbox" --range-diff "$id" >/dev/null 2>&1
n=$(grep -c '"event":"start"' "$TRASH/trace")
[ "$n" -le 16 ]
ok $? "at most 16 git processes for both revisions ($n)"
is "$(grep -c '"argv":\["git","-C","[^"]*","update-index"' "$TRASH/trace")" 1 \
	"one small tree for both revisions on the same base"

# the same range-diff as the registered worktrees give: the way taken
# for a repository whose path git could not read back from a git
# folder's one-line commondir file (a tab in it)
T="$TRASH/u	tab"
git clone -q "$TRASH/repo" "$T" && git -C "$T" checkout -q main
(cd "$T" && GIT_TRACE2_EVENT=$TRASH/trace.slow "$LORE_AM" -m "$TRASH/thread.mbox" \
	--range-diff "$id" >"$TRASH/slow" 2>"$TRASH/slow.err")
ok $? "in registered worktrees: exit 0"
is "$(grep -c '"worktree","add"' "$TRASH/trace.slow")" 2 "a worktree registered for each revision"
canon "$TRASH/out" >"$TRASH/out.c"
canon "$TRASH/slow" >"$TRASH/slow.c"
same_file "$TRASH/slow.c" "$TRASH/out.c" "the same range-diff as in registered worktrees"
same_file "$TRASH/slow.err" "$TRASH/err" "and the same words on stderr"

# each revision on a base of its own: v2's cover letter names a later
# commit of main
(cd "$U" && git checkout -q main && echo more >>README && git commit -qam "readme: more")
later=$(git -C "$U" rev-parse HEAD)
grep -c '^base-commit: ' "$TRASH/thread.mbox" | grep -qx 2 &&
	perl -0pe "s/(.*)^base-commit: \\S+/\${1}base-commit: $later/ms" "$TRASH/thread.mbox" >"$TRASH/later.mbox"
ok $? "v2's base-commit made the later commit"
GIT_TRACE2_EVENT=$TRASH/trace2 la -m "$TRASH/later.mbox" --range-diff "$id" >"$TRASH/two" 2>"$TRASH/two.err"
ok $? "two bases: exit 0"
is "$(grep -c '"argv":\["git","-C","[^"]*","update-index"' "$TRASH/trace2")" 2 "a small tree for each"
check "each revision applied on its own base" \
	sh -c "grep -q '^v1: applied on ${base:0:12}' '$TRASH/two.err' &&
	       grep -q '^v2: applied on ${later:0:12}' '$TRASH/two.err'"
canon "$TRASH/two" >"$TRASH/two.c"
same_file "$TRASH/two.c" "$TRASH/out.c" "the range-diff is the same"
is "$(git -C "$U" worktree list | wc -l):$(ls "$TMPDIR" | wc -l)" "1:0" "no worktree, no folder left"
done_testing
