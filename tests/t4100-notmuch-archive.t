#!/bin/bash
# t4100-notmuch-archive.t - the notmuch database and a public-inbox archive
# completing each other: a series split between a real notmuch database and
# a real public-inbox-httpd on 127.0.0.1, merged with the local copy kept;
# --offline, an unreachable archive, -c, and --source forcing one side. The
# server's access log counts every request lore-am makes.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 48

# ------------------------------------------------------------ test data
# a 3-patch series with 4 replies; the archive holds all 8 messages, the
# notmuch database all but patch 3, and its copy of patch 2 says so
gen_thread -p 3 -R 4 || exit 1
nall=$(mbox_ids "$mbox" | wc -l)
mbox_without "$mbox" "$TRASH/part.mbox" "$p3"
perl -pe 'BEGIN { $id = shift } $in = 1 if /^Message-ID:\s*<\Q$id\E>/i;
	if ($in && /^$/) { $_ .= "Local copy marker.\n\n"; $in = 0 }' \
	"$p2" "$TRASH/part.mbox" >"$TRASH/local.mbox"
grep -q '^Local copy marker\.$' "$TRASH/local.mbox" || exit 1
mbox_pick "$mbox" "$p3" >"$TRASH/p3.mbox"
cat "$TRASH/local.mbox" "$TRASH/p3.mbox" >"$TRASH/merged.mbox"
# the reference: every local copy, and patch 3 from the archive
"$LORE_AM" -q -m "$TRASH/merged.mbox" "$p1" >"$TRASH/ref.mbx" 2>/dev/null ||
	exit 1

PI_MBOXRD=1 pi_serve INBOX "$mbox" || exit 1
ARCHIVE=$PI_URL/INBOX/

nm_maildir "$TRASH/part" "$TRASH/local.mbox" || exit 1

# fetches of the thread itself since the log was last cleared
thread_fetches() {
	grep -c '/t\.mbox\.gz ' "$PI_ACCESS_LOG"
}

# ------------------------------------------- 1. one series from two halves
lore split "$p1"
is "$(cat "$TRASH/split.rc")" 0 "auto: the local half is completed from the archive"
check "the archive was asked once, for the thread" \
	test "$(pi_requests)" = 1 -a "$(thread_fetches)" = 1
check "the summary gives each source's share, local copies first" grep -qx \
	"Sources: notmuch $((nall - 1)) messages, lore 1 message" \
	"$TRASH/split.err"
same_file "$TRASH/split.out" "$TRASH/ref.mbx" \
	"the local copies are kept, the archive adds only patch 3"
is "$(grep -c '^Subject: \[PATCH' "$TRASH/split.out")" 3 "three patches"
(cd "$G/repo" && git checkout -q -b t base && git am -q "$TRASH/split.out") \
	>"$TRASH/am.out" 2>&1
is "$?" 0 "git am applies the merged series"
check "the tree is the series' own" git -C "$G/repo" diff --quiet v1 t
git -C "$G/repo" log --format=%B base..t >"$TRASH/log"
is "$(grep -c '^Local copy marker\.$' "$TRASH/log")" 1 \
	"patch 2 is notmuch's copy, taken once"
grep -E '^(Reviewed|Acked|Tested)-by:' "$TRASH/log" | sort >"$TRASH/got"
grep -E '^    \+ ' "$TRASH/split.err" | sed 's/^    + //' | sort >"$TRASH/said"
check "the replies gave trailers" test -s "$TRASH/said"
same_file "$TRASH/got" "$TRASH/said" \
	"the commits carry exactly the trailers the summary lists"

# the archive-only patch piped in, with a header the mail client added:
# notmuch finds the thread through the ids it answers, but a piped copy
# never stands in for a source: the archive is asked for the rest (the
# replies to that patch are only there), and its copy replaces the piped one
sed '/^From /d; 1i\
Status: RO' "$TRASH/p3.mbox" >"$TRASH/p3.eml"
: >"$PI_ACCESS_LOG"
"$LORE_AM" <"$TRASH/p3.eml" >"$TRASH/pipe.out" 2>"$TRASH/pipe.err"
is "$?" 0 "the archive-only patch piped in"
check "its thread is the local one plus the archive's copy" grep -qx \
	"Sources: notmuch $((nall - 1)) messages, lore 1 message" \
	"$TRASH/pipe.err"
same_file "$TRASH/pipe.out" "$TRASH/ref.mbx" "the same series"
is "$(pi_requests)" 1 "the piped copy is no source: one request"

# ------------------------------------------------------------ 2. --offline
rm -rf "$XDG_CACHE_HOME"
: >"$PI_ACCESS_LOG"
lore off --offline "$p1"
is "$(cat "$TRASH/off.rc")" 1 "--offline, partial local thread: exit 1"
check "the missing patch is named" grep -q 'lore-am: v1: missing 3/3' \
	"$TRASH/off.err"
check "a note says the archive could not complete it" grep -qx \
	"NOTE: could not complete the thread from $ARCHIVE (message <$p1> is not in the cache, and --offline forbids fetching it): working from the local copy" \
	"$TRASH/off.err"
check "nothing is written" test ! -s "$TRASH/off.out"
is "$(pi_requests)" 0 "--offline: no request reaches the server"

# ------------------------------------------- 3. the archive cannot be reached
free_port closed
DEAD=http://127.0.0.1:$closed/INBOX/
lore dead -L "$DEAD%s" "$p1"
is "$(cat "$TRASH/dead.rc")" 1 "archive unreachable, partial local thread: exit 1"
check "a note says what could not be completed, and why" grep -q \
	"^NOTE: could not complete the thread from $DEAD (cannot fetch .*Couldn't connect to server): working from the local copy\$" \
	"$TRASH/dead.err"
check "the missing patch is named" grep -q 'lore-am: v1: missing 3/3' \
	"$TRASH/dead.err"
check "nothing is written" test ! -s "$TRASH/dead.out"
lore deadsome -L "$DEAD%s" --allow-incomplete "$p1"
is "$(cat "$TRASH/deadsome.rc")" 0 "--allow-incomplete writes what is local"
is "$(grep -c '^Subject: \[PATCH' "$TRASH/deadsome.out")" 2 \
	"patches 1 and 2"

# the server itself stopped: the same, with the configured archive
pi_stop
lore down "$p1"
is "$(cat "$TRASH/down.rc")" 1 "server stopped, partial local thread: exit 1"
check "a note names the archive that could not complete it" grep -q \
	"^NOTE: could not complete the thread from $ARCHIVE (" "$TRASH/down.err"
pi_start || exit 1
git config --global lore-am.midmask "$PI_URL/INBOX/%s"
ARCHIVE=$PI_URL/INBOX/

# a complete local thread needs no archive, reachable or not
nm_maildir "$TRASH/full" "$TRASH/merged.mbox" || exit 1
rm -rf "$XDG_CACHE_HOME"
: >"$PI_ACCESS_LOG"
lore full "$p1"
is "$(cat "$TRASH/full.rc")" 0 "complete local thread: exit 0"
same_file "$TRASH/full.out" "$TRASH/ref.mbx" "the same series"
is "$(pi_requests)" 0 "the archive is not asked"
lore fulldead -L "$DEAD%s" "$p1"
is "$(cat "$TRASH/fulldead.rc")" 0 "complete local thread, archive down: exit 0"
check "and no note" eval "! grep -q NOTE '$TRASH/fulldead.err'"

# ---------------------------------------------------------------- 4. -c
: >"$PI_ACCESS_LOG"
lore newer -c "$p1"
is "$(cat "$TRASH/newer.rc")" 0 "-c with a complete local thread: exit 0"
check "the archive is asked for the thread" test "$(thread_fetches)" -ge 1
check "nothing new came from it" grep -qx \
	"Sources: notmuch $nall messages" "$TRASH/newer.err"
same_file "$TRASH/newer.out" "$TRASH/ref.mbx" "the local series"

# ------------------------------------------------------------ 5. --source
nm_init "$TRASH/part"
: >"$PI_ACCESS_LOG"
lore onlylore --source lore "$p1"
is "$(cat "$TRASH/onlylore.rc")" 0 "--source lore: exit 0"
check "notmuch is ignored" grep -qx "Sources: lore $nall messages" \
	"$TRASH/onlylore.err"
check "patch 2 is the archive's copy" eval \
	"! grep -q '^Local copy marker' '$TRASH/onlylore.out'"
: >"$PI_ACCESS_LOG"
lore onlynm --source notmuch "$p1"
is "$(cat "$TRASH/onlynm.rc")" 1 "--source notmuch, partial thread: exit 1"
check "the missing patch is named" grep -q 'lore-am: v1: missing 3/3' \
	"$TRASH/onlynm.err"
is "$(pi_requests)" 0 "--source notmuch never touches the server"
# ----------------------------------------- 6. a busy notmuch database
# the Xapian folder swapped out, as `notmuch compact` does: in auto mode
# the archive answers instead; with -N it is still an error
x=$NM_MAIL/.notmuch/xapian
mv "$x" "$x.real" && mkdir "$x"
: >"$PI_ACCESS_LOG"
lore busy "$p1"
is "$(cat "$TRASH/busy.rc")" 0 "auto, notmuch busy: the archive answers, exit 0"
check "a note says notmuch was skipped and why" grep -q \
	"^NOTE: notmuch was not read (the notmuch database stayed busy .*); the archive was asked instead$" \
	"$TRASH/busy.err"
check "the thread came from the archive" grep -qx \
	"Sources: lore $nall messages" "$TRASH/busy.err"
same_file "$TRASH/busy.out" "$TRASH/onlylore.out" "the archive's series"
: >"$PI_ACCESS_LOG"
lore busyn -N "$p1"
is "$(cat "$TRASH/busyn.rc")" 75 "-N, notmuch busy: exit 75 as before"
is "$(pi_requests)" 0 "... and the archive is not asked"
rmdir "$x" && mv "$x.real" "$x"
done_testing
