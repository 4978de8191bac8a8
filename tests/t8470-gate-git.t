#!/bin/bash
# The gate's questions to git, in a real repository: every Fixes: id of
# the series resolved and every fixed commit's subject read by one `git
# cat-file --batch-command` (git log's %s: a subject wrapped over two
# lines, one in another encoding); an ambiguous short id, whose hints git
# prints on stderr, judged alone and not taken for the next id's answer;
# no git process the gate starts when no trailer needs the tree.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 15

R=$TRASH/repo
make_repo "$R"
# 1200 blobs: two of them share their first 4 hex digits (the content is
# fixed, so are the ids)
(cd "$R" &&
 for i in $(seq 1 1200); do printf 'blob\ndata <<E\nobject %s\nE\n' "$i"; done |
	git fast-import --quiet)
amb=$(git -C "$R" cat-file --batch-all-objects --batch-check='%(objectname)' |
	cut -c1-4 | sort | uniq -d | head -1)
(cd "$R" &&
 echo "int pool;" >pool.c && git add pool.c &&
 git commit -qm "mm: add the pool" && git tag -a v6.6 -m v6.6 &&
 echo "int pool[2];" >pool.c &&
 git commit -qam "mm: grow the
pool" -m "The second paragraph." &&
 echo "int pool[3];" >pool.c &&
 git -c i18n.commitEncoding=ISO-8859-1 commit -qam "$(printf 'mm: caf\351 pool')" &&
 git tag base2)
add=$(git -C "$R" rev-parse HEAD~2)
grow=$(git -C "$R" rev-parse HEAD~1)
cafe=$(git -C "$R" rev-parse HEAD)
check "an ambiguous 4-digit prefix made" test -n "$amb"
check "a commit in ISO-8859-1" sh -c "git -C '$R' cat-file commit $cafe | grep -qx 'encoding ISO-8859-1'"

# commit FILE SUBJECT TRAILER-LINES
commit() {
	(cd "$R" && echo "$1" >"$1" && git add "$1" &&
	 git commit -qm "$2" -m "Why this change is needed." -m "$3")
}
pat="Pat Contributor <pat@example.com>"
(cd "$R" && git checkout -q -b topic base2)
commit a.c "a: fixes an ambiguous id" "Fixes: $amb (\"something\")
Signed-off-by: Test Maintainer <maintainer@example.org>"
commit b.c "b: fixes a released commit" "Fixes: ${add:0:12} (\"mm: add the pool\")
Cc: stable@vger.kernel.org
Signed-off-by: Test Maintainer <maintainer@example.org>"
commit c.c "c: fixes a wrapped subject" "Fixes: ${grow:0:12} (\"mm: grow the pool\")
Signed-off-by: Test Maintainer <maintainer@example.org>"
commit d.c "d: quotes another subject" "Fixes: ${cafe:0:12} (\"mm: cafe pool\")
Signed-off-by: Test Maintainer <maintainer@example.org>"
(cd "$R" && git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p" base2..topic)
to_mbox "$TRASH/s.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")

cd "$R" || exit 1
GIT_TRACE=$TRASH/trace "$LORE_AM" -m "$TRASH/s.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "warn: exit 0"
line() { grep -E "^  (✓|!|✗) \[PATCH $1/4\]" "$TRASH/err"; }
mark() { line "$1" | awk '{ print $1 }'; }
is "$(mark 1)" "✗" "an ambiguous id: ✗"
check "said so" grep -qxF "    ✗ Fixes: $amb is ambiguous in this tree" "$TRASH/err"
is "$(mark 2)" "✓" "the id after it is judged on its own answer: ✓"
check "its release named" grep -qF "[PATCH 2/4] b: fixes a released commit (fixes a commit of v6.6, Cc: stable)" "$TRASH/err"
is "$(mark 3)" "✓" "a subject wrapped over two lines, quoted on one: ✓"
is "$(mark 4)" "✗" "another subject than the commit's: ✗"
check "the commit's subject, from ISO-8859-1" grep -qxF "    ✗ Fixes: ${cafe:0:12}: the subject is not that commit's; use: Fixes: ${cafe:0:12} (\"mm: café pool\")" "$TRASH/err"
check "no git hint among the gate's lines" sh -c "! grep -q '^hint:' '$TRASH/err'"

# four Fixes: one cat-file for the ids and the subjects, no git log
is "$(grep -c "built-in: git cat-file" "$TRASH/trace")" 1 "one cat-file for the series"
is "$(grep -c "built-in: git log" "$TRASH/trace")" 0 "no git log for the subjects"
is "$(grep -c "built-in: git name-rev" "$TRASH/trace")" 1 "one name-rev for the releases"

# a series no check of which needs the tree: the gate adds no process
git checkout -q -b plain base
commit p.c "p: plain change" "Signed-off-by: Test Maintainer <maintainer@example.org>"
git format-patch -q --thread -o "$TRASH/q" base..plain
pid=$(msgid_of "$TRASH"/q/*.patch)
: >"$TRASH/t-warn"; : >"$TRASH/t-off"
GIT_TRACE=$TRASH/t-warn "$LORE_AM" -m "$TRASH"/q/*.patch "$pid" >/dev/null 2>&1
git config --global lore-am.gate off
GIT_TRACE=$TRASH/t-off "$LORE_AM" -m "$TRASH"/q/*.patch "$pid" >/dev/null 2>&1
git config --global --unset lore-am.gate
is "$(grep -c 'built-in: git' "$TRASH/t-warn")" "$(grep -c 'built-in: git' "$TRASH/t-off")" \
	"no trailer that needs the tree: no git process of the gate's"
