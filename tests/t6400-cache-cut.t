#!/bin/bash
# A cache entry is believed only when it is what was stored: its length
# and SHA-256 are kept beside it (NAME.sum). An entry replaced by a valid
# gzip of a cut mbox (it inflates, it holds the id asked for) is fetched
# again instead of giving an incomplete series until it expires; so is an
# entry without its check line.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"

command -v gzip >/dev/null || skip_all "gzip not installed"
plan 9

gz_thread || exit 1
tiny_start SRV serve "$TRASH/thread.gz" application/gzip || exit 1
URL=http://127.0.0.1:$SRV/list
reqs() { wc -l <"$TRASH/tiny1.log"; }

lore first -L "$URL" "$COVER"
is "$(cat "$TRASH/first.rc"):$(reqs)" "0:1" "fetched once, stored"
entry=$(ls "$XDG_CACHE_HOME"/lore-am/*.mbox.gz)
len= sum=
[ -e "$entry.sum" ] && read -r len sum <"$entry.sum"
is "$len $sum" "$(wc -c <"$entry") $(sha256sum "$entry" | cut -d' ' -f1)" \
	"the check beside the entry: its length and SHA-256"
lore hit -L "$URL" "$COVER"
is "$(cat "$TRASH/hit.rc"):$(reqs)" "0:1" "a sound entry is used: no request"

# the thread cut after its first patches, gzipped whole: it inflates, and
# it holds the cover letter asked for
perl -ne 'exit if /^From / && ++$n > 3; print' "$TRASH/thread.mbox" |
	gzip -c >"$entry"
check "the planted entry is a whole gzip stream" gz_ok "$entry"
lore cut -L "$URL" "$COVER"
is "$(cat "$TRASH/cut.rc"):$(reqs)" "0:2" "a valid gzip of a cut mbox is not believed: fetched again"
same_file "$TRASH/cut.out" "$TRASH/first.out" "... and the series is whole"
cmp -s "$entry" "$TRASH/thread.gz"
ok $? "... and the entry replaced by the answer"

rm -f "$entry.sum"
lore nosum -L "$URL" "$COVER"
is "$(cat "$TRASH/nosum.rc"):$(reqs)" "0:3" "an entry without its check line is fetched again"
test -s "$entry.sum"
ok $? "... and stored with one"

done_testing
