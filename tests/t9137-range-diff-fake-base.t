#!/bin/bash
# --range-diff when no commit here fits a revision: v1 and v2 were made on
# a tree that never was a commit of this repository (x.c as in c1, y.c as
# in c2, s.c never committed), so neither the base-commit (none), the
# guessed base nor HEAD takes them. Each revision is applied on the blobs
# its patches' index lines name, as b4 diff does (its "fake am"); s.c's,
# which the repository lacks, is rebuilt from its hunk, which holds the
# whole file. The range-diff is real b4 0.12's. Where a blob is missing
# and its hunks do not hold the file, one line names it: exit 1.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 17

R=$TRASH/repo
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
lines() { seq -f "$1 line %g" 20; }
commit() { git add "$@" && git commit -qm "$msg"; }
git init -q "$R" &&
(cd "$R" && lines x >x.c && lines y >y.c && msg=c1 commit x.c y.c && git tag c1 &&
 sed -i 's/^x line 15$/x line 15 in c2/' x.c && sed -i 's/^y line 5$/y line 5 in c2/' y.c &&
 msg=c2 commit x.c y.c && git tag c2 &&
 sed -i 's/in c2$/in c3/' x.c y.c && msg=c3 commit x.c y.c)
ok $? "a repository: c1, c2, c3"

# the contributor's clone: a tree of x.c from c1, y.c from c2 and a new
# s.c, committed there only; v1 and v2 made on it (x.c's change differs)
C=$TRASH/contrib
git clone -q "$R" "$C" &&
(cd "$C" && git checkout -q -b tree c2 && git checkout c1 -- x.c &&
 printf 's one\ns two\ns three\n' >s.c && msg="a tree of its own" commit x.c s.c &&
 for v in 1 2; do
	git checkout -q -b v$v tree &&
	sed -i "s/^x line 15\$/x line 15 fixed$([ $v = 2 ] && echo ' better')/" x.c &&
	msg="x: fix line 15" commit x.c &&
	sed -i 's/^y line 5 in c2$/y line 5 fixed/' y.c && msg="y: fix line 5" commit y.c &&
	sed -i 's/^s two$/s two fixed/' s.c && msg="s: fix two" commit s.c || exit 1
 done &&
 git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p1" tree..v1 &&
 sleep 1 &&
 git format-patch -q --thread=shallow --cover-letter -v2 \
	--in-reply-to="$(msgid_of "$TRASH/p1/0000-cover-letter.patch")" -o "$TRASH/p2" tree..v2)
ok $? "v1 and v2 made on a tree the repository never had"
revisions_mbox "$TRASH/thread.mbox"
id=$(msgid_of "$TRASH"/p2/v2-0001-*.patch)
! git -C "$R" cat-file -e "$(git -C "$C" rev-parse tree:s.c)" 2>/dev/null
ok $? "s.c's blob is not in the repository"

state() {
	(cd "$R" && git rev-parse HEAD && git status --porcelain &&
	 git worktree list --porcelain && git for-each-ref && git ls-files -s)
}
state >"$TRASH/before"
canon() { sed -E 's/\x1b\[[0-9;]*m//g; s/[0-9a-f]{7,}/H/g' "$1"; }
la() { (cd "$R" && "$LORE_AM" "$@"); }

la -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "--range-diff: exit 0"
check "v1 applied on the blobs its patches start from" \
	grep -q "^v1: applied on the blobs its patches start from ([0-9a-f]\{12\}: it fits no commit here)$" "$TRASH/err"
check "v2 too" grep -q "^v2: applied on the blobs its patches start from" "$TRASH/err"
check "the changed patch is marked !" grep -Eq "^1: +[0-9a-f]+ ! 1: +[0-9a-f]+ x: fix line 15$" "$TRASH/out"
check "the others =" sh -c "grep -Eq '^2: +[0-9a-f]+ = 2: +[0-9a-f]+ y: fix line 5$' '$TRASH/out' &&
	grep -Eq '^3: +[0-9a-f]+ = 3: +[0-9a-f]+ s: fix two$' '$TRASH/out'"
git -C "$R" cat-file -e "$(git -C "$C" rev-parse tree:s.c)"
ok $? "s.c's blob rebuilt from its hunk (into the repository's objects, as -3 does)"
state >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "the repository is as it was (refs, index, worktrees)"
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary folder left"

# the base is the touched files only: one blob a file
la -m "$TRASH/thread.mbox" --range-diff --no-diff "$id" >"$TRASH/n.out" 2>/dev/null
start=$(sed -E 's/^git range-diff ([0-9a-f]+)\.\..*/\1/' "$TRASH/n.out")
is "$(git -C "$R" ls-tree -r "$start" | tr '\t' ' ' | sed 's/ [0-9a-f]* / /')" \
"100644 blob s.c
100644 blob x.c
100644 blob y.c" "v1's base holds the three files its patches touch, nothing else"

# real b4 diff on the same two revisions (s.c's blob is there now)
"$LORE_AM" -q -m "$TRASH/thread.mbox" -v 1 "$id" >"$TRASH/v1.mbx" &&
"$LORE_AM" -q -m "$TRASH/thread.mbox" -v 2 "$id" >"$TRASH/v2.mbx"
la diff -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/m.out" 2>/dev/null
canon "$TRASH/out" >"$TRASH/out.c"
canon "$TRASH/m.out" >"$TRASH/m.c"
same_file "$TRASH/m.c" "$TRASH/out.c" "diff -m of the two am-ready mboxes: the same"
git -C "$R" config b4.attestation-policy off
(cd "$R" && b4 -q --offline-mode diff -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/b4.out" 2>"$TRASH/b4.err")
ok $? "b4 diff -m: exit 0"
canon "$TRASH/b4.out" >"$TRASH/b4.c"
same_file "$TRASH/out.c" "$TRASH/b4.c" "the same range-diff as b4 diff's"

# a repository with c1 only: y.c's blob (c2's) is missing, and its hunk
# holds 7 of its 20 lines
M=$TRASH/m
git init -q "$M" && git -C "$M" fetch -q "$R" refs/tags/c1:refs/heads/old &&
	git -C "$M" checkout -q old
ypre=$(sed -n 's/^index \([0-9a-f]*\)\.\..*/\1/p' "$TRASH"/p1/0002-*.patch)
(cd "$M" && "$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" >"$TRASH/mo" 2>"$TRASH/me")
is "$?:$(wc -c <"$TRASH/mo")" 1:0 "a blob missing: exit 1, nothing on stdout"
check "one line names the file and the blob" grep -qx \
	"lore-am: --range-diff: v1 fits no commit here, and the blob $ypre that 'y.c' starts from is not in this repository (nor whole in the patch): the range-diff cannot be made" "$TRASH/me"
done_testing
