#!/bin/bash
# --range-diff (b4 diff): both revisions applied each on its own base in
# temporary worktrees, then real `git range-diff`; a revision that does
# not apply falls back to a patch-by-patch diff of the mails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 17

R=$TRASH/repo
make_repo "$R"
commit() { printf '%s\n' "$2" >"$1" && git add "$1" && git commit -qm "$3"; }
(cd "$R" && git checkout -q -b v1 base &&
 commit a.c "int a;" "a: add a" && commit b.c "int b;" "b: add b" &&
 commit c.c "$(printf 'int c%s;\n' 1 2 3 4 5 6 7 8)" "c: add c" &&
 git checkout -q -b v2 base &&
 commit c.c "$(printf 'int c%s;\n' 1 2 3 4 5 6 7 8 | sed 's/c3;/c3 = 3;/')" "c: add c" && commit a.c "int a;" "a: add a")
(cd "$R" && git format-patch -q --thread=shallow --cover-letter --base=base -o "$TRASH/p1" base..v1)
v1c=$(msgid_of "$TRASH/p1/0000-cover-letter.patch")
sleep 1
(cd "$R" && git format-patch -q --thread=shallow --cover-letter --base=base -v2 \
	--in-reply-to="$v1c" -o "$TRASH/p2" base..v2)
to_mbox "$TRASH/thread.mbox" "$TRASH"/p1/*.patch "$TRASH"/p2/*.patch
id=$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")
git clone -q "$R" "$TRASH/u"
(cd "$TRASH/u" && git checkout -q main)
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

# v1 cannot apply anywhere here: the fallback diffs the mails
git init -q "$TRASH/other"
(cd "$TRASH/other" && commit a.c "unrelated" "unrelated")
(cd "$TRASH/other" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out3" 2>"$TRASH/err3")
ok $? "revisions that do not apply: still exit 0"
check "it says which does not apply" grep -q "^v1 does not apply: git am failed at patch" "$TRASH/err3"
check "the mails are compared patch by patch" grep -q "^Patch by patch, the mails of v1 against v2:" "$TRASH/out3"
check "the changed patch with its diff" grep -q "^!!! changed: c: add c" "$TRASH/out3"
check "the dropped one" grep -q "^--- dropped in v2: b: add b" "$TRASH/out3"

"$LORE_AM" -m "$TRASH/thread.mbox" --range-diff=1..x "$id" >/dev/null 2>"$TRASH/err4"
is $? 2 "a bad revision pair: exit 2"
"$LORE_AM" -m "$TRASH/p1/0001-a-add-a.patch" --range-diff "$(msgid_of "$TRASH/p1/0001-a-add-a.patch")" >/dev/null 2>"$TRASH/err5"
is $? 1 "a thread with one revision: exit 1"
done_testing
