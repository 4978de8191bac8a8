#!/bin/bash
# b4 am -m - with no Message-ID: the mailbox on standard input is the
# thread (as -m MBOX alone), the latest series in it taken; what a mail
# client pipes when several messages are marked (aerc writes them as one
# mbox). Real b4 0.12's am -m - -o - writes the same bytes.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 7

R=$TRASH/repo
P=$TRASH/p
series_repo "$R" 3 >/dev/null || exit 1
fmt "$R" "$P" --cover-letter || exit 1
reply "$TRASH/review" "$P"/0002-* "Rita Reviewer <rita@example.net>" \
	"Reviewed-by: Rita Reviewer <rita@example.net>"
for f in "$P"/0000-* "$P"/0001-* "$P"/0002-* "$TRASH/review" "$P"/0003-*; do
	head -1 "$f" | grep -q '^From ' ||
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	cat "$f"
	echo
done >"$TRASH/in.mbox"

"$LORE_AM" -m - -o - <"$TRASH/in.mbox" >"$TRASH/a.mbx" 2>"$TRASH/a.err"
is "$?:$(grep -c '^Subject:' "$TRASH/a.mbx")" 0:3 "-m - alone: the series of the mailbox piped in"
is "$(grep -c '^Reviewed-by: Rita' "$TRASH/a.mbx")" 1 "... the review folded in"
check "... standard input was the source" grep -q '^Sources: mbox 5 messages' "$TRASH/a.err"
"$LORE_AM" -m "$TRASH/in.mbox" -o - </dev/null >"$TRASH/b.mbx" 2>/dev/null
same_file "$TRASH/a.mbx" "$TRASH/b.mbx" "... the same as -m FILE alone"
check "... git am applies it" apply_into "$TRASH/a.mbx" "$TRASH/a-repo"

if command -v b4 >/dev/null; then
	git init -q "$TRASH/b4r" && git -C "$TRASH/b4r" config b4.attestation-policy off
	(cd "$TRASH/b4r" && b4 -q -n am -m - -o - <"$TRASH/in.mbox" \
		>"$TRASH/b4.mbx" 2>/dev/null)
	same_file "$TRASH/a.mbx" "$TRASH/b4.mbx" "byte for byte what b4 am -m - writes"
else
	skip "b4 not installed"
fi

: | "$LORE_AM" -m - -o - >"$TRASH/e.out" 2>"$TRASH/e.err"
is "$?:$(wc -c <"$TRASH/e.out")" "1:0" "an empty mailbox piped in: nothing written (exit 1)"
done_testing
