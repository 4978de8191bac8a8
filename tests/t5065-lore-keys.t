#!/bin/bash
# b4's [lore] keys as fallbacks of lore-am's own archive keys:
# lore.fallback for lore-am.fallback (mirrors tried when the archive is
# down) and lore.requesttimeout for lore-am.timeout (seconds a request
# may take); lore-am's own key, when set, wins.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
plan 8

gz_thread || exit 1
tiny_start GOOD serve "$TRASH/thread.gz" application/gzip || exit 1
free_port DOWN || exit 1

lore down -C -L "http://127.0.0.1:$DOWN/list" "$COVER"
is "$(cat "$TRASH/down.rc")" 75 "the archive down, no mirror: exit 75"
git config --global lore.fallback "http://127.0.0.1:$GOOD/list"
lore fb -C -L "http://127.0.0.1:$DOWN/list" "$COVER"
is "$(cat "$TRASH/fb.rc")" 0 "lore.fallback: the mirror answers"
check "... named in the warning" grep -q "trying http://127.0.0.1:$GOOD/list/" "$TRASH/fb.err"
git config --global lore-am.fallback "http://127.0.0.1:$DOWN/other"
lore own -C -L "http://127.0.0.1:$DOWN/list" "$COVER"
is "$(cat "$TRASH/own.rc")" 75 "lore-am.fallback set: it wins over lore.fallback"
git config --global --unset lore-am.fallback
git config --global --unset lore.fallback

# five bytes a second: never a stall, never done
tiny_start DRIP drip "$TRASH/thread.gz" application/gzip 0.2 || exit 1
git config --global lore-am.stall-timeout 1
git config --global lore.requesttimeout 2
timeout 60 "$LORE_AM" -C -L "http://127.0.0.1:$DRIP/list" "$COVER" \
	</dev/null >"$TRASH/drip.out" 2>"$TRASH/drip.err"
echo $? >"$TRASH/drip.rc"
fails drip 75 "cannot fetch .*: not done after 2 s" \
	"lore.requesttimeout 2: a slow-loris server stopped after 2 s"
git config --global lore-am.timeout 3
timeout 60 "$LORE_AM" -C -L "http://127.0.0.1:$DRIP/list" "$COVER" \
	</dev/null >"$TRASH/drip3.out" 2>"$TRASH/drip3.err"
echo $? >"$TRASH/drip3.rc"
fails drip3 75 "cannot fetch .*: not done after 3 s" \
	"lore-am.timeout set: it wins over lore.requesttimeout"
git config --global --unset lore-am.timeout
git config --global lore.requesttimeout soon
lore bad -C -L "http://127.0.0.1:$GOOD/list" "$COVER"
fails bad 2 "git config lore-am.timeout \(or lore.requesttimeout\): 'soon' is not a whole number" \
	"a bad lore.requesttimeout: refused in one line, naming both keys"
git config --global --unset lore.requesttimeout
lore ok -C -L "http://127.0.0.1:$GOOD/list" "$COVER"
is "$(cat "$TRASH/ok.rc")" 0 "and without them all is as before"
