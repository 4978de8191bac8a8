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

PI_MBOXRD=1 pi_serve list "$TRASH/t.mbox" || exit 1
LD_DEBUG=files "$LORE_AM" -q -C "$cover" </dev/null \
	>"$TRASH/net.mbx" 2>"$TRASH/ld.net"
is "$?" 0 "the series from the archive"
check "fetching loads libcurl" maps_curl "$TRASH/ld.net"
same_file "$TRASH/net.mbx" "$TRASH/local.mbx" "the same series either way"

# a libcurl that cannot be loaded: one clear line and status 75 for a
# fetch; the mbox runs do not notice
loaded_on_demand libcurl.so.4 75 "a fetch" \
	"cannot fetch .*: cannot load libcurl\.so\.4: " \
	"$TRASH/t.mbox" "$TRASH/local.mbx" "$cover" -C

done_testing
