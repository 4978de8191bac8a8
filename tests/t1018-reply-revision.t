#!/bin/bash
# The key pressed on the newest mail: a [PATCH v2] of a one-patch series,
# sent in reply to v1's [PATCH] (no i/N) with v1's title, is a revision of
# v1, never a patch of its own inside v1's thread: b4 says "Will use the
# latest revision: v2" (as the real b4 does), v1's trailers carry over
# when the diff is the same, and --range-diff compares v1 with v2. A [PATCH] of another title
# sent in reply (a fix proposed in review) is still taken alone.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 9

R=$TRASH/repo
make_repo "$R"
(cd "$R" && git checkout -q -b v1 base && sed -i 's/^line 5$/line five/' file.c &&
 git commit -qam "file: spell out five" -m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git format-patch -q --thread -1 -o "$TRASH/v1") || exit 1
v1=$(ls "$TRASH"/v1/0001-*.patch)
reply "$TRASH/review" "$v1" "Rev Iewer <rev@example.com>" \
	"Reviewed-by: Rev Iewer <rev@example.com>"
# v2: the same diff, a better message, in reply to v1
(cd "$R" && git checkout -q -b v2 base && sed -i 's/^line 5$/line five/' file.c &&
 git commit -qam "file: spell out five" -m "Words read better than digits here." \
	-m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 git format-patch -q --thread -1 -v2 --in-reply-to="$(msgid_of "$v1")" -o "$TRASH/v2") || exit 1
v2=$(ls "$TRASH"/v2/*.patch)
to_mbox "$TRASH/t.mbox" "$v1" "$TRASH/review" "$v2"

cd "$TRASH" || exit 1
"$LORE_AM" -m t.mbox <"$v2" >v2.out 2>v2.err
is "$?" 0 "v2 piped in: exit 0"
check "it is a revision of v1: the latest one is used" \
	grep -qx 'Will use the latest revision: v2' v2.err
check "no NOTE taking it alone" eval '! grep -q "taken alone" v2.err'
check "v2 is written" grep -q '^Subject: \[PATCH v2\] file: spell out five$' v2.out
check "v1's trailer carries over (same diff)" \
	grep -qx 'Reviewed-by: Rev Iewer <rev@example.com>' v2.out

if command -v b4 >/dev/null; then
	b4 -q am -m t.mbox -o - "$(msgid_of "$v2")" >b4.out 2>/dev/null
	is "$(grep -E '^(Subject|Reviewed-by):' v2.out)" \
		"$(grep -E '^(Subject|Reviewed-by):' b4.out)" \
		"the real b4 am takes v2 the same way, with the same trailer"
else
	skip "b4 is not installed"
fi

git clone -q "$R" u && git -C u checkout -q base -b work
(cd u && "$LORE_AM" -m "$TRASH/t.mbox" --range-diff <"$v2" >rd.out 2>rd.err)
is "$?" 0 "--range-diff on v2: exit 0"
check "--range-diff compares v1 with v2" eval \
	'! grep -q "nothing to compare" u/rd.err && grep -q "file: spell out five" u/rd.out'

# a fix of another title in reply to v1 is still a patch of its own
(cd "$R" && git checkout -q -b fix v1 && sed -i 's/^line 6$/line six/' file.c &&
 git commit -qam "file: spell out six too" &&
 git format-patch -q --thread -1 --in-reply-to="$(msgid_of "$v1")" -o "$TRASH/fix") || exit 1
fix=$(ls "$TRASH"/fix/*.patch)
to_mbox "$TRASH/f.mbox" "$v1" "$TRASH/review" "$fix"
"$LORE_AM" -m f.mbox <"$fix" >/dev/null 2>fix.err
check "a [PATCH] of another title in reply is taken alone, as before" \
	grep -q 'taken alone' fix.err
