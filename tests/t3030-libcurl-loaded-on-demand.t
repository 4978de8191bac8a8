#!/bin/bash
# t3030-libcurl-loaded-on-demand.t - libcurl (and the TLS, HTTP/2, IDN,
# LDAP, ... libraries it brings) is loaded only when the archive is asked:
# a run that reads an mbox never maps it, a fetch from a real
# public-inbox-httpd does and gives the same series.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
command -v ldd >/dev/null || skip_all "ldd not installed"
plan 10

# the dynamic loader lists every object it maps with LD_DEBUG=files
maps_curl() { grep -q 'file=libcurl[^ ]*\.so' "$1"; }

ldd "$LORE_AM" >"$TRASH/ldd" 2>&1
check "the binary does not need libcurl at start-up" \
	test -s "$TRASH/ldd" -a -z "$(grep curl "$TRASH/ldd")"

cover=$("$SRC_DIR/bench/gen-thread.sh" --preset small -o "$TRASH/t.mbox") ||
	exit 1
LD_DEBUG=files "$LORE_AM" -q -m "$TRASH/t.mbox" "$cover" </dev/null \
	>"$TRASH/local.mbx" 2>"$TRASH/ld.local"
is "$?" 0 "the series from an mbox"
check "reading an mbox never loads libcurl" eval '! maps_curl "$TRASH/ld.local"'

pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
PI_MBOXRD=1 pi_add_inbox list 2 "$TRASH/t.mbox" || exit 1
pi_start || exit 1
git config --global lore-am.midmask "$PI_URL/list/%s"
LD_DEBUG=files "$LORE_AM" -q -C "$cover" </dev/null \
	>"$TRASH/net.mbx" 2>"$TRASH/ld.net"
is "$?" 0 "the series from the archive"
check "fetching loads libcurl" maps_curl "$TRASH/ld.net"
same_file "$TRASH/net.mbx" "$TRASH/local.mbx" "the same series either way"

# a libcurl that cannot be loaded: one clear line and status 75 for a
# fetch; the mbox runs do not notice
without_lib libcurl.so.4 "$LORE_AM" -q -C "$cover" </dev/null \
	>"$TRASH/none.mbx" 2>"$TRASH/none.err"
rc=$?
if [ "$rc" = 125 ]; then
	skip "no private mount namespace here to hide libcurl"
	skip "no private mount namespace here to hide libcurl"
	skip "no private mount namespace here to hide libcurl"
	skip "no private mount namespace here to hide libcurl"
else
	is "$rc" 75 "a fetch without a loadable libcurl: status 75"
	check "... one line that says the library cannot be loaded" eval \
		'[ "$(wc -l <"$TRASH/none.err")" = 1 ] &&
		grep -q "^lore-am: cannot fetch .*: cannot load libcurl\.so\.4: " "$TRASH/none.err"'
	without_lib libcurl.so.4 "$LORE_AM" -q -m "$TRASH/t.mbox" "$cover" \
		</dev/null >"$TRASH/none-m.mbx" 2>"$TRASH/none-m.err"
	is "$?:$(cat "$TRASH/none-m.err")" 0: \
		"... and an mbox run still works, silently with -q"
	same_file "$TRASH/none-m.mbx" "$TRASH/local.mbx" "... and writes the same series"
fi

done_testing
