#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2317
# t9000-pi-harness.t - check the public-inbox test harness (lib-pi.sh) and
# the public-inbox HTTP behaviour lore-am relies on.  TAP output for prove.

. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"

WORK=$TRASH/work
mkdir "$WORK" || exit 1
at_exit pi_stop
trap 'exit 130' INT
trap 'exit 143' TERM

echo "1..26"

# ok and is here take a command and a pair to compare, not lib.sh's
# status and description: they replace lib.sh's for this file, but count
# in lib.sh's counters, so that a failure makes the file's exit status
ok() { # ok DESCRIPTION COMMAND...
	local desc="$1"
	shift
	_test_n=$((_test_n + 1))
	if "$@"; then
		echo "ok $_test_n - $desc"
	else
		echo "not ok $_test_n - $desc"
		_test_failed=$((_test_failed + 1))
	fi
}
diag() { printf '# %s\n' "$@"; }

# curl wrapper: never use ~/.curlrc or a proxy, bounded time
CURL() { curl -q -s --noproxy '*' -m 10 "$@"; }

# fetch URL into $WORK/body, headers into $WORK/hdr; prints status code
fetch() {
	rm -f "$WORK/body" "$WORK/hdr"
	CURL -o "$WORK/body" -D "$WORK/hdr" -w '%{http_code}' "$@"
}

# header value (case-insensitive name, CR stripped) from $WORK/hdr
hdr() {
	tr -d '\r' <"$WORK/hdr" | grep -i "^$1:" | tail -n 1 |
		sed 's/^[^:]*: *//'
}

is() { # is GOT WANT
	[ "$1" = "$2" ] && return 0
	diag "got:  '$1'" "want: '$2'"
	return 1
}

is_gzip() { # body starts with the gzip magic and decompresses
	[ "$(head -c 2 "$WORK/body" | od -An -tx1 | tr -d ' \n')" = 1f8b ] &&
		gzip -t <"$WORK/body" 2>/dev/null
}

# the gunzipped mbox contains exactly the given Message-IDs
mbox_has_mids() {
	local mid n=0 want=$#
	gzip -dc <"$WORK/body" >"$WORK/mbox" || return 1
	for mid in "$@"; do
		if ! grep -qiF "Message-ID: <$mid>" "$WORK/mbox"; then
			diag "missing Message-ID <$mid>"
			return 1
		fi
	done
	n=$(grep -c '^From mboxrd@z ' "$WORK/mbox")
	is "$n" "$want"
}

# ---------------------------------------------------------------- test data
# V2 inbox: [PATCH 1/2], [PATCH 2/2] replying to it, Re: with Reviewed-by
# (hello_series, lib.sh).
# Message-ID of the first patch contains "/" and "+".
MID1='20240101100000.4711-1-alice/dev+lore@example.com'
MID2='20240101100000.4711-2-alice@example.com'
MID3='87r0abc.fsf@reviewer.example.net'
# V1 inbox: a lone patch (Message-ID with "%") and a reply
MID4='v1-patch%40weird@example.com'
MID5='v1-reply@example.net'
UNKNOWN='no-such-message@example.com'

hello_series test-v2@example.org "$MID1" "$MID2" "$MID3" >"$WORK/v2.mbox"

cat >"$WORK/v1.mbox" <<EOF
From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001
From: Bob Hacker <bob@example.com>
To: test-v1@example.org
Subject: [PATCH] world: add world
Date: Wed, 3 Jan 2024 12:00:00 +0000
Message-ID: <$MID4>

Signed-off-by: Bob Hacker <bob@example.com>
---
diff --git a/world.txt b/world.txt
new file mode 100644
index 0000000..cc628cc
--- /dev/null
+++ b/world.txt
@@ -0,0 +1 @@
+world
-- 
2.39.5

From carol@example.net Thu Jan  4 08:00:00 2024
From: Carol <carol@example.net>
To: test-v1@example.org
Subject: Re: [PATCH] world: add world
Date: Thu, 4 Jan 2024 08:00:00 +0000
Message-ID: <$MID5>
In-Reply-To: <$MID4>
References: <$MID4>

Acked-by: Carol <carol@example.net>
EOF

# ------------------------------------------------------------------- setup
ok "pi_init" pi_init "$WORK/pi"
ok "V2 inbox created from 3-message mbox" pi_add_inbox test-v2 2 "$WORK/v2.mbox"
ok "V1 inbox created from 2-message mbox" pi_add_inbox test-v1 1 "$WORK/v1.mbox"
ok "/all/ extindex built" pi_add_all
ok "server started" pi_start
diag "PI_URL=$PI_URL PI_PID=$PI_PID"
ok "PI_PID is the public-inbox-httpd process itself" eval '
	case "$(ps -o args= -p "$PI_PID" 2>/dev/null)" in
	*public-inbox-httpd*) true ;;
	*) diag "pid $PI_PID: $(ps -o args= -p "$PI_PID")"; false ;;
	esac'

E1=$(pi_mid_escape "$MID1")
E4=$(pi_mid_escape "$MID4")
ok "pi_mid_escape turns / into %2F, keeps +" \
	is "$E1" '20240101100000.4711-1-alice%2Fdev+lore@example.com'
ok "pi_mid_escape turns % into %25" is "$E4" 'v1-patch%2540weird@example.com'

REQ0=$(pi_requests)
ok "no requests counted right after start" is "$REQ0" 0

# ---------------------------------------------------- per-inbox t.mbox.gz
code=$(fetch "$PI_URL/test-v2/$MID2/t.mbox.gz")
ok "V2 inbox t.mbox.gz: 200" is "$code" 200
ok "t.mbox.gz Content-Type is application/gzip" \
	is "$(hdr Content-Type)" application/gzip
ok "V2 inbox t.mbox.gz is gzip with the whole thread" \
	eval 'is_gzip && mbox_has_mids "$MID1" "$MID2" "$MID3"'
ok "message bytes preserved (diff lines, Reviewed-by)" eval '
	grep -qxF -e "+++ b/hello.txt" "$WORK/mbox" &&
	grep -qxF -e "-- " "$WORK/mbox" &&
	grep -qxF "Reviewed-by: Rita Reviewer <rita@reviewer.example.net>" \
		"$WORK/mbox"'

code=$(fetch "$PI_URL/test-v1/$E4/t.mbox.gz")
ok "V1 inbox t.mbox.gz by %-containing id (escaped %25): whole thread" \
	eval 'is "$code" 200 && is_gzip && mbox_has_mids "$MID4" "$MID5"'

code=$(fetch "$PI_URL/test-v2/$E1/t.mbox.gz")
ok "Message-ID with / escaped as %2F (and raw +) works" \
	eval 'is "$code" 200 && is_gzip && mbox_has_mids "$MID1" "$MID2" "$MID3"'

# ---------------------------------------------------------------- /all/
code=$(fetch "$PI_URL/all/$MID3/t.mbox.gz")
ok "/all/ t.mbox.gz (V2 thread): 200 gzip, whole thread" eval '
	is "$code" 200 && is "$(hdr Content-Type)" application/gzip &&
	is_gzip && mbox_has_mids "$MID1" "$MID2" "$MID3"'

code=$(fetch "$PI_URL/all/$MID5/t.mbox.gz")
ok "/all/ t.mbox.gz (V1 thread): 200 gzip, whole thread" \
	eval 'is "$code" 200 && is_gzip && mbox_has_mids "$MID4" "$MID5"'

code=$(fetch "$PI_URL/all/$E1/t.mbox.gz")
ok "/all/ with %2F-escaped id" \
	eval 'is "$code" 200 && is_gzip && mbox_has_mids "$MID1" "$MID2" "$MID3"'

# ---------------------------------------------------------------- 404s
code=$(fetch "$PI_URL/test-v2/$UNKNOWN/t.mbox.gz")
ok "unknown id in inbox: 404" is "$code" 404
code=$(fetch "$PI_URL/all/$UNKNOWN/t.mbox.gz")
ok "unknown id in /all/: 404" is "$code" 404

# ------------------------------------------- root /MSGID/ (HEAD) redirect
code=$(fetch -I "$PI_URL/$E1/")
ok "HEAD /MSGID/ at root: 302 to \$PI_URL/all/MSGID/ (extindex present)" \
	eval 'is "$code" 302 && is "$(hdr Location)" "$PI_URL/all/$E1/"'
code=$(fetch -I "$PI_URL/$UNKNOWN/")
ok "HEAD /MSGID/ at root, unknown id: 404" is "$code" 404

# ------------------------------------------------------- request counting
# requests made since REQ0: 2 (v2, v1) + 1 (%2F) + 3 (/all/) + 2 (404s)
# + 2 (HEAD) = 10
ok "pi_requests counted exactly the 10 requests made" \
	is "$(pi_requests)" "$((REQ0 + 10))"
fetch "$PI_URL/test-v2/$MID2/t.mbox.gz" >/dev/null
ok "pi_requests increases by one per request" \
	is "$(pi_requests)" "$((REQ0 + 11))"

# ------------------------------------------ inbox added while running
MID6='late-message@example.com'
printf '%s\n' "From: Late <late@example.com>" "Subject: [PATCH] late" \
	"Date: Fri, 5 Jan 2024 00:00:00 +0000" "Message-ID: <$MID6>" "" \
	"late" >"$WORK/late.eml"
late_ok() {
	local i
	pi_add_inbox test-late 1 "$WORK/late.eml" && pi_reload || return 1
	for i in $(seq 1 50); do
		[ "$(fetch "$PI_URL/test-late/$MID6/t.mbox.gz")" = 200 ] &&
			mbox_has_mids "$MID6" && return 0
		sleep 0.1
	done
	return 1
}
ok "inbox added after pi_start is served after pi_reload" late_ok

# ------------------------------------------------------------------ stop
PID=$PI_PID
URL=$PI_URL
pi_stop
ok "pi_stop killed the server; port no longer answers" eval '
	! kill -0 "$PID" 2>/dev/null &&
	is "$(CURL -o /dev/null -w "%{http_code}" "$URL/")" 000'

if [ "$_test_failed" -ne 0 ]; then
	diag "httpd stderr:"
	sed 's/^/#   /' "$WORK/pi/httpd.err" 2>/dev/null
	diag "access log:"
	sed 's/^/#   /' "$WORK/pi/access.log" 2>/dev/null
fi
done_testing
