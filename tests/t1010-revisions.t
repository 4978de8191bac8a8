#!/bin/bash
# Revisions: the latest by default (even when v2 answers v1), -v to pick
# another, trailers carried over by patch-id, partial re-rolls completed
# from the previous revision, duplicates at one slot warned about.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 18

R=$TRASH/repo
series_repo "$R" 3 >/dev/null
fmt "$R" "$TRASH/v1" --cover-letter
v1c=$(msgid_of "$TRASH/v1/0000-cover-letter.patch")
# v2: patch 2 changes, 1 and 3 do not
(cd "$R" && git checkout -q -b topic-v2 base &&
 git cherry-pick topic~2 >/dev/null &&
 echo "content 2 of part, reworked" > part2.c && git add part2.c &&
 GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com \
 git commit -q -m "part: add piece 2" -m "Reworked." \
	-m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git cherry-pick topic >/dev/null)
# git names a cover letter after the current second: let v2's differ
sleep 1
fmt "$R" "$TRASH/v2" --cover-letter -v2 --in-reply-to="$v1c"
V1=$TRASH/v1 V2=$TRASH/v2
v2c=$(msgid_of "$V2/v2-0000-cover-letter.patch")

reply "$TRASH/r1" "$V1/0001-part-add-piece-1.patch" "Rita Reviewer <rita@example.com>" \
	"Reviewed-by: Rita Reviewer <rita@example.com>"
reply "$TRASH/r2" "$V1/0002-part-add-piece-2.patch" "Bob Reviewer <bob@example.com>" \
	"Reviewed-by: Bob Reviewer <bob@example.com>"
reply "$TRASH/r3" "$V1/0000-cover-letter.patch" "Alan Acker <alan@example.com>" \
	"Acked-by: Alan Acker <alan@example.com>"
reply "$TRASH/r4" "$V2/v2-0003-part-add-piece-3.patch" "Tina Tester <tina@example.com>" \
	"Tested-by: Tina Tester <tina@example.com>"
# b4 takes a v2 cover letter that answers v1 and carries base-commit: for a
# reply, and loses what reviewers sent to it for the whole series
reply "$TRASH/r5" "$V2/v2-0000-cover-letter.patch" "Wanda Whole <wanda@example.com>" \
	"For the whole series: Acked-by: no, on its own line:

Acked-by: Wanda Whole <wanda@example.com>"
to_mbox "$TRASH/thread.mbox" "$V1"/*.patch "$TRASH/r1" "$TRASH/r2" "$TRASH/r3" \
	"$V2"/*.patch "$TRASH/r4" "$TRASH/r5"

"$LORE_AM" -m "$TRASH/thread.mbox" "$v1c" > "$TRASH/out.mbx" 2> "$TRASH/err"
is "$?" 0 "exit 0"
check "the latest revision is used, even when v2 answers v1" \
	grep -q '^Subject: \[PATCH v2 1/3\]' "$TRASH/out.mbx"
check "the summary says so" grep -q 'Will use the latest revision: v2' "$TRASH/err"
apply_into "$TRASH/out.mbx" "$TRASH/a2"
is "$(git -C "$TRASH/a2" rev-parse HEAD^{tree})" "$(git -C "$R" rev-parse topic-v2^{tree})" \
	"v2 applies and gives v2's tree"
t1=$(trailers_of "$TRASH/a2" HEAD~2) t2=$(trailers_of "$TRASH/a2" HEAD~1) t3=$(trailers_of "$TRASH/a2" HEAD)
case $t1 in *"Rita Reviewer"*) r=0;; *) r=1;; esac
ok $r "a trailer given to an unchanged v1 patch carries over to v2"
case $t2 in *"Bob Reviewer"*) r=1;; *) r=0;; esac
ok $r "a trailer given to a changed patch does not"
case $t3 in *"Tina Tester"*) r=0;; *) r=1;; esac
ok $r "v2's own follow-ups are added"
case "$t1$t2$t3" in *"Alan Acker"*) r=1;; *) r=0;; esac
ok $r "v1's cover letter trailers stay with v1"
is "$(printf '%s\n' "$t1" "$t2" "$t3" | grep -c 'Acked-by: Wanda Whole')" 3 \
   "a v2 cover letter answering v1 is still the cover: its trailer goes to every patch"

"$LORE_AM" -q -v 1 -m "$TRASH/thread.mbox" "$v2c" > "$TRASH/v1.mbx"
check "-v 1 picks the first revision" grep -q '^Subject: \[PATCH 1/3\]' "$TRASH/v1.mbx"
is "$(grep -c 'Acked-by: Alan Acker' "$TRASH/v1.mbx")" 3 "v1 gets its cover letter's trailer on every patch"
"$LORE_AM" -q -v 7 -m "$TRASH/thread.mbox" "$v2c" > "$TRASH/v7.mbx" 2> "$TRASH/v7.err"
is "$?" 1 "an absent revision exits 1"
is "$(wc -c < "$TRASH/v7.mbx")" 0 "and writes nothing"

# partial re-roll: v3 re-sends only 2/3, as a reply to v2 2/3
sed -e 's/\[PATCH v2 2\/3\]/[PATCH v3 2\/3]/' \
    -e "s/^Message-I[dD]: .*/Message-Id: <v3-two@example.com>/" \
    -e "s/^In-Reply-To: .*/In-Reply-To: <$(msgid_of "$V2/v2-0002-part-add-piece-2.patch")>/" \
    "$V2/v2-0002-part-add-piece-2.patch" > "$TRASH/v3-2"
to_mbox "$TRASH/reroll.mbox" "$V1"/*.patch "$V2"/*.patch "$TRASH/r4" "$TRASH/v3-2"
"$LORE_AM" -m "$TRASH/reroll.mbox" v3-two@example.com > "$TRASH/v3.mbx" 2> "$TRASH/v3.err"
is "$?" 0 "a partial re-roll is completed"
is "$(grep '^Subject:' "$TRASH/v3.mbx" | tr '\n' '|')" \
   "Subject: [PATCH v3 1/3] part: add piece 1|Subject: [PATCH v3 2/3] part: add piece 2|Subject: [PATCH v3 3/3] part: add piece 3|" \
   "from the previous revision, with v3 subjects"
check "with a warning" grep -q 'partial re-roll' "$TRASH/v3.err"

# the same patch sent twice at one slot
sed -e "s/^Message-I[dD]: .*/Message-Id: <dup@example.com>/" -e 's/^Date: .*/Date: Wed, 3 Jan 2024 00:00:00 +0000/' \
	"$V2/v2-0001-part-add-piece-1.patch" > "$TRASH/dup"
to_mbox "$TRASH/dup.mbox" "$V2"/*.patch "$TRASH/dup"
"$LORE_AM" -m "$TRASH/dup.mbox" "$v2c" > "$TRASH/dup.mbx" 2> "$TRASH/dup.err"
check "a duplicate at one slot is warned about" grep -q 'sent more than once' "$TRASH/dup.err"
is "$(grep -c '^From git@z' "$TRASH/dup.mbx")" 3 "and written once"
done_testing
