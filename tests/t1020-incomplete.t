#!/bin/bash
# A series with a missing patch: named on stderr, nothing written, exit 1;
# --allow-incomplete writes what exists; -P picks patches.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 17

series_repo "$TRASH/repo" 4 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
to_mbox "$TRASH/partial.mbox" "$P"/0000-* "$P"/0001-* "$P"/0002-* "$P"/0004-*
to_mbox "$TRASH/full.mbox" "$P"/*.patch
id=$(msgid_of "$P/0001-part-add-piece-1.patch")

"$LORE_AM" -m "$TRASH/partial.mbox" "$id" > "$TRASH/out" 2> "$TRASH/err"
is "$?" 1 "an incomplete series exits 1"
is "$(wc -c < "$TRASH/out")" 0 "and writes nothing on stdout"
check "the missing patch is named" grep -q 'missing 3/4' "$TRASH/err"
"$LORE_AM" -m "$TRASH/partial.mbox" -o "$TRASH/outdir" "$id" 2>/dev/null
is "$?" 1 "the same with -o"
check "and no file is written" test ! -e "$TRASH/outdir"
"$LORE_AM" -q --allow-incomplete -m "$TRASH/partial.mbox" "$id" > "$TRASH/some" 2> "$TRASH/some.err"
is "$?" 0 "--allow-incomplete exits 0"
check "... still naming the missing patch, even with -q" grep -q 'missing 3/4' "$TRASH/some.err"
is "$(grep -c '^From git@z' "$TRASH/some")" 3 "and writes the three that exist"

"$LORE_AM" -q -P 1-2,4 -m "$TRASH/full.mbox" "$id" > "$TRASH/pick"
is "$(grep '^Subject:' "$TRASH/pick" | sed 's/.*\] //' | tr '\n' ,)" \
   "part: add piece 1,part: add piece 2,part: add piece 4," "-P 1-2,4 keeps those patches"
"$LORE_AM" -q -P 3- -m "$TRASH/full.mbox" "$id" > "$TRASH/pick2"
is "$(grep -c '^From git@z' "$TRASH/pick2")" 2 "-P 3- keeps 3 and 4"
p2=$(msgid_of "$P/0002-part-add-piece-2.patch")
"$LORE_AM" -q -P _ -m "$TRASH/full.mbox" "$p2" > "$TRASH/pick3"
is "$(grep '^Subject:' "$TRASH/pick3")" "Subject: [PATCH 2/4] part: add piece 2" "-P _ keeps the given message"
"$LORE_AM" -q -P 1-3 -m "$TRASH/partial.mbox" "$id" > "$TRASH/pick4" 2> "$TRASH/pick4.err"
is "$?:$(wc -c < "$TRASH/pick4")" 1:0 "-P over a missing patch still refuses, writes nothing"
check "... and names the missing patch" grep -q 'missing 3/4' "$TRASH/pick4.err"
"$LORE_AM" -q -P 1-2 -m "$TRASH/partial.mbox" "$id" > "$TRASH/pick5"
is "$?" 0 "-P around a missing patch works"
is "$(grep '^Subject:' "$TRASH/pick5" | sed 's/.*\] //' | tr '\n' ,)" \
   "part: add piece 1,part: add piece 2," "... and writes patches 1 and 2"
"$LORE_AM" -q -P 'x-y' -m "$TRASH/full.mbox" "$id" > "$TRASH/bad" 2> "$TRASH/bad.err"
is "$?" 2 "a bad -P spec is a usage error"
check "said in one line" test "$(wc -l < "$TRASH/bad.err")" -eq 1
done_testing
