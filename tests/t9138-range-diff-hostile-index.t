#!/bin/bash
# --range-diff on the patches' own pre-images (t9137) trusts no index
# line: one that is not git's (not hex, a mode that is not a file's), or
# whose id names a tree or a commit here, is refused in one line naming
# the file (exit 1, nothing written, the repository as it was); patches
# without index lines (not made by git) are compared mail by mail, as
# when a revision does not apply.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 12

R=$TRASH/repo
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
commit() { git add "$@" && git commit -qm "$msg"; }
# x.c's text is w.c's here: its blob is in the repository, at no x.c
git init -q "$R" &&
(cd "$R" && seq -f 'x line %g' 20 >w.c && echo other >x.c && msg=c1 commit w.c x.c)
C=$TRASH/contrib
git clone -q "$R" "$C" &&
(cd "$C" && git checkout -q -b tree && cp w.c x.c && msg=tree commit x.c &&
 for v in 1 2; do
	git checkout -q -b v$v tree &&
	sed -i "s/^x line 15\$/x line 15 fixed $v/" x.c && msg="x: fix line 15" commit x.c || exit 1
 done &&
 git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p1" tree..v1 &&
 sleep 1 &&
 git format-patch -q --thread=shallow --cover-letter -v2 \
	--in-reply-to="$(msgid_of "$TRASH/p1/0000-cover-letter.patch")" -o "$TRASH/p2" tree..v2)
ok $? "v1 and v2 made on a tree whose x.c is the repository's w.c"
id=$(msgid_of "$TRASH"/p2/v2-0001-*.patch)
pre=$(sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$TRASH"/p1/0001-*.patch)
tree=$(git -C "$R" rev-parse --short=12 HEAD^{tree})
cm=$(git -C "$R" rev-parse --short=12 HEAD)

state() {
	(cd "$R" && git rev-parse HEAD && git status --porcelain &&
	 git worktree list --porcelain && git for-each-ref && git ls-files -s)
}
state >"$TRASH/before"
# with_index SED: the thread, v1's index line rewritten by SED
with_index() {
	cp "$TRASH"/p1/0001-*.patch "$TRASH/hostile.patch" &&
	sed -i "$1" "$TRASH/hostile.patch" &&
	to_mbox "$TRASH/t.mbox" "$TRASH/p1/0000-cover-letter.patch" "$TRASH/hostile.patch" "$TRASH"/p2/*.patch
}
la() { (cd "$R" && "$LORE_AM" -m "$TRASH/t.mbox" --range-diff "$id" >"$TRASH/out" 2>"$TRASH/err"); }
refused() {
	is "$1:$(wc -c <"$TRASH/out")" 1:0 "$2: exit 1, nothing on stdout"
}

with_index ""
la
is "$?" 0 "the thread as sent: exit 0"
check "applied on the blobs the patches name" grep -q "^v1: applied on the blobs its patches start from" "$TRASH/err"

with_index "s/^index $pre\.\./index $tree../"
la
refused $? "an index line naming a tree"
check "named in one line" grep -qx \
	"lore-am: --range-diff: v1 fits no commit here, and the index line of 'x.c' names $tree, a tree here, not a file's blob: the range-diff cannot be made" "$TRASH/err"

with_index "s/^index $pre\.\./index $cm../"
la
check "one naming a commit: refused" grep -q "the index line of 'x.c' names $cm, a commit here, not a file's blob" "$TRASH/err"

with_index "s/^index $pre\.\./index zz${pre#??}../"
la
refused $? "an index line that is not hex"
check "quoted in the line" grep -q "and the index line of 'x.c' is not git's ('index zz${pre#??}\.\.[0-9a-f]* 100644'): the range-diff" "$TRASH/err"

with_index "s/^\(index $pre\.\.[0-9a-f]*\) 100644/\1 040000/"
la
check "a folder's mode: refused" grep -q "the index line of 'x.c' gives mode 040000, not a file's: the range-diff cannot be made" "$TRASH/err"

with_index "/^index /d"
la
is "$?" 0 "no index lines: exit 0"
check "compared mail by mail" grep -q "^Patch by patch, the mails of v1 against v2:" "$TRASH/out"

state >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "the repository is as it was"
done_testing
