#!/bin/bash
# The -m index and the sources after it: a reply kept in a -m folder that
# answers a message only the archive (a real public-inbox-httpd) or a
# later -m folder has joins the thread through that message alone.
# gather.c asks the folder again once a later source has added to the
# thread, so the index finds the reply as a scan of the whole folder does:
# the same bytes with the index as with --no-index, and the reply's
# trailer in both.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
. "$TEST_DIR/lib-pi.sh"
pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 15

W=$TRASH/w
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$W/s" --cover-letter
P0=$W/s/0000-cover-letter.patch
P1=$W/s/0001-part-add-piece-1.patch
P2=$W/s/0002-part-add-piece-2.patch
P3=$W/s/0003-part-add-piece-3.patch
# X: a review of patch 1, in the archive only; R: an ack answering X,
# in the folder only, naming X alone (no References: some mail clients
# write only In-Reply-To)
reply "$W/x" "$P1" "Xavier Review <xavier@example.com>" "> content 1

Looks right to me, but see what Rob says."
reply "$W/r" "$W/x" "Rob Acker <rob@example.com>" "> Looks right to me

Fine by me.

Acked-by: Rob Acker <rob@example.com>"
sed -i '/^References:/d' "$W/r"
grep -q "^In-Reply-To: <$(msgid_of "$W/x")>" "$W/r" &&
	! grep -q "^References:" "$W/r" || {
	echo "Bail out! the reply is not what this test needs"; exit 1; }

to_mbox "$TRASH/archive.mbox" "$P0" "$P1" "$P2" "$P3" "$W/x"
pi_init "$TRASH/pi"
at_exit pi_stop
pi_add_inbox test 2 "$TRASH/archive.mbox" || exit 1
pi_start || exit 1
export NOTMUCH_CONFIG=$TRASH/no-notmuch-config
L="$PI_URL/test/%s"

# unrelated mail around it, so that the index has more than the thread
small_thread "$W/small"

# A: the folder lacks the target (piped in by the mail client): P0, P1, R
MA=$TRASH/md-a
mkdir -p "$MA/cur" "$MA/new" "$MA/tmp"
i=0
for f in "$P0" "$P1" "$W/r" "$W"/small/*.eml; do
	i=$((i + 1))
	cp "$f" "$MA/cur/$i.lore.host:2,S"
done
idx_cmp "$TRASH/a" "$P2" -C -L "$L" -m "$MA"
ok $? "target piped in, not in the folder: the same bytes indexed and --no-index"
[ -s "$(idx_db "$MA")" ]
ok $? "... and the indexed run did keep an index of the folder"
check "... the folder's reply to the archive's message is in the thread" \
	grep -qx "Acked-by: Rob Acker <rob@example.com>" "$TRASH/a.i"
check "... the summary counts it with the folder's messages" \
	grep -q "^Sources: maildir 3 messages, lore 3 messages$" "$TRASH/a.ie"
apply_into "$TRASH/a.i" "$TRASH/am-a" >/dev/null 2>&1
is "$(git -C "$TRASH/am-a" log -1 --format=%B HEAD~2 | grep -c '^Acked-by: Rob Acker')" 1 \
	"... and git am puts the ack on patch 1"

# B: the target is in the folder, the series is not whole there (no P3):
# the archive is asked for it, and the reply joins through its X
MB=$TRASH/md-b
mkdir -p "$MB/cur" "$MB/new" "$MB/tmp"
i=0
for f in "$P0" "$P1" "$P2" "$W/r" "$W"/small/*.eml; do
	i=$((i + 1))
	cp "$f" "$MB/cur/$i.lore.host:2,S"
done
idx_cmp "$TRASH/b" /dev/null -C -L "$L" -m "$MB" "$(msgid_of "$P2")"
ok $? "target in the folder, series completed by the archive: the same bytes"
check "... the folder's reply is in the thread" \
	grep -qx "Acked-by: Rob Acker <rob@example.com>" "$TRASH/b.i"
check "... and the archive's patch 3" grep -q "^Subject: \[PATCH 3/3\]" "$TRASH/b.i"

# the whole discussion (--thread) holds it too, in both
idx_cmp "$TRASH/c" /dev/null -C -L "$L" -m "$MB" --thread "$(msgid_of "$P2")"
ok $? "--thread: the same bytes indexed and --no-index"
is "$(grep -c '^Message-I[dD]: ' "$TRASH/c.i")" 6 "... the five of the series' thread and the reply"

# the same folder as an mbox file
MF=$TRASH/folder.mbox
to_mbox "$MF" "$P0" "$P1" "$P2" "$W/r" "$W"/small/*.eml
idx_cmp "$TRASH/d" /dev/null -C -L "$L" -m "$MF" "$(msgid_of "$P2")"
ok $? "an mbox folder: the same bytes indexed and --no-index"
check "... with the reply's ack" grep -qx "Acked-by: Rob Acker <rob@example.com>" "$TRASH/d.i"

# no archive, two folders: the first holds the reply, the second the
# review it answers (a later -m joins it, as the archive did above)
MC=$TRASH/md-c1 MD=$TRASH/md-c2
mkdir -p "$MC/cur" "$MC/new" "$MC/tmp" "$MD/cur" "$MD/new" "$MD/tmp"
i=0
for f in "$P0" "$P1" "$W/r" "$W"/small/*.eml; do
	i=$((i + 1)); cp "$f" "$MC/cur/$i.lore.host:2,S"
done
for f in "$P2" "$P3" "$W/x"; do
	i=$((i + 1)); cp "$f" "$MD/cur/$i.lore.host:2,S"
done
idx_cmp "$TRASH/f" /dev/null -m "$MC" -m "$MD" "$(msgid_of "$P1")"
ok $? "two folders, the reply joined through the second: the same bytes"
check "... with the reply's ack" grep -qx "Acked-by: Rob Acker <rob@example.com>" "$TRASH/f.i"

# the archive brings nothing the folder lacks: it is not asked twice for
# it, and the folder answers as before (the whole series is local)
to_mbox "$TRASH/whole.mbox" "$P0" "$P1" "$P2" "$P3" "$W/r"
before=$(pi_requests)
idx_cmp "$TRASH/e" /dev/null -C -L "$L" -m "$TRASH/whole.mbox" "$(msgid_of "$P2")"
is "$(pi_requests) $?" "$before 0" "a whole local series: no request, the same bytes"
done_testing
