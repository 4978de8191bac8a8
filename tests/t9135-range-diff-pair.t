#!/bin/bash
# --range-diff applies its two revisions at the same time (one in a child
# process): each git am in its own temporary worktree, the output the
# same as one after the other, and no run left behind, applied or not.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 7

R=$TRASH/repo
two_revisions "$R" || exit 1
revisions_mbox "$TRASH/thread.mbox"
id=$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")
user_clone "$TRASH/u"
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

# git am's hook, in both temporary worktrees: says it is running, waits
# a moment, notes how many hooks are running, and leaves
hook=$TRASH/u/.git/hooks/pre-applypatch
printf '#!/bin/sh\nd=%s\nmkdir -p "$d" && touch "$d/in.$$"\nsleep 1\nls "$d" | wc -l >>"%s"\nrm "$d/in.$$"\n' \
	"$TRASH/running" "$TRASH/together" >"$hook"
chmod +x "$hook"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out" 2>"$TRASH/err")
ok $? "--range-diff exits 0"
is "$(sort -n "$TRASH/together" | tail -1)" 2 "the two revisions' git am ran at the same time"
check "v1 is said before v2" \
	sh -c "grep -n '^v[12]: applied' '$TRASH/err' | cut -d: -f2 | tr '\n' ' ' | grep -qx 'v1 v2 '"
check "the range-diff is there" grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$" "$TRASH/out"
is "$(git -C "$TRASH/u" worktree list | wc -l)" 1 "no temporary worktree is left"
is "$(ls "$TMPDIR")" "" "no temporary folder is left"

# neither applies (git am's hook refuses every message): both runs are
# removed, the child's as the parent's
rm "$hook"
printf '#!/bin/sh\nexit 1\n' >"$TRASH/u/.git/hooks/applypatch-msg"
chmod +x "$TRASH/u/.git/hooks/applypatch-msg"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >/dev/null 2>"$TRASH/err2")
is "$(git -C "$TRASH/u" worktree list | wc -l; ls "$TMPDIR" | wc -l)" "1
0" "when they do not apply, no worktree or folder is left"
done_testing
