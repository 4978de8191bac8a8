#!/bin/bash
# The archive source when things go wrong: mirrors tried when a server is
# down or answers 5xx (never on 4xx), a truncated gzip, an HTML page, a
# server that stalls, a gzip bomb, hostile Message-IDs in the request,
# bad settings; the transport rules (no redirect to file://, a redirect
# loop ends, proxies from the environment, HTTPS verified); an mboxrd cut
# while it streams in; and the progress line, shown only on a terminal.
# Each failure must exit with its documented status, say so in one line,
# and write nothing to stdout or the cache.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 51

ID1='20240115-1-alice@example.com'
hello_series list@example.org "$ID1" 20240115-2-alice@example.com \
	review-1@reviewer.example.net >"$TRASH/list.mbox"

pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
pi_add_inbox list 2 "$TRASH/list.mbox" || exit 1
pi_start || exit 1
MIRROR=$PI_URL/list
curl -q -s --noproxy '*' -o "$TRASH/thread.gz" "$MIRROR/$ID1/t.mbox.gz"

lore good -C -L "$MIRROR" "$ID1"
is "$(cat "$TRASH/good.rc")" 0 "the real server answers"

# ---------------------------------------------------------------- mirrors
free_port DOWN || exit 1
DOWN_URL=http://127.0.0.1:$DOWN/list
tiny_start FIVE serve - text/plain 503 || exit 1
FIVE_LOG=$TRASH/tiny$TINY_N.log
tiny_start GONE serve - text/plain 404 || exit 1
GONE_LOG=$TRASH/tiny$TINY_N.log

lore down -C -L "$DOWN_URL" "$ID1"
fails down 75 "cannot fetch http://127.0.0.1:$DOWN/list/20240115-1-alice%40example.com/t.mbox.gz: .*[Cc]onnect" \
	"server down: exit 75, one line naming the URL and the reason"
lore five -C -L "http://127.0.0.1:$FIVE/list" "$ID1"
fails five 75 "cannot fetch .*: the server answered HTTP 503" "503: exit 75"

reqs=$(pi_requests)
lore fb1 -C -L "$DOWN_URL" --fallback "$MIRROR" "$ID1"
is "$(cat "$TRASH/fb1.rc")" 0 "first server down: the mirror answers"
same_file "$TRASH/fb1.out" "$TRASH/good.out" "same series from the mirror"
check "a warning names the failure and the mirror" \
	grep -q "warning: cannot fetch http://127.0.0.1:$DOWN/.*; trying $MIRROR/" \
	"$TRASH/fb1.err"
lore fb2 -C -L "http://127.0.0.1:$FIVE/list" --fallback "$MIRROR" "$ID1"
is "$(cat "$TRASH/fb2.rc") $(wc -l <"$FIVE_LOG")" "0 2" \
	"first server answers 503: the mirror answers"
lore fb3 -C -L "http://127.0.0.1:$GONE/list" --fallback "$MIRROR" "$ID1"
fails fb3 1 "message <$ID1> is not in the archive at http://127.0.0.1:$GONE/list/" \
	"first server answers 404: exit 1"
is "$(($(pi_requests) - reqs))" 2 "and the mirror is never asked (4xx)"
is "$(cut -f1 "$GONE_LOG" | sed 's/ HTTP.*//')" \
	"GET /list/20240115-1-alice%40example.com/t.mbox.gz
HEAD /20240115-1-alice%40example.com/" \
	"the 404 server was asked where the id lives (HEAD at its root)"

git config --global lore-am.fallback "http://127.0.0.1:$DOWN/other, $MIRROR"
lore fb4 -C -L "$DOWN_URL" "$ID1"
is "$(cat "$TRASH/fb4.rc") $(grep -c '^lore-am: warning: cannot fetch' "$TRASH/fb4.err")" \
	"0 2" "lore-am.fallback: a list of mirrors, tried in order"
git config --global --unset lore-am.fallback

# -------------------------------------------------------- broken answers
head -c $(($(wc -c <"$TRASH/thread.gz") / 2)) "$TRASH/thread.gz" \
	>"$TRASH/truncated.gz"
tiny_start TRUNC serve "$TRASH/truncated.gz" application/gzip || exit 1
lore trunc -L "http://127.0.0.1:$TRUNC/list" "$ID1"
fails trunc 75 "cannot fetch .*: the gzip data ends early \(truncated answer\)" \
	"a truncated gzip: exit 75"
check "a truncated answer is not cached" no_cache_entry
lore trunc-fb -L "http://127.0.0.1:$TRUNC/list" --fallback "$MIRROR" "$ID1"
same_file "$TRASH/trunc-fb.out" "$TRASH/good.out" \
	"a truncated answer sends us to the mirror"
rm -rf "$XDG_CACHE_HOME"

cat >"$TRASH/challenge.html" <<'EOF'
<!DOCTYPE html>
<html><head><title>Checking your browser</title></head>
<body>Please enable JavaScript to prove you are human.</body></html>
EOF
tiny_start HTML serve "$TRASH/challenge.html" "text/html; charset=utf-8" ||
	exit 1
lore html -L "http://127.0.0.1:$HTML/list" "$ID1"
fails html 75 "cannot fetch .*: the server sent an HTML page, not a gzipped mbox" \
	"an HTML page with status 200: exit 75, said so"
tiny_start HTML2 serve "$TRASH/challenge.html" application/gzip || exit 1
lore html2 -L "http://127.0.0.1:$HTML2/list" "$ID1"
fails html2 75 "cannot fetch .*: the server sent an HTML page" \
	"HTML mislabelled application/gzip is recognised too"
gzip -dc "$TRASH/thread.gz" >"$TRASH/thread.mbox"
tiny_start PLAIN serve "$TRASH/thread.mbox" application/gzip || exit 1
lore plain -L "http://127.0.0.1:$PLAIN/list" "$ID1"
fails plain 75 "cannot fetch .*: the answer is not gzip data" \
	"an mbox that is not gzipped: exit 75"
printf '\037\213garbage that is no deflate stream' >"$TRASH/corrupt.gz"
tiny_start CORRUPT serve "$TRASH/corrupt.gz" application/gzip || exit 1
lore corrupt -L "http://127.0.0.1:$CORRUPT/list" "$ID1"
fails corrupt 75 "cannot fetch .*: the gzip data is corrupt" \
	"gzip magic, then garbage: exit 75"
check "no broken answer was cached" no_cache_entry

# ------------------------------------------------------------- a stall
tiny_start STALL stall || exit 1
git config --global lore-am.stall-timeout 1
lore stall -L "http://127.0.0.1:$STALL/list" "$ID1"
fails stall 75 "cannot fetch .*: no data for 1 s \(the server stalled\)" \
	"a server that accepts and says nothing: exit 75 after the stall timeout"
git config --global --unset lore-am.stall-timeout
check "it was asked once" test "$(wc -l <"$TRASH/tiny$TINY_N.log")" = 1

# ------------------------------------------------- decompressed size cap
head -c 20971520 /dev/zero | gzip -1 >"$TRASH/bomb.gz"
tiny_start BOMB serve "$TRASH/bomb.gz" application/gzip || exit 1
git config --global lore-am.max-size 1m
lore bomb -L "http://127.0.0.1:$BOMB/list" "$ID1"
fails bomb 2 "cannot fetch .*: the thread inflates to more than 1 MiB \(see lore-am.max-size\)" \
	"a gzip bomb (20 MiB of zeros) stops at lore-am.max-size, exit 2"
git config --global lore-am.max-size 500
reqs=$(pi_requests)
lore small -C -L "$MIRROR" --fallback "$MIRROR" "$ID1"
fails small 2 "cannot fetch .*: the thread inflates to more than 500 bytes" \
	"a real thread over the cap: exit 2"
is "$(($(pi_requests) - reqs))" 1 "and the mirror is not tried for it"
git config --global --unset lore-am.max-size

# -------------------------------------- what goes into the request line
: >"$GONE_LOG"
lore hostile -C -L "http://127.0.0.1:$GONE/list" '../../x?y=1#z@h/%2e'
is "$(cat "$TRASH/hostile.rc")" 1 "a hostile id: looked up, not found"
is "$(cut -f1 "$GONE_LOG")" \
	"GET /list/..%2F..%2Fx%3Fy%3D1%23z%40h%2F%252e/t.mbox.gz HTTP/1.1
HEAD /..%2F..%2Fx%3Fy%3D1%23z%40h%2F%252e/ HTTP/1.1" \
	"it stays one escaped path segment, no query, no fragment"
check "the User-Agent is lore-am/VERSION" \
	grep -q "	lore-am/$("$LORE_AM" -V | cut -d' ' -f2)\$" "$GONE_LOG"
printf 'From: a@b\nSubject: x\nMessage-ID: <..>\n\nbody\n' >"$TRASH/dots.eml"
"$LORE_AM" -C -L "http://127.0.0.1:$GONE/list" <"$TRASH/dots.eml" \
	>"$TRASH/dots.out" 2>"$TRASH/dots.err"
echo $? >"$TRASH/dots.rc"
fails dots 2 "<..> cannot be looked up in an archive" \
	"an id of dots alone is refused, not sent"
is "$(wc -l <"$GONE_LOG")" 2 "and no request was made for it"

# ------------------------------------------------------- bad settings
lore badmask -L "ftp://example.org/%s" "$ID1"
fails badmask 2 "archive URL 'ftp://example.org/%s' must start with http:// or https://" \
	"-L with another scheme: exit 2"
lore badmask2 -L "https://example.org/?q=%s" "$ID1"
fails badmask2 2 "archive URL .* may not have a query" "-L with a query: exit 2"
lore badfb -L "$MIRROR" --fallback "file:///etc/%s" "$ID1"
fails badfb 2 "archive URL 'file:///etc/%s' must start" "--fallback checked too"
git config --global b4.midmask "gopher://example.org/%s"
lore badcfg "$ID1"
fails badcfg 2 "archive URL 'gopher://example.org/%s'" \
	"b4.midmask is read, and checked"
git config --global --unset b4.midmask
for kv in stall-timeout=abc connect-timeout=0 max-size=12q cache-expire=-1; do
	git config --global "lore-am.${kv%%=*}" "${kv#*=}"
	lore badnum -L "$MIRROR" "$ID1"
	fails badnum 2 "git config lore-am.${kv%%=*}.*: '${kv#*=}' is not" \
		"lore-am.${kv%%=*}=${kv#*=} refused, exit 2"
	git config --global --unset "lore-am.${kv%%=*}"
done
git config --global b4.cache-expire soon
lore badb4 -L "$MIRROR" "$ID1"
fails badb4 2 "git config lore-am.cache-expire \(or b4.cache-expire\): 'soon'" \
	"b4.cache-expire is the fallback, named in the error"
git config --global --unset b4.cache-expire

# ------------------------------------- an mboxrd cut while it streams in
# CRLF line ends, quoted From_ lines, messages cut across the 20 slices
{
	printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\r\n'
	sed 's/$/\r/' <<EOF
From: Alice Developer <alice@example.com>
Subject: [PATCH] hello: add greeting
Date: Mon, 15 Jan 2024 10:00:00 +0000
Message-ID: <crlf-1@example.com>

Add a greeting.
>From the start, and
>>From a quote.

Signed-off-by: Alice Developer <alice@example.com>
---
diff --git a/hello.txt b/hello.txt
new file mode 100644
index 0000000..ce01362
--- /dev/null
+++ b/hello.txt
@@ -0,0 +1 @@
+hello
EOF
	printf '\n'
	for n in 2 3 4 5 6; do
		printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\n'
		cat <<EOF
From: Reviewer $n <r$n@reviewer.example.net>
Subject: Re: [PATCH] hello: add greeting
Date: Tue, 16 Jan 2024 09:00:0$n +0000
Message-ID: <crlf-$n@reviewer.example.net>
In-Reply-To: <crlf-1@example.com>

>From me: fine.
Acked-by: Reviewer $n <r$n@reviewer.example.net>

EOF
	done
} >"$TRASH/crlf.mbox"
gzip -c "$TRASH/crlf.mbox" >"$TRASH/crlf.gz"
tiny_start SLICED serve "$TRASH/crlf.gz" application/gzip 200 0.2 || exit 1
lore sliced -C --mboxrd -L "http://127.0.0.1:$SLICED/list" crlf-1@example.com
lore slicedm --mboxrd -m "$TRASH/crlf.mbox" crlf-1@example.com
is "$(cat "$TRASH/sliced.rc") $(grep -c '^Acked-by: ' "$TRASH/sliced.out")" \
	"0 5" "an mboxrd in slices: every message arrives"
same_file "$TRASH/sliced.out" "$TRASH/slicedm.out" \
	"the same as the whole file read with -m"
check "quoted From_ lines come back quoted the same way (--mboxrd)" eval \
	'grep -qx ">From the start, and" "$TRASH/sliced.out" &&
	 grep -qx ">>From a quote." "$TRASH/sliced.out"'

# ------------------------------------------------------ transport rules
tiny_start RFILE redirect "file:///etc/passwd" || exit 1
lore rfile -C -L "http://127.0.0.1:$RFILE/list" "$ID1"
fails rfile 75 "cannot fetch .*: .*[Pp]rotocol" \
	"a redirect to file:// is not followed"
tiny_start RLOOP redirect "/loop" || exit 1
RLOOP_LOG=$TRASH/tiny$TINY_N.log
lore rloop -C -L "http://127.0.0.1:$RLOOP/list" "$ID1"
fails rloop 75 "cannot fetch .*: .*[Rr]edirects" "a redirect loop ends"
is "$(wc -l <"$RLOOP_LOG")" 6 "after the first request and 5 redirects"

tiny_start PROXY serve - text/plain 404 || exit 1
PROXY_LOG=$TRASH/tiny$TINY_N.log
env -u no_proxy -u NO_PROXY http_proxy="http://127.0.0.1:$PROXY" \
	"$LORE_AM" -C -L "http://127.0.0.1:$GONE/list" "$ID1" \
	</dev/null >"$TRASH/proxy.out" 2>"$TRASH/proxy.err"
is "$(head -1 "$PROXY_LOG" | cut -f1)" \
	"GET http://127.0.0.1:$GONE/list/20240115-1-alice%40example.com/t.mbox.gz HTTP/1.1" \
	"http_proxy from the environment is used"

if command -v openssl >/dev/null; then
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
		-days 2 -keyout "$TRASH/key.pem" -out "$TRASH/cert.pem" \
		>/dev/null 2>&1
	free_port TLS
	openssl s_server -quiet -www -accept "127.0.0.1:$TLS" \
		-cert "$TRASH/cert.pem" -key "$TRASH/key.pem" \
		</dev/null >/dev/null 2>&1 &
	tls_pid=$!
	at_exit "kill $tls_pid 2>/dev/null; wait $tls_pid 2>/dev/null"
	for i in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$TLS") 2>/dev/null && break
		sleep 0.1
	done
	lore tls -C -L "https://127.0.0.1:$TLS/list" "$ID1"
	fails tls 75 "cannot fetch https://127.0.0.1:$TLS/.*certificate" \
		"HTTPS is verified: a self-signed certificate is refused"
else
	skip "openssl not installed"
fi

# ---------------------------------------------------------- progress line
tiny_start SLOW serve "$TRASH/thread.gz" application/gzip 200 2 || exit 1
lore quiet -C -L "http://127.0.0.1:$SLOW/list" "$ID1"
check "no progress line when stderr is not a terminal" \
	eval '! grep -q "fetching" "$TRASH/quiet.err"'
same_file "$TRASH/quiet.out" "$TRASH/good.out" "a slow answer is whole"
if command -v script >/dev/null; then
	script -q -e -c "'$LORE_AM' -C -L 'http://127.0.0.1:$SLOW/list' '$ID1' >'$TRASH/tty.out'" \
		/dev/null >"$TRASH/tty.log" 2>&1 </dev/null
	check "on a terminal a slow download shows a progress line" \
		grep -q 'lore-am: fetching the thread: [0-9.]* \(bytes\|KiB\), [0-9]* messages' \
		"$TRASH/tty.log"
	check "which is erased when done" grep -q $'\r\033\\[K' "$TRASH/tty.log"
	same_file "$TRASH/tty.out" "$TRASH/good.out" "same output on a terminal"
else
	skip "script(1) not installed"
	skip "script(1) not installed"
	skip "script(1) not installed"
fi
done_testing
