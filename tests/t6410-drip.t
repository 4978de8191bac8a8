#!/bin/bash
# Slow servers: a drip slower than one byte a second is stopped after
# lore-am.stall-timeout with words that say so (bytes still came; it is not
# silence), and all of a run's requests together, mirrors included, end at
# lore-am.fetch-timeout. The drip servers end by themselves (a lifetime).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"

command -v gzip >/dev/null || skip_all "gzip not installed"
plan 9

gz_thread || exit 1

# elapsed NAME ARGS...: lore NAME ARGS..., whole seconds in $TRASH/NAME.secs
elapsed() {
	local t0=$SECONDS
	lore "$@"
	echo $((SECONDS - t0)) >"$TRASH/$1.secs"
}

# one byte every 2 s: under the floor of 1 byte/s, yet never silent for
# 3 s; lore-am.timeout 0 leaves the stall check alone to stop it
tiny_start SLOW drip "$TRASH/thread.gz" application/gzip 2 60 || exit 1
git config --global lore-am.stall-timeout 3
git config --global lore-am.timeout 0
elapsed drip -C -L "http://127.0.0.1:$SLOW/list" "$COVER"
fails drip 75 "cannot fetch .*: slower than 1 byte/s for 3 s \([0-9]+ bytes in [0-9]+ s; the server is dripping; see lore-am.stall-timeout\)" \
	"a drip under 1 byte/s: exit 75, and the words say it is a drip"
test "$(cat "$TRASH/drip.secs")" -lt 20
ok $? "... stopped after the stall time, not at the end of the drip ($(cat "$TRASH/drip.secs") s)"

# silence is still called silence
tiny_start MUTE stall || exit 1
lore mute -C -L "http://127.0.0.1:$MUTE/list" "$COVER"
fails mute 75 "cannot fetch .*: no data for 3 s \(the server stalled\)" \
	"a server that says nothing: 'no data'"
git config --global --unset lore-am.stall-timeout

# two servers dribbling 5 bytes a second (never a stall), the second as
# a mirror, no per-request limit: lore-am.fetch-timeout bounds them both.
# The deadline counts from the start of the run, so under valgrind, whose
# start alone takes seconds, it is longer; and 6 s, not 3, without it: on
# a loaded machine a start of a second left the per-request limit below
# (2/3 of it) no room to come first.
if [ -z "$LORE_AM_TOOL" ]; then ft=6; else ft=20; fi
tiny_start D1 drip "$TRASH/thread.gz" application/gzip 0.2 300 || exit 1
tiny_start D2 drip "$TRASH/thread.gz" application/gzip 0.2 300 || exit 1
git config --global lore-am.fetch-timeout $ft
elapsed total -C -L "http://127.0.0.1:$D1/list" \
	--fallback "http://127.0.0.1:$D2/list" "$COVER"
fails total 75 "cannot fetch .*: the archive's answers took more than $ft s in all \(see lore-am.fetch-timeout\)" \
	"two dripping servers: exit 75 at lore-am.fetch-timeout"
test "$(cat "$TRASH/total.secs")" -lt $((ft + 12))
ok $? "... after about $ft s ($(cat "$TRASH/total.secs") s), not at the drip's end"
is "$(wc -l <"$TRASH/tiny3.log"):$(cat "$TRASH/tiny4.log" 2>/dev/null | wc -l)" "1:0" \
	"... the mirror is not asked once the time is up"

# the per-request limit comes first when it is lower: 2/3 of ft for the
# archive, what is left for the mirror
git config --global lore-am.timeout $((ft * 2 / 3))
elapsed first -C -L "http://127.0.0.1:$D1/list" \
	--fallback "http://127.0.0.1:$D2/list" "$COVER"
grep -q "warning: cannot fetch .*: not done after $((ft * 2 / 3)) s .*; trying http://127.0.0.1:$D2/list" "$TRASH/first.err" &&
	grep -q "took more than $ft s in all" "$TRASH/first.err" &&
	[ "$(cat "$TRASH/first.secs")" -lt $((ft + 12)) ]
ok $? "lore-am.timeout $((ft * 2 / 3)): the archive gives up first, the mirror has what is left"
git config --global --unset lore-am.timeout

git config --global lore-am.fetch-timeout soon
lore badtotal -C -L "http://127.0.0.1:$D1/list" "$COVER"
fails badtotal 2 "git config lore-am.fetch-timeout: 'soon' is not a whole number" \
	"lore-am.fetch-timeout=soon: refused, exit 2"
git config --global lore-am.fetch-timeout 0
git config --global lore-am.timeout 2
lore notime -C -L "http://127.0.0.1:$D1/list" "$COVER"
fails notime 75 "cannot fetch .*: not done after 2 s" \
	"lore-am.fetch-timeout=0: no overall bound, the per-request one stays"

done_testing
