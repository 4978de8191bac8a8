#!/bin/bash
# t1015-inner-patch.t - the series is the one the piped message belongs
# to: a patch without i/N sent inside another series' thread (a fix
# proposed in review) is taken alone, with a NOTE, and --parent takes the
# series it answers; a [PATCH v2] of one patch, sent in reply to it, is a
# revision of that patch; a whole series resent in reply is its own
# revision. Real git format-patch output, real git am.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"

plan 19

R=$TRASH/repo
series_repo "$R" 3 || exit 1
fmt "$R" "$TRASH/v1" --cover-letter || exit 1
cover=$TRASH/v1/0000-cover-letter.patch
p2=$(ls "$TRASH"/v1/0002-*.patch)

# a reviewer's fix, as a [PATCH] in reply to patch 2, and a review of it
(cd "$R" && git checkout -q -b fix topic && echo fixed >>part2.c &&
 git commit -q -am "part2: fix the typo" -m "Signed-off-by: Rae Viewer <rae@example.net>" &&
 git format-patch -q --thread -1 --in-reply-to="$(msgid_of "$p2")" \
	-o "$TRASH/fix") || exit 1
fix=$(ls "$TRASH"/fix/0001-*.patch)
sed -i 's/^From: .*/From: Rae Viewer <rae@example.net>/' "$fix"
reply "$TRASH/fix-review" "$fix" "Pat Contributor <pat@example.com>" \
	"Reviewed-by: Pat Contributor <pat@example.com>"
to_mbox "$TRASH/t.mbox" "$TRASH"/v1/*.patch "$fix" "$TRASH/fix-review"

"$LORE_AM" -m "$TRASH/t.mbox" <"$fix" >"$TRASH/fix.out" 2>"$TRASH/fix.err"
is "$?" 0 "the fix piped in: exit 0"
is "$(grep -c '^Subject: \[PATCH' "$TRASH/fix.out")" 1 "the fix alone is written"
check "it is the fix" grep -q '^Subject: \[PATCH\] part2: fix the typo$' "$TRASH/fix.out"
check "its review's trailer is added" \
	grep -qx 'Reviewed-by: Pat Contributor <pat@example.com>' "$TRASH/fix.out"
check "a NOTE says it was taken alone, and how to get the series" \
	grep -q '^NOTE: <.*> is a patch of its own inside another series. thread: taken alone (--parent' \
	"$TRASH/fix.err"
git clone -q "$R" "$TRASH/am-fix" && (cd "$TRASH/am-fix" &&
	git checkout -q origin/topic -b am && git am -q "$TRASH/fix.out")
is "$?" 0 "git am applies the fix on the series"
check "the tree is the fix's" git -C "$TRASH/am-fix" diff --quiet origin/fix HEAD

"$LORE_AM" --parent -m "$TRASH/t.mbox" <"$fix" >"$TRASH/parent.out" 2>"$TRASH/parent.err"
is "$?" 0 "--parent: exit 0"
check "--parent: no NOTE" sh -c "! grep -q 'taken alone' '$TRASH/parent.err'"
is "$(grep -c '^Subject: \[PATCH .*/3\]' "$TRASH/parent.out")" 3 \
	"--parent: the series it answers"
"$LORE_AM" -m "$TRASH/t.mbox" <"$p2" >"$TRASH/p2.out" 2>/dev/null
same_file "$TRASH/p2.out" "$TRASH/parent.out" \
	"patch 2 piped in: the same series as --parent gives"
"$LORE_AM" --parent --no-parent -m "$TRASH/t.mbox" <"$fix" >/dev/null 2>"$TRASH/both.err"
is "$?" 2 "--parent with --no-parent: exit 2"

# a real v2 of patch 2, without i/N, in reply to it: a revision, not alone
(cd "$R" && git checkout -q -b v2 topic~1 && printf 'content 2 of part, v2\n' >part2.c &&
 git commit -q -am "part: add piece 2" -m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git format-patch -q --thread -1 -v2 --in-reply-to="$(msgid_of "$p2")" \
	-o "$TRASH/v2one") || exit 1
v2one=$(ls "$TRASH"/v2one/*.patch)
sed -i 's/^From: .*/From: Pat Contributor <pat@example.com>/' "$v2one"
to_mbox "$TRASH/t2.mbox" "$TRASH"/v1/*.patch "$v2one"
"$LORE_AM" -m "$TRASH/t2.mbox" <"$v2one" >"$TRASH/v2one.out" 2>"$TRASH/v2one.err"
is "$?" 0 "a [PATCH v2] of patch 2 piped in: exit 0"
check "no NOTE: it is a revision of patch 2" \
	sh -c "! grep -q 'taken alone' '$TRASH/v2one.err'"
check "revision v2 is written" grep -q '^Subject: \[PATCH v2\] part: add piece 2$' \
	"$TRASH/v2one.out"

# the whole series resent in reply to v1's cover letter: v2 of it
(cd "$R" && git checkout -q topic) &&
	fmt "$R" "$TRASH/v2" --cover-letter -v2 --in-reply-to="$(msgid_of "$cover")" ||
	exit 1
for f in "$TRASH"/v2/*.patch; do
	sed -i 's/^From: .*/From: Pat Contributor <pat@example.com>/' "$f"
done
to_mbox "$TRASH/t3.mbox" "$TRASH"/v1/*.patch "$TRASH"/v2/*.patch
v2p2=$(ls "$TRASH"/v2/v2-0002-*.patch)
"$LORE_AM" -m "$TRASH/t3.mbox" <"$v2p2" >"$TRASH/v2all.out" 2>"$TRASH/v2all.err"
is "$?" 0 "v2 2/3 of a series resent in reply: exit 0"
is "$(grep -c '^Subject: \[PATCH v2 [123]/3\]' "$TRASH/v2all.out")" 3 \
	"the whole v2 is written"
check "no NOTE" sh -c "! grep -q 'taken alone' '$TRASH/v2all.err'"
check "v1 is named as another revision" grep -q 'Other revisions in the thread: v1' \
	"$TRASH/v2all.err"

done_testing
