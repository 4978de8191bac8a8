#!/bin/bash
# -o DIR run again on a thread that has not changed leaves the files as
# they are (no rewrite, no fsync: a mail filter runs for every reply), and
# rewrites them as soon as something new, here a trailer, comes in.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 7

series_repo "$TRASH/repo" 2 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
to_mbox "$TRASH/t.mbox" "$TRASH/p"/*.patch
id=$(msgid_of "$TRASH/p"/0001-*)

"$LORE_AM" -q -m "$TRASH/t.mbox" -o "$TRASH/out" "$id"
is "$?" 0 "first run writes the series"
mbx=$(ls "$TRASH/out"/*.mbx)
# inode and modification time (ns) tell a rewrite from a file left alone
before=$(stat -c '%i %y' "$mbx" "${mbx%.mbx}.cover")
sleep 0.05
"$LORE_AM" -q -m "$TRASH/t.mbox" -o "$TRASH/out" "$id"
is "$?" 0 "second run on the same thread"
is "$(stat -c '%i %y' "$mbx" "${mbx%.mbx}.cover")" "$before" \
	"the same files are left as they were"
is "$(ls "$TRASH/out" | wc -l)" 2 "no temporary file left behind"

reply "$TRASH/r.eml" "$TRASH/p"/0001-* "Rita Reviewer <rita@example.net>" \
	"Looks right.

Reviewed-by: Rita Reviewer <rita@example.net>"
to_mbox "$TRASH/t2.mbox" "$TRASH/p"/*.patch "$TRASH/r.eml"
sleep 0.05
"$LORE_AM" -q -m "$TRASH/t2.mbox" -o "$TRASH/out" "$id"
is "$?" 0 "a run after a review came in"
check "the new trailer is in the file" \
	grep -q '^Reviewed-by: Rita Reviewer <rita@example.net>$' "$mbx"
isnt_same() { [ "$1" != "$2" ]; }
check "the mbox was rewritten" isnt_same \
	"$(stat -c '%i %y' "$mbx")" "$(echo "$before" | head -1)"
done_testing
