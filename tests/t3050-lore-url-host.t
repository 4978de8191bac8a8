#!/bin/bash
# An archive URL given as the argument is fetched from its own host and
# list, as b4 does (since 0.10): https://HOST/LIST/ID/ (with /T/#u,
# /t.mbox.gz and the like after it), while a bare Message-ID still goes
# to the configured archive. A real public-inbox-httpd serves the list,
# the configured archive is a port nothing listens on; -L still wins;
# the URL's host is checked (http/https, a sane host, no credentials,
# which are never echoed). The same URL through the real b4 gives the
# same commits.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 23

ID1='20240115100000.1-alice@example.com'
ID2='20240115100000.2-alice@example.com'
ID3='review.1@reviewer.example.net'
hello_series list-b@example.org "$ID1" "$ID2" "$ID3" >"$TRASH/list-b.mbox"

pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
pi_add_inbox list-b 1 "$TRASH/list-b.mbox" || exit 1
pi_start || exit 1
free_port dead || exit 1
git config --global lore-am.midmask "http://127.0.0.1:$dead/all/%s"

# how lore-am escapes an id in a path (url_escape_id)
esc() { printf '%s' "${1//@/%40}"; }
served() { grep -c "\"GET /list-b/$(esc "$1")/t.mbox.gz HTTP/1.1\" 200" "$PI_ACCESS_LOG"; }
applies() {
	rm -rf "$TRASH/hello" && make_repo "$TRASH/hello" &&
	(cd "$TRASH/hello" && git am -q "$TRASH/$1.out") &&
	git -C "$TRASH/hello" log -1 --skip=1 --format=%B |
	grep -qx "Reviewed-by: Rita Reviewer <rita@reviewer.example.net>"
}

# ------------------------------------------- the URL's host and list
lore url -C "$PI_URL/list-b/$ID1/"
is "$(cat "$TRASH/url.rc")" 0 "https://HOST/LIST/ID/: exit 0"
is "$(served "$ID1")" 1 "the thread came from the URL's host and list"
check "git am of it gives the series with its trailer" applies url
check "the configured archive was not named" \
	eval '! grep -q ":$dead" "$TRASH/url.err"'

for tail in T/#u t.mbox.gz raw "#r"; do
	lore tail -C "$PI_URL/list-b/$ID2/$tail"
	if [ "$(cat "$TRASH/tail.rc")" = 0 ] &&
	   cmp -s "$TRASH/tail.out" "$TRASH/url.out"; then ok 0 ".../ID/$tail: the same series"
	else ok 1 ".../ID/$tail: the same series"; sed 's/^/# /' "$TRASH/tail.err"; fi
done

# /r/ID and /all/ID: the URL's server, which redirects to the list
lore r -C "$PI_URL/r/$ID1"
is "$(cat "$TRASH/r.rc")" 0 "https://HOST/r/ID: exit 0"
same_file "$TRASH/r.out" "$TRASH/url.out" "/r/ID: the same series, from the URL's server"
check "/r/ID: asked the URL's server" grep -q "\"HEAD /$(esc "$ID1")/ HTTP" "$PI_ACCESS_LOG"

# ------------------------------------------- what stays as it was
lore bare -C "$ID1"
is "$(cat "$TRASH/bare.rc")" 75 "a bare Message-ID goes to the configured archive (down: exit 75)"
check "and says so, naming it" grep -q "127.0.0.1:$dead" "$TRASH/bare.err"
lore flagL -C -L "http://127.0.0.1:$dead/list-b" "$PI_URL/list-b/$ID1/"
is "$(cat "$TRASH/flagL.rc")" 75 "-L names the archive: it wins over the URL's host"
# the configured archive on the URL's host and port: b4 keeps the
# configured mask then (lore's /all/ sees every list)
git config --global lore-am.midmask "$PI_URL/list-a/%s"
lore same -C "$PI_URL/list-b/$ID1/"
same_file "$TRASH/same.out" "$TRASH/url.out" "same host as configured: the series still found"
check "same host: the configured list was asked first" \
	grep -q "\"GET /list-a/$(esc "$ID1")/t.mbox.gz HTTP" "$PI_ACCESS_LOG"
git config --global lore-am.midmask "http://127.0.0.1:$dead/all/%s"

# ------------------------------------------- hostile URLs
lore cred -C "http://alice:s3cret@127.0.0.1:$PI_PORT/list-b/$ID1/"
fails cred 2 "archive URL 'http://127.0.0.1:$PI_PORT/list-b/.*': names a user or password" \
	"a URL with credentials: refused, exit 2"
check "the password is never shown" eval '! grep -q s3cret "$TRASH/cred.err"'
long=$(printf 'a%.0s' $(seq 300))
lore long -C "http://$long.example/list-b/$ID1/"
fails long 2 "archive URL 'http://a{20}.*': its host is longer than 255 bytes" \
	"a host over 255 bytes: refused, exit 2"
lore odd -C "http://exa_mple\$x.org/list-b/$ID1/"
fails odd 2 "archive URL .*: its host is not a host name" "a host with odd bytes: refused"

# ------------------------------------------- the real b4, same URL
if command -v b4 >/dev/null; then
	git config --global b4.midmask "http://127.0.0.1:$dead/all/%s"
	(cd "$TRASH" && b4 -q -n am -C -o - "$PI_URL/list-b/$ID1/" \
		>"$TRASH/b4.out" 2>"$TRASH/b4.err")
	is "$?" 0 "b4 am URL: exit 0"
	check "b4 applies the same series" applies b4
	# the same commits: same patch ids, messages and trailers
	b4log=$(git -C "$TRASH/hello" log --format='%s%n%b' base..)
	applies url
	is "$(git -C "$TRASH/hello" log --format='%s%n%b' base..)" "$b4log" \
		"lore-am and b4 give the same commits from the URL"
else
	skip "b4 is not installed"; skip "b4 is not installed"
	skip "b4 is not installed"
fi
