#!/bin/bash
# --explain: why this revision and these patches, from what the series
# stage decided: the revision chosen and how its subjects told it, the
# cover letter, the other revisions with the option that takes each, the
# unversioned resend rule, and a "Re:" mail with a diff left out.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 16

two_revisions "$TRASH/repo"
to_mbox "$TRASH/t.mbox" "$TRASH"/p1/*.patch "$TRASH"/p2/*.patch
id=$(msgid_of "$TRASH/p1/0000-cover-letter.patch")
v2c=$(msgid_of "$TRASH/p2/v2-0000-cover-letter.patch")
cd "$TRASH/repo" || exit 1
"$LORE_AM" --explain -m "$TRASH/t.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "exit 0"
check "the mbox is the same" grep -q "^Subject: \[PATCH v2 2/2\] a: add a" "$TRASH/out"
check "a section" grep -qx "Explain: why this revision and these patches" "$TRASH/err"
check "the latest chosen" grep -qx "  v2: chosen, the latest revision in the thread (-v 2 takes it by name)" "$TRASH/err"
check "told by its subjects" grep -qxF '    its subjects say v2 ("[PATCH v2 1/2] c: add c")' "$TRASH/err"
check "its cover letter" grep -qxF "    cover letter <$v2c> (\"[PATCH v2 0/2] *** SUBJECT HERE ***\")" "$TRASH/err"
check "the other revision and its option" grep -qx "  v1: 3 of 3 patches, no version tag: take it with -v 1" "$TRASH/err"
"$LORE_AM" --explain -v 1 -m "$TRASH/t.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
check "-v 1: asked for" grep -qx "  v1: chosen, asked for with -v 1" "$TRASH/err"
check "no version tag: v1" grep -qxF '    its subjects carry no version tag: v1 ("[PATCH 1/3] a: add a")' "$TRASH/err"
"$LORE_AM" -m "$TRASH/t.mbox" "$id" >/dev/null 2>"$TRASH/err"
! grep -q "Explain" "$TRASH/err"
ok $? "without --explain: not said"

# the gate is for what is applied: --range-diff compares, under hardfail
# too (these patches carry no sign-off, a ✗ each)
git config --global lore-am.gate hardfail
"$LORE_AM" -m "$TRASH/t.mbox" "$id" >/dev/null 2>&1
is $? 3 "hardfail: the series without sign-offs is refused"
"$LORE_AM" -m "$TRASH/t.mbox" --range-diff "$id" >"$TRASH/rd" 2>"$TRASH/err"
is $? 0 "--range-diff runs all the same"
! grep -q "Gate" "$TRASH/err"
ok $? "and says nothing of the gate"
git config --global --unset lore-am.gate

# a single patch sent again without a version tag, and a "Re:" mail with
# a diff answering it
(cd "$TRASH/repo" && git checkout -q -b one base && echo "int d;" >d.c &&
 git add d.c && git commit -qm "d: add d" &&
 git format-patch -q --thread -o "$TRASH/o1" -1 &&
 git commit -q --amend --no-edit --date="$(date -R -d '+1 hour')" &&
 git format-patch -q --thread -o "$TRASH/o2" -1 \
	--in-reply-to="$(msgid_of "$TRASH/o1/0001-d-add-d.patch")")
reply "$TRASH/re" "$TRASH/o1/0001-d-add-d.patch" "Rev Iewer <rev@example.org>" "Like this?

diff --git a/d.c b/d.c
--- a/d.c
+++ b/d.c
@@ -1 +1 @@
-int d;
+int d = 0;"
to_mbox "$TRASH/o.mbox" "$TRASH"/o1/*.patch "$TRASH"/o2/*.patch "$TRASH/re"
o1=$(msgid_of "$TRASH/o1/0001-d-add-d.patch")
"$LORE_AM" --explain -m "$TRASH/o.mbox" "$o1" >/dev/null 2>"$TRASH/err"
check "an unversioned resend explained" grep -qF "    an unversioned resend: the same sender's \"[PATCH] d: add d\", sent after the revision before it, is the revision after the highest the thread names (v2)" "$TRASH/err"
check "the first sending offered" grep -qx "  v1: 1 of 1 patch, no version tag: take it with -v 1" "$TRASH/err"
check "the Re: with a diff left out, and how to take it" grep -qF "holds a diff but is a reply (\"Re:\"): give its Message-ID to take it alone, as git am would" "$TRASH/err"
