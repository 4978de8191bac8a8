#!/bin/bash
# A repository whose objects are reachable only through a relative entry
# of GIT_ALTERNATE_OBJECT_DIRECTORIES, as a script that borrows another
# clone's objects sets it. git reads such an entry relative to the folder
# it works in (the work tree's top when started inside it, else the
# folder it was started in), so lore-am hands every git it starts the
# entries made absolute as git would read them where lore-am started:
# --apply and --range-diff then work as plain `git am` does
# there, from the top, from a subfolder, with the entry quoted as git
# allows, beside an absolute one and a comment, and from outside the work
# tree with GIT_DIR and GIT_WORK_TREE set.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 14

diff_setup || exit 1
export GIT_COMMITTER_DATE="1700000000 +0000" GIT_AUTHOR_DATE="1700000000 +0000"
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR" "$TRASH/empty/objects"

# borrower DIR: a repository at $TRASH/repo's main whose objects are
# all in $TRASH/repo (none of its own), a subfolder sub/ made
borrower() {
	rm -rf "$1" && git init -q "$1" &&
	(cd "$1" && export GIT_ALTERNATE_OBJECT_DIRECTORIES=$TRASH/repo/.git/objects &&
	 git update-ref refs/heads/main "$(git -C "$TRASH/repo" rev-parse main)" &&
	 git reset -q --hard && mkdir sub)
}
# result DIR: what an --apply leaves
result() { (cd "$1" && GIT_ALTERNATE_OBJECT_DIRECTORIES=$TRASH/repo/.git/objects \
	sh -c 'git rev-parse HEAD && git ls-files -s && git status --porcelain'); }
# apply_in DIR ALTERNATES ARGS...: lore-am in DIR with that variable set
apply_in() {
	_d=$1 _alt=$2; shift 2
	(cd "$_d" && GIT_ALTERNATE_OBJECT_DIRECTORIES=$_alt "$LORE_AM" \
		-m "$TRASH/thread.mbox" "$@" "$id" </dev/null 2>"$TRASH/err")
}

user_clone "$TRASH/ref" >/dev/null 2>&1
(cd "$TRASH/ref" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" </dev/null 2>/dev/null)
ok $? "--apply in a plain clone exits 0"
result "$TRASH/ref" >"$TRASH/want"
la -m "$TRASH/thread.mbox" --range-diff "$id" 2>/dev/null | canon /dev/stdin >"$TRASH/rd.want"

borrower "$TRASH/b"
! (cd "$TRASH/b" && git cat-file -e main 2>/dev/null)
ok $? "the borrower has none of its objects without the variable"
(cd "$TRASH/b" && GIT_ALTERNATE_OBJECT_DIRECTORIES=../repo/.git/objects git am -q "$TRASH/v2.mbx")
ok $? "plain git am there applies with the relative entry"
borrower "$TRASH/b"

apply_in "$TRASH/b" ../repo/.git/objects --apply >/dev/null
ok $? "--apply with the relative entry exits 0"
result "$TRASH/b" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "... the same commits, index and work tree"
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary folder left"

borrower "$TRASH/b"
apply_in "$TRASH/b" ../repo/.git/objects --range-diff >"$TRASH/rd.out"
ok $? "--range-diff with the relative entry exits 0"
canon "$TRASH/rd.out" >"$TRASH/rd.got"
same_file "$TRASH/rd.got" "$TRASH/rd.want" "... the same range-diff as in a plain clone"

# from a subfolder git still reads the entry from the top; quoted (an
# octal escape in it), after an absolute entry and a comment
borrower "$TRASH/b"
apply_in "$TRASH/b/sub" "$TRASH/empty/objects:#a comment:\"../repo/.git/obj\\145cts\"" \
	--apply >/dev/null
ok $? "--apply from a subfolder, the entry quoted among others, exits 0"
result "$TRASH/b" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "... the same commits, index and work tree"

# a script outside the work tree: git reads the entry from where it runs
borrower "$TRASH/b"
(cd "$TRASH" && GIT_DIR=b/.git GIT_WORK_TREE=b GIT_ALTERNATE_OBJECT_DIRECTORIES=repo/.git/objects \
	"$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" </dev/null >/dev/null 2>"$TRASH/err")
ok $? "--apply from outside with GIT_DIR, GIT_WORK_TREE and the entry relative to there"
result "$TRASH/b" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "... the same commits, index and work tree"
(cd "$TRASH" && GIT_DIR=b/.git GIT_WORK_TREE=b GIT_ALTERNATE_OBJECT_DIRECTORIES=repo/.git/objects \
	"$LORE_AM" -m "$TRASH/thread.mbox" --range-diff "$id" </dev/null 2>/dev/null |
	canon /dev/stdin >"$TRASH/rd.got")
same_file "$TRASH/rd.got" "$TRASH/rd.want" "... and the same range-diff"
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary folder left"
done_testing
