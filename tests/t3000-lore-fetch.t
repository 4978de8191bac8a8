#!/bin/bash
# The archive source against a real public-inbox-httpd: a v1+v2 series
# fetched by any member's id and applied with git am, the 404 -> root
# lookup -> other inbox path, Message-IDs with '/', '+' and '%', messages
# that only share a subject left out, and the cache (--offline, -C,
# expiry, a damaged entry replaced).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 50

# ------------------------------------------------------------ test data
# list-a (v2 inbox): a generated 3-patch series, v1 and v2 in one thread,
# plus a mail that only shares the v2 cover letter's subject
cover=$("$SRC_DIR/bench/gen-thread.sh" -p 3 -r 2 -R 8 -k "$TRASH/gen" \
	-o "$TRASH/thread.mbox") || exit 1
nthread=$(grep -c '^From ' "$TRASH/thread.mbox")
subject=$(grep -m1 '^Subject: \[PATCH v2 0/3\]' "$TRASH/thread.mbox")
cp "$TRASH/thread.mbox" "$TRASH/list-a.mbox"
cat >>"$TRASH/list-a.mbox" <<EOF

From stray@example.net Sun Jan 14 10:00:00 2024
From: Stray Sender <stray@example.net>
To: list@example.org
${subject/Subject: /Subject: Re: }
Date: Sun, 14 Jan 2024 10:00:00 +0000
Message-ID: <stray-same-subject@example.net>

Same subject, no In-Reply-To or References.
EOF

# list-b (v1 inbox): a 2-patch series whose ids hold '/', '+' and '%'
ID1='2024/01/15-1-alice+lists@example.com'
ID2='100%-2-alice@example.com'
ID3='rev+iew/1%41@reviewer.example.net'
hello_series list-b@example.org "$ID1" "$ID2" "$ID3" >"$TRASH/list-b.mbox"

pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
PI_MBOXRD=1 pi_add_inbox list-a 2 "$TRASH/list-a.mbox" || exit 1
pi_add_inbox list-b 1 "$TRASH/list-b.mbox" || exit 1
pi_start || exit 1
git config --global lore-am.midmask "$PI_URL/list-a/%s"

# applies OUT on a fresh branch of the generated repo; tree must be REF's
applies_as() { am_gives "$TRASH/gen" "$@"; }

# ------------------------------------------- a v1+v2 series, any member
reqs=$(pi_requests)
lore v2 "$cover"
is "$(cat "$TRASH/v2.rc")" 0 "fetch by the v2 cover letter's id"
is "$(($(pi_requests) - reqs))" 1 "one request: GET t.mbox.gz"
check "the request was GET <mask>/<id>/t.mbox.gz" \
	grep -qF "\"GET /list-a/$(pi_mid_escape "$cover" | sed 's/@/%40/')/t.mbox.gz HTTP" \
	"$PI_ACCESS_LOG"
check "git am of the output gives v2's tree" applies_as v2 v2
check "trailers from the review replies were added" \
	grep -q '^\(Reviewed\|Acked\|Tested\)-by: ' "$TRASH/v2.out"
check "the summary says v2 was used" grep -q 'latest revision: v2' \
	"$TRASH/v2.err"
check "the thread as served holds the same-subject stray" eval \
	'curl -q -s --noproxy "*" "$PI_URL/list-a/$cover/t.mbox.gz" | gzip -dc |
	 grep -q "^Message-ID: <stray-same-subject@example.net>"'
check "the stray is not part of the analysed thread" \
	grep -qx "Analyzing $nthread messages in the thread" "$TRASH/v2.err"

lore local -m "$TRASH/thread.mbox" "$cover"
same_file "$TRASH/v2.out" "$TRASH/local.out" \
	"same mbox as from the local copy of the thread (-m)"

n=0
for id in 20240101120000.0.v1-PATCH@example.org \
	20240101120000.2.v1-PATCH@example.org \
	20240108120000.3.v2-PATCH@example.org \
	$(grep -m1 -i '^Message-ID: <.*\.r[0-9]*\.' "$TRASH/thread.mbox" |
	  sed 's/.*<\(.*\)>.*/\1/'); do
	n=$((n + 1))
	lore "m$n" -C "$id"
	if [ "$(cat "$TRASH/m$n.rc")" = 0 ] &&
	   cmp -s "$TRASH/v2.out" "$TRASH/m$n.out"; then ok 0 "same series fetched by member <$id>"
	else ok 1 "same series fetched by member <$id>"; fi
done

lore v1 -v 1 -C 20240108120000.1.v2-PATCH@example.org
check "-v 1 from a v2 patch's id gives v1's tree" applies_as v1 v1

# ------------------------------------ piped message, default source
mkdir "$TRASH/split"
git mailsplit --mboxrd -o"$TRASH/split" "$TRASH/thread.mbox" >/dev/null
piped=$(grep -l '^Message-Id: <20240108120000.2.v2-PATCH@example.org>' \
	"$TRASH"/split/*)
"$LORE_AM" -C <"$piped" >"$TRASH/pipe.out" 2>"$TRASH/pipe.err"
is "$?" 0 "a piped message (v2 2/3) names the thread, no -m needed"
same_file "$TRASH/pipe.out" "$TRASH/v2.out" "and the archive completes it"

# --------------------------------- 404, then the root's redirect (list-b)
reqs=$(pi_requests)
lore weird "$ID2"
is "$(cat "$TRASH/weird.rc")" 0 "an id only in list-b, asked of list-a"
tail -n 3 "$PI_ACCESS_LOG" | sed 's/^[^"]*"\([^"]*\)" \([0-9]*\).*/\1 \2/' \
	>"$TRASH/weird.log"
printf '%s\n' \
	"GET /list-a/100%25-2-alice%40example.com/t.mbox.gz HTTP/1.1 404" \
	"HEAD /100%25-2-alice%40example.com/ HTTP/1.1 302" \
	"GET /list-b/100%25-2-alice@example.com/t.mbox.gz HTTP/1.1 200" \
	>"$TRASH/weird.want"
same_file "$TRASH/weird.log" "$TRASH/weird.want" \
	"404 at list-a, HEAD at the root, then list-b's t.mbox.gz"
is "$(($(pi_requests) - reqs))" 3 "three requests in all"
make_repo "$TRASH/hello"
check "the list-b series applies with its trailer" eval '
	(cd "$TRASH/hello" && git am -q "$TRASH/weird.out") &&
	git -C "$TRASH/hello" log -1 --skip=1 --format=%B |
	grep -qx "Reviewed-by: Rita Reviewer <rita@reviewer.example.net>" &&
	test "$(cat "$TRASH/hello/hello.txt")" = "hello
hello"'

for id in "$ID1" "$ID3"; do
	lore w -C -L "$PI_URL/list-b" "$id"
	if [ "$(cat "$TRASH/w.rc")" = 0 ] &&
	   cmp -s "$TRASH/w.out" "$TRASH/weird.out"; then ok 0 "id <$id> works"
	else ok 1 "id <$id> works"; sed 's/^/# /' "$TRASH/w.err"; fi
done

# -m with -L: the mailboxes first, the archive completes them
lore combo -C -m "$piped" -L "$PI_URL/list-a" 20240108120000.2.v2-PATCH@example.org
same_file "$TRASH/combo.out" "$TRASH/v2.out" \
	"-m and -L together: the archive completes a one-message mailbox"
sed -e 's/@example\.com>/@local.example>/g' \
	-e 's/@reviewer\.example\.net>/@local.example>/g' \
	"$TRASH/list-b.mbox" >"$TRASH/local.mbox"
reqs=$(pi_requests)
lore local2 -C -m "$TRASH/local.mbox" -L "$PI_URL/list-a" '100%-2-alice@local.example'
is "$(cat "$TRASH/local2.rc") $(($(pi_requests) - reqs))" "0 0" \
	"a mailbox with the whole series: the archive is not asked"
check "and the mailbox's series is written" grep -qx 'Total patches: 2' \
	"$TRASH/local2.err"

lore unknown -C no-such-id@example.org
is "$(cat "$TRASH/unknown.rc")" 1 "an unknown id exits 1"
is "$(cat "$TRASH/unknown.err")" \
	"lore-am: message <no-such-id@example.org> is not in the archive at $PI_URL/list-a/" \
	"one line saying which archive does not have it"
is "$(wc -c <"$TRASH/unknown.out")" 0 "nothing on stdout"

# ------------------------------------------------------------- the cache
entries() { find "$XDG_CACHE_HOME/lore-am" -type f -name '*.mbox.gz' | wc -l; }
entry=$(ls "$XDG_CACHE_HOME"/lore-am/*.mbox.gz | head -1)
is "$(entries)" 2 "two threads fetched with the cache on, two entries"
check "entries are the gzip the server sent" gz_ok "$entry"

reqs=$(pi_requests)
lore again "$cover"
is "$(($(pi_requests) - reqs))" 0 "second run: no request (cache hit)"
same_file "$TRASH/again.out" "$TRASH/v2.out" "same output from the cache"

lore nocache -C "$cover"
is "$(($(pi_requests) - reqs))" 1 "-C: fetched again"

lore offline --offline "$cover"
is "$(cat "$TRASH/offline.rc") $(($(pi_requests) - reqs))" "0 1" \
	"--offline with an entry: exit 0, no request"
same_file "$TRASH/offline.out" "$TRASH/v2.out" "--offline output"

lore offmiss --offline 20240101120000.1.v1-PATCH@example.org
is "$(cat "$TRASH/offmiss.rc") $(($(pi_requests) - reqs))" "1 1" \
	"--offline without an entry: exit 1, no request"
check "and says why" grep -q 'not in the cache.*--offline' "$TRASH/offmiss.err"

# a damaged entry: cut in half, then garbage
for damage in truncated garbage; do
	for f in "$XDG_CACHE_HOME"/lore-am/*.mbox.gz; do
		if [ $damage = truncated ]; then
			head -c $(($(wc -c <"$f") / 2)) "$f" >"$f.tmp"
		else
			echo "not gzip at all" >"$f.tmp"
		fi
		mv "$f.tmp" "$f"
	done
	reqs=$(pi_requests)
	lore damaged "$cover"
	if [ "$(cat "$TRASH/damaged.rc")" = 0 ] &&
	   [ "$(($(pi_requests) - reqs))" = 1 ] &&
	   cmp -s "$TRASH/damaged.out" "$TRASH/v2.out"; then
		ok 0 "a $damage cache entry is fetched again"
	else ok 1 "a $damage cache entry is fetched again"; fi
done
any_sound() {
	local f
	for f in "$XDG_CACHE_HOME"/lore-am/*.mbox.gz; do
		gz_ok "$f" && return 0
	done
	return 1
}
check "and replaced by a sound one" any_sound

# expiry: 10 minutes by default, lore-am.cache-expire (minutes)
find "$XDG_CACHE_HOME/lore-am" -type f -exec touch -d '-11 minutes' {} +
reqs=$(pi_requests)
lore old "$cover"
lore old2 "$cover"
is "$(($(pi_requests) - reqs))" 1 "an 11-minute-old entry is fetched again, then fresh"
find "$XDG_CACHE_HOME/lore-am" -type f -exec touch -d '-11 minutes' {} +
reqs=$(pi_requests)
git config --global lore-am.cache-expire 60
lore old3 "$cover"
is "$(($(pi_requests) - reqs))" 0 "lore-am.cache-expire=60 keeps it"
git config --global --unset lore-am.cache-expire
# sweeping: after a fetch, entries not written for lore-am.cache-keep days
# (30) are deleted, at most once a day; nothing else in the folder is
cdir=$XDG_CACHE_HOME/lore-am
name() { printf '%064d.mbox.gz' "$1"; }
aged() { touch -d "$1 days ago" "$cdir/$2"; }
: >"$cdir/$(name 1)"; aged 40 "$(name 1)"
: >"$cdir/$(name 1).Ab12Cd"; aged 40 "$(name 1).Ab12Cd"
: >"$cdir/$(name 2)"; aged 20 "$(name 2)"
: >"$cdir/notes.txt"; aged 40 notes.txt
mkdir -p "$cdir/thread/cur"; : >"$cdir/thread/cur/$(name 3)"
aged 40 "thread/cur/$(name 3)"
rm -f "$cdir/.swept"
git config --global lore-am.cache-expire 0
lore sweep "$cover"
is "$(cat "$TRASH/sweep.rc")" 0 "a fetch with old entries in the cache: exit 0"
check "a 40-day-old entry and a stale temporary file are deleted" \
	test ! -e "$cdir/$(name 1)" -a ! -e "$cdir/$(name 1).Ab12Cd"
check "a 20-day-old entry is kept" test -e "$cdir/$(name 2)"
check "other files and folders are left alone" \
	test -e "$cdir/notes.txt" -a -e "$cdir/thread/cur/$(name 3)"
: >"$cdir/$(name 4)"; aged 40 "$(name 4)"
lore sweep2 "$cover"
check "a second fetch the same day does not sweep again" \
	test -e "$cdir/$(name 4)"
rm -f "$cdir/.swept"
git config --global lore-am.cache-keep 0
lore sweep3 "$cover"
check "lore-am.cache-keep=0 keeps everything" test -e "$cdir/$(name 4)"
rm -f "$cdir/.swept"
git config --global lore-am.cache-keep 10
lore sweep4 "$cover"
check "lore-am.cache-keep=10: the 20-day-old entry goes too" \
	test ! -e "$cdir/$(name 2)" -a ! -e "$cdir/$(name 4)"
git config --global lore-am.cache-keep soon
lore sweep5 "$cover"
is "$(cat "$TRASH/sweep5.rc")" 2 "lore-am.cache-keep=soon is refused (exit 2)"
git config --global --unset lore-am.cache-keep
git config --global --unset lore-am.cache-expire
done_testing
