#!/bin/bash
# --no-partial-reroll (b4 am's): a v2 that re-sends only 2/3, as a reply
# to v1's 2/3, is not completed from v1. Without it lore-am, as b4, takes
# 1/3 and 3/3 from v1; with it v2 is its one patch: refused as incomplete
# (naming what is missing), written with --allow-incomplete or -P, the
# same patch real b4 0.12 writes.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 9

R=$TRASH/repo
series_repo "$R" 3 >/dev/null || exit 1
fmt "$R" "$TRASH/v1" --cover-letter || exit 1
V1=$TRASH/v1
sed -e 's/\[PATCH 2\/3\]/[PATCH v2 2\/3]/' \
    -e "s/^Message-I[dD]: .*/Message-Id: <v2-two@example.com>/" \
    -e "s/^In-Reply-To: .*/In-Reply-To: <$(msgid_of "$V1"/0002-*)>/" \
    -e 's/^Date: .*/Date: Wed, 3 Jan 2024 10:00:00 +0000/' \
    "$V1"/0002-* >"$TRASH/v2-2"
to_mbox "$TRASH/reroll.mbox" "$V1"/*.patch "$TRASH/v2-2"
subjects() { grep '^Subject:' "$1" | tr '\n' '|'; }

"$LORE_AM" -m "$TRASH/reroll.mbox" v2-two@example.com >"$TRASH/re.mbx" 2>"$TRASH/re.err"
is "$?:$(grep -c '^Subject:' "$TRASH/re.mbx")" 0:3 "without it: v2 completed from v1"

"$LORE_AM" --no-partial-reroll -m "$TRASH/reroll.mbox" v2-two@example.com \
	>"$TRASH/no.mbx" 2>"$TRASH/no.err"
is "$?:$(wc -c <"$TRASH/no.mbx")" 1:0 "--no-partial-reroll: v2 alone is incomplete, nothing written"
check "... the patches v2 did not re-send named" grep -q 'v2: missing 1, 3 of 3' "$TRASH/no.err"
check "... no partial re-roll said" eval '! grep -q "partial re-roll" "$TRASH/no.err"'

"$LORE_AM" --no-partial-reroll --allow-incomplete -m "$TRASH/reroll.mbox" \
	v2-two@example.com >"$TRASH/some.mbx" 2>/dev/null
is "$?:$(subjects "$TRASH/some.mbx")" "0:Subject: [PATCH v2 2/3] part: add piece 2|" \
	"... with --allow-incomplete: v2's own patch"
"$LORE_AM" -q --no-partial-reroll -P 2 -m "$TRASH/reroll.mbox" \
	v2-two@example.com >"$TRASH/p2.mbx"
same_file "$TRASH/p2.mbx" "$TRASH/some.mbx" "... the same with -P 2"
"$LORE_AM" -q --no-partial-reroll -v 1 -m "$TRASH/reroll.mbox" \
	v2-two@example.com >"$TRASH/v1.mbx"
is "$?:$(grep -c '^Subject: \[PATCH [123]/3\]' "$TRASH/v1.mbx")" 0:3 \
	"... and -v 1 still takes v1 whole"

if command -v b4 >/dev/null; then
	git init -q "$TRASH/b4r" && git -C "$TRASH/b4r" config b4.attestation-policy off
	(cd "$TRASH/b4r" && b4 -q -n am --no-partial-reroll -m ../reroll.mbox -o - \
		v2-two@example.com >../b4-no.mbx 2>/dev/null)
	same_file "$TRASH/some.mbx" "$TRASH/b4-no.mbx" \
		"--no-partial-reroll: byte for byte what b4 am --no-partial-reroll writes"
	(cd "$TRASH/b4r" && b4 -q -n am -m ../reroll.mbox -o - v2-two@example.com \
		>../b4-re.mbx 2>/dev/null)
	is "$(subjects "$TRASH/b4-re.mbx")" "$(subjects "$TRASH/re.mbx")" \
		"without it: the same three patches as b4 am"
else
	skip "b4 not installed"
	skip "b4 not installed"
fi
