#!/bin/bash
# --range-diff (b4 diff): both revisions applied each on its own base in
# temporary worktrees, then real `git range-diff`; a revision that fits
# no commit here is applied on the blobs its index lines name (b4 diff's
# way, t9137); one that does not apply falls back to a patch-by-patch
# diff of the mails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 35

R=$TRASH/repo
two_revisions "$R" || exit 1
commit() { printf '%s\n' "$2" >"$1" && git add "$1" && git commit -qm "$3"; }
revisions_mbox "$TRASH/thread.mbox"
id=$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")
user_clone "$TRASH/u"
state() {
	(cd "$1" && git rev-parse HEAD && git status --porcelain &&
	 git worktree list --porcelain && git for-each-ref && git stash list)
}
state "$TRASH/u" >"$TRASH/before"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out" 2>"$TRASH/err")
ok $? "--range-diff exits 0"
check "it compares v1 with v2" grep -q "^Comparing v1 (3 patches) with v2 (2 patches)" "$TRASH/err"
check "v1 applied on its base-commit" grep -q "^v1: applied on $(git -C "$R" rev-parse --short=12 base)" "$TRASH/err"
check "the reordered, changed patch: 3 becomes 1, marked !" grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$" "$TRASH/out"
check "the moved, unchanged patch: 1 becomes 2, marked =" grep -Eq "^1: +[0-9a-f]+ = 2: +[0-9a-f]+ a: add a$" "$TRASH/out"
check "the dropped patch is marked <" grep -Eq "^2: +[0-9a-f]+ < +-: +-+ b: add b$" "$TRASH/out"
check "with the change inside" grep -q "+int c3 = 3;" "$TRASH/out"
! grep -q $'\033\[' "$TRASH/out"
ok $? "no colors when stdout is not a terminal"
state "$TRASH/u" >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "the repository is unchanged, no worktree left"

(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff=2..1 "$id" >"$TRASH/out2" 2>/dev/null)
check "--range-diff=2..1 compares the other way" grep -Eq "^1: +[0-9a-f]+ ! 3: +[0-9a-f]+ c: add c$" "$TRASH/out2"

# b4 diff's -v: -v OLD..NEW, -v OLD NEW, -v OLD (with the latest)
canon() { sed -E 's/[0-9a-f]{7,}/H/g' "$1"; }
canon "$TRASH/out" >"$TRASH/out.c"
canon "$TRASH/out2" >"$TRASH/out2.c"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff -v 1..2 "$id" >"$TRASH/v12" 2>"$TRASH/v12.err")
ok $? "--range-diff -v 1..2 exits 0"
canon "$TRASH/v12" >"$TRASH/v12.c"
same_file "$TRASH/v12.c" "$TRASH/out.c" "-v 1..2 gives the default comparison"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" -v v2..v1 --range-diff "$id" >"$TRASH/v21" 2>/dev/null)
canon "$TRASH/v21" >"$TRASH/v21.c"
same_file "$TRASH/v21.c" "$TRASH/out2.c" "-v v2..v1 before --range-diff: as --range-diff=2..1"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff -v 2 1 "$id" >"$TRASH/v2s1" 2>"$TRASH/v2s1.err")
canon "$TRASH/v2s1" >"$TRASH/v2s1.c"
same_file "$TRASH/v2s1.c" "$TRASH/out2.c" "-v 2 1 (b4 diff's two numbers): as 2..1"
check "and says so" grep -q "^Comparing v2 (2 patches) with v1 (3 patches)" "$TRASH/v2s1.err"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff -v 1 "$id" >"$TRASH/v1" 2>"$TRASH/v1.err")
check "-v 1 alone: v1 against the latest" grep -q "^Comparing v1 (3 patches) with v2 (2 patches)" "$TRASH/v1.err"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff -v 2 "$id" >"$TRASH/v2" 2>"$TRASH/v2.err")
is $? 1 "-v 2 alone, the latest: exit 1"
check "nothing newer, said" grep -qx "lore-am: --range-diff: v2 is the latest revision: nothing newer to compare it with" "$TRASH/v2.err"
test ! -s "$TRASH/v2"
ok $? "and nothing on stdout"
"$LORE_AM" -m "$TRASH/thread.mbox" -v 1..2 "$id" >"$TRASH/v5" 2>"$TRASH/v5.err"
is $? 2 "-v 1..2 without --range-diff: exit 2"
check "with a line saying why" grep -qx "lore-am: -v 1..2: a pair of revisions goes with --range-diff" "$TRASH/v5.err"
"$LORE_AM" -m "$TRASH/thread.mbox" --range-diff=1..2 -v 1..2 "$id" >/dev/null 2>"$TRASH/v6.err"
is $? 2 "revisions given twice: exit 2"
"$LORE_AM" -m "$TRASH/thread.mbox" --range-diff -v x "$id" >/dev/null 2>"$TRASH/v7.err"
is $? 2 "-v x: exit 2"
check "naming the value" grep -q "^lore-am: -v takes a revision number (or OLD..NEW with --range-diff), not 'x'" "$TRASH/v7.err"
state "$TRASH/u" >"$TRASH/after2"
same_file "$TRASH/after2" "$TRASH/before" "the repository is still unchanged"

# no commit here takes v1 (a.c is another file): its patches only add
# files, so it applies on the empty tree their index lines name
git init -q "$TRASH/other"
(cd "$TRASH/other" && commit a.c "unrelated" "unrelated")
(cd "$TRASH/other" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out3" 2>"$TRASH/err3")
ok $? "revisions that fit no commit here: exit 0"
check "v1 applied on the blobs its patches start from" grep -q "^v1: applied on the blobs its patches start from" "$TRASH/err3"
canon "$TRASH/out3" >"$TRASH/out3.c"
same_file "$TRASH/out3.c" "$TRASH/out.c" "the same range-diff as where they fit"
# patches without index lines (not git's): nothing to build from, and v1
# does not apply here: the fallback diffs the mails
sed '/^index /d' "$TRASH/thread.mbox" >"$TRASH/noindex.mbox"
(cd "$TRASH/other" && "$LORE_AM" -m "$TRASH/noindex.mbox" --range-diff "$id" >"$TRASH/out4" 2>"$TRASH/err4")
ok $? "revisions that do not apply: still exit 0"
check "it says which does not apply" grep -q "^v1 does not apply: git am failed at patch" "$TRASH/err4"
check "the mails are compared patch by patch" grep -q "^Patch by patch, the mails of v1 against v2:" "$TRASH/out4"
check "the changed patch with its diff" grep -q "^!!! changed: c: add c" "$TRASH/out4"
check "the dropped one" grep -q "^--- dropped in v2: b: add b" "$TRASH/out4"

"$LORE_AM" -m "$TRASH/thread.mbox" --range-diff=1..x "$id" >/dev/null 2>"$TRASH/err4"
is $? 2 "a bad revision pair: exit 2"
"$LORE_AM" -m "$TRASH/p1/0001-a-add-a.patch" --range-diff "$(msgid_of "$TRASH/p1/0001-a-add-a.patch")" >/dev/null 2>"$TRASH/err5"
is $? 1 "a thread with one revision: exit 1"
done_testing
