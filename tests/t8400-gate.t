#!/bin/bash
# The maintainer's gate (lore-am.gate): each am-ready patch checked the
# way linux-next would check it once applied, in a real repository with
# history, release tags and a .mailmap, on a series made by real git
# format-patch: Fixes: ids and subjects, sign-offs through the mailmap,
# Co-developed-by:, Reported-by: and Closes:, Cc: stable by the release
# tags; a kernel test robot's tags held back; hardfail writes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 48

R=$TRASH/repo
make_repo "$R"
# history: "mm: add the pool" is in v6.6; "mm: grow the pool" only in
# v6.7-rc1, which is no release
(cd "$R" &&
 echo "int pool;" >pool.c && git add pool.c && git commit -qm "mm: add the pool" &&
 git tag -a v6.5 -m v6.5 base && git tag -a v6.6 -m v6.6 &&
 echo "int pool[2];" >pool.c && git commit -qam "mm: grow the pool" &&
 git tag v6.7-rc1 &&
 printf 'Pat Contributor <pat@example.com> <pat@old.example.net>\n' >.mailmap &&
 git add .mailmap && git commit -qm "mailmap: Pat's old address" &&
 git tag base2)
add=$(git -C "$R" rev-parse HEAD~2)
grow=$(git -C "$R" rev-parse HEAD~1)

# commit FILE AUTHOR-NAME AUTHOR-EMAIL SUBJECT TRAILER-LINES
commit() {
	(cd "$R" && echo "$1" >"$1" && git add "$1" &&
	 GIT_AUTHOR_NAME=$2 GIT_AUTHOR_EMAIL=$3 \
	 git commit -qm "$4" -m "Why this change is needed." -m "$5")
}
pat="Pat Contributor <pat@example.com>"
(cd "$R" && git checkout -q -b topic base2)
commit a.c "Pat Contributor" pat@example.com "a: clean fix" \
	"Fixes: ${grow:0:12} (\"mm: grow the pool\")
Signed-off-by: $pat"
commit b.c "Pat Contributor" pat@example.com "b: fixes a commit that is not there" \
	"Fixes: deadbeefdead (\"mm: add the pool\")
Signed-off-by: $pat"
commit c.c "Pat Contributor" pat@example.com "c: fixes with a wrong subject" \
	"Fixes: ${add:0:12} (\"mm: add a pool\")
Cc: stable@vger.kernel.org
Signed-off-by: $pat"
commit d.c "Pat Contributor" pat@example.com "d: fixes with 8 digits" \
	"Fixes: ${add:0:8} (\"mm: add the pool\")
Cc: stable@vger.kernel.org
Signed-off-by: $pat"
commit e.c "Pat Contributor" pat@example.com "e: fixes a released commit" \
	"Fixes: ${add:0:12} (\"mm: add the pool\")
Signed-off-by: $pat"
commit f.c "Pat Contributor" pat@old.example.net "f: signed off under the other address" \
	"Signed-off-by: P. Contributor <pat@example.com>"
commit g.c "Pat Contributor" pat@old.example.net "g: author never signed off" \
	"Signed-off-by: Sam Sender <sam@example.com>"
commit h.c "Pat Contributor" pat@example.com "h: reported without closes" \
	"Reported-by: Rita Reporter <rita@example.com>
Signed-off-by: $pat"
commit i.c "Pat Contributor" pat@example.com "i: co-developer without sign-off" \
	"Co-developed-by: Cora Dev <cora@example.com>
Signed-off-by: $pat"
commit j.c "Pat Contributor" pat@example.com "j: closes is no url" \
	"Reported-by: Rita Reporter <rita@example.com>
Closes: bug 1234
Signed-off-by: $pat"
commit k.c "Pat Contributor" pat@example.com "k: cc stable for an unreleased commit" \
	"Fixes: ${grow:0:12} (\"mm: grow the pool\")
Cc: stable@vger.kernel.org
Signed-off-by: $pat"
(cd "$R" && git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p" base2..topic)
to_mbox "$TRASH/s.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")

cd "$R" || exit 1
"$LORE_AM" -m "$TRASH/s.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "warn (the default): exit 0"
check "the mbox is written" grep -q "^Subject: \[PATCH 11/11\]" "$TRASH/out"
check "a gate section" grep -qx "Gate (lore-am.gate=warn):" "$TRASH/err"
line() { grep -E "^  (✓|!|✗) \[PATCH ${1#0}/11\]" "$TRASH/err"; }
mark() { line "$1" | awk '{ print $1 }'; }
is "$(grep -cE '^  (✓|!|✗) \[PATCH [0-9]+/11\]' "$TRASH/err")" 11 "one line per patch"
is "$(mark 01)" "✓" "a Fixes: of an unreleased commit, no Cc: stable: ✓"
check "saying why no Cc: stable" grep -q "PATCH 1/11\] a: clean fix (fixes a commit newer than v6.6: no Cc: stable)" "$TRASH/err"
is "$(mark 02)" "✗" "a Fixes: id that is no commit here: ✗"
check "named" grep -qx "    ✗ Fixes: deadbeefdead is not an object in this tree" "$TRASH/err"
is "$(mark 03)" "✗" "a Fixes: with another commit's subject: ✗"
check "the right line suggested" grep -qxF "    ✗ Fixes: ${add:0:12}: the subject is not that commit's; use: Fixes: ${add:0:12} (\"mm: add the pool\")" "$TRASH/err"
is "$(mark 04)" "!" "an 8-digit Fixes: !"
check "12 digits suggested" grep -qxF "    ! Fixes: ${add:0:8} has 8 hex digits, at least 12 are asked; use: Fixes: ${add:0:12} (\"mm: add the pool\")" "$TRASH/err"
check "with Cc: stable for a released commit" grep -q "PATCH 4/11\] d: fixes with 8 digits (fixes a commit of v6.6, Cc: stable)" "$TRASH/err"
is "$(mark 05)" "!" "a fix for a released commit without Cc: stable: !"
check "naming the release" grep -qxF "    ! Fixes: ${add:0:12} is in v6.6: no Cc: stable@vger.kernel.org" "$TRASH/err"
is "$(mark 06)" "✓" "the author signed off under the address the .mailmap maps"
is "$(mark 07)" "✗" "the author (a .mailmap alias) never signed off: ✗"
check "named" grep -qxF "    ✗ the author, Pat Contributor <pat@old.example.net>, has not signed off" "$TRASH/err"
is "$(mark 08)" "!" "Reported-by: without Closes: !"
check "said" grep -qxF "    ! Reported-by: Rita Reporter <rita@example.com> is not followed by Closes: (or Link:) to the report" "$TRASH/err"
is "$(mark 09)" "✗" "Co-developed-by: without its sign-off: ✗"
is "$(mark 10)" "!" "a Closes: that is no URL: !"
check "said" grep -qxF "    ! Closes: 'bug 1234' is not a URL" "$TRASH/err"
is "$(mark 11)" "!" "Cc: stable for a commit in no release: !"
check "said" grep -qxF "    ! Cc: stable, but ${grow:0:12} is newer than every release (v6.6): it is in none" "$TRASH/err"

# the git processes: one cat-file, one check-mailmap for the
# series, one name-rev for the release tags of both fixed commits
GIT_TRACE=$TRASH/trace "$LORE_AM" -m "$TRASH/s.mbox" "$id" >/dev/null 2>&1
is "$(grep -c "built-in: git cat-file" "$TRASH/trace")" 1 "one cat-file for the series"
is "$(grep -c "built-in: git check-mailmap" "$TRASH/trace")" 1 "one check-mailmap"
is "$(grep -c "built-in: git name-rev" "$TRASH/trace")" 1 "one name-rev for all fixed commits"

# hardfail: nothing written, one line naming the patch and the check
git config --global lore-am.gate hardfail
"$LORE_AM" -m "$TRASH/s.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
is $? 3 "hardfail with a ✗: exit 3"
is "$(wc -c <"$TRASH/out")" 0 "nothing on stdout"
check "one line names the patch and the check" grep -qxF "lore-am: gate: [PATCH 2/11] b: fixes a commit that is not there: Fixes: deadbeefdead is not an object in this tree: nothing written or applied (lore-am.gate=hardfail, more patches failed)" "$TRASH/err"
mkdir "$TRASH/o"
"$LORE_AM" -m "$TRASH/s.mbox" -o "$TRASH/o" "$id" 2>/dev/null
ok $(( $? != 3 )) "with -o DIR: exit 3 too"
is "$(ls "$TRASH/o" | wc -l)" 0 "and no file in DIR"
head=$(git rev-parse HEAD)
git checkout -q -b apply-here base2
"$LORE_AM" -m "$TRASH/s.mbox" --apply "$id" >/dev/null 2>&1
is $? 3 "--apply under hardfail: exit 3"
is "$(git rev-parse HEAD)" "$(git rev-parse base2)" "and the branch did not move"
git checkout -q topic
# the clean patches alone pass hardfail (-P takes 1, 4-6)
"$LORE_AM" -m "$TRASH/s.mbox" -P 1,4-6 "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "hardfail with ! only: exit 0"
check "and written" grep -q "^Subject: \[PATCH 6/11\]" "$TRASH/out"
git config --global lore-am.gate off
"$LORE_AM" -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/err"
! grep -q "Gate" "$TRASH/err"
ok $? "off: no gate lines"
git config --global lore-am.gate sometimes
"$LORE_AM" -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/err"
is $? 2 "a policy that is none: usage error"
check "named" grep -qx "lore-am: lore-am.gate 'sometimes' is not off, warn or hardfail" "$TRASH/err"
git config --global --unset lore-am.gate

# outside a git tree: the tree checks skipped with one note
cd "$TRASH" || exit 1; cp "$TRASH/err" "$TRASH/keep"
GIT_CEILING_DIRECTORIES=$TRASH "$LORE_AM" -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/err"
is "$(grep -c "NOTE: gate: not in a git tree" "$TRASH/err")" 1 "outside a git tree: one note"
is "$(mark 02)" "✓" "and a Fixes: is not looked up"

# a clean series: every line ✓, nothing under them
cd "$R" || exit 1
git checkout -q -b clean base2
commit m.c "Pat Contributor" pat@example.com "m: fix the pool's size" \
	"Fixes: ${add:0:12} (\"mm: add the pool\")
Cc: stable@vger.kernel.org
Reported-by: Rita Reporter <rita@example.com>
Closes: https://bugs.example.org/1234
Co-developed-by: Cora Dev <cora@example.com>
Signed-off-by: Cora Dev <cora@example.com>
Signed-off-by: $pat"
commit n.c "Pat Contributor" pat@old.example.net "n: no fixes at all" \
	"Signed-off-by: Pat Contributor <pat@old.example.net>"
git format-patch -q --thread=shallow -o "$TRASH/c" base2..clean
to_mbox "$TRASH/c.mbox" "$TRASH"/c/*.patch
cid=$(msgid_of "$TRASH/c/0001-m-fix-the-pool-s-size.patch")
"$LORE_AM" -m "$TRASH/c.mbox" "$cid" >/dev/null 2>"$TRASH/err"
is "$(sed -n '/^Gate/,/^---/p' "$TRASH/err" | grep -vcE '^(Gate .*|---|  ✓ \[PATCH [12]/2\] .*)$')" 0 \
	"a clean series: no line but ✓"
is "$(grep -c '^  ✓ \[PATCH [12]/2\]' "$TRASH/err")" 2 "one ✓ per patch"
# -s: the applier's sign-off goes last, once
"$LORE_AM" -s -m "$TRASH/c.mbox" "$cid" >"$TRASH/out" 2>"$TRASH/err"
is "$(grep -cE '^  (!|✗) ' "$TRASH/err")" 0 "-s: your sign-off is last and once"
check "and it is there" grep -qx "Signed-off-by: Test Maintainer <maintainer@example.org>" "$TRASH/out"

# hostile values: what is not a commit id never reaches git's argv or
# stdin, and the author's name goes to check-mailmap one line at most
git checkout -q -b hostile base2
commit h1.c "Pat Contributor" pat@old.example.net "h1: hostile fixes" \
	"Fixes: --batch-all-objects (\"x\")
Signed-off-by: Pat <pat@example.com>"
git format-patch -q --thread -o "$TRASH/h" base2..hostile
GIT_TRACE=$TRASH/htrace "$LORE_AM" -m "$TRASH"/h/*.patch "$(msgid_of "$TRASH"/h/*.patch)" >/dev/null 2>"$TRASH/err"
check "a Fixes: that is no id: ✗, named" grep -qxF "    ✗ Fixes: '--batch-all-objects (\"x\")' does not start with a commit id" "$TRASH/err"
! grep -q "batch-all-objects" "$TRASH/htrace"
ok $? "and it reached no git command line"
