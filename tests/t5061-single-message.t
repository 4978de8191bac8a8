#!/bin/bash
# --single-message (b4's): only the message named or piped, not its
# thread: no reply's trailers, no other patch of its series (named on
# stderr, the one patch still written); a piped message asks no source.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-net.sh"
plan 11

R=$TRASH/repo
P=$TRASH/p
series_repo "$R" 3 >/dev/null || exit 1
fmt "$R" "$P" --cover-letter || exit 1
reply "$TRASH/review" "$P"/0002-* "Rita Reviewer <rita@example.net>" \
	"Reviewed-by: Rita Reviewer <rita@example.net>"
to_mbox "$TRASH/list.mbox" "$P"/*.patch "$TRASH/review"
P2=$(msgid_of "$P"/0002-*)
subjects() { grep '^Subject:' "$TRASH/$1.out" | sed 's/^Subject: //' | tr '\n' '|'; }

lore whole -m "$TRASH/list.mbox" "$P2"
is "$(cat "$TRASH/whole.rc"):$(grep -c '^Subject:' "$TRASH/whole.out")" 0:3 \
	"without it: the whole series"

lore one --single-message -m "$TRASH/list.mbox" "$P2"
is "$(cat "$TRASH/one.rc")" 0 "--single-message MSGID: written"
is "$(subjects one)" "[PATCH 2/3] part: add piece 2|" "... that patch alone"
is "$(grep -c 'Reviewed-by: Rita' "$TRASH/one.out")" 0 \
	"... without the trailers of the thread's replies"
check "... the series' other patches named" grep -q 'missing 1, 3 of 3' "$TRASH/one.err"
check "... and git am applies it" \
	eval '(cd "$R" && git checkout -q -f -B one topic~2 && git am -q "$TRASH/one.out")'

# piped: no source is asked; an archive that cannot answer is no matter
git config --global lore-am.midmask "http://127.0.0.1:1/all/%s"
lore_in piped "$P"/0003-* --single-message
is "$(cat "$TRASH/piped.rc"):$(subjects piped)" "0:[PATCH 3/3] part: add piece 3|" \
	"the piped message alone, the archive not asked"
check "... said in the sources line" grep -q '^Sources: stdin 1 message' "$TRASH/piped.err"

# a reply with a diff, named: the patch it holds
cat >"$TRASH/fix" <<EOM
From: Rita Reviewer <rita@example.net>
Subject: Re: [PATCH 2/3] part: add piece 2
Date: Tue, 2 Jan 2024 11:00:00 +0000
Message-Id: <fix@example.net>
In-Reply-To: <$P2>
References: <$P2>

Better like this.
---
 README | 1 +
 1 file changed, 1 insertion(+)

diff --git a/README b/README
--- a/README
+++ b/README
@@ -1 +1,2 @@
 readme
+more
EOM
to_mbox "$TRASH/fix.mbox" "$P"/*.patch "$TRASH/review" "$TRASH/fix"
lore fix --single-message -m "$TRASH/fix.mbox" fix@example.net
is "$(cat "$TRASH/fix.rc"):$(grep -c '^+more' "$TRASH/fix.out"):$(grep -c '^Subject:' "$TRASH/fix.out")" \
	"0:1:1" "a reply holding a diff: its patch alone"

lore both --single-message --rethread -m "$TRASH/list.mbox" "$P2"
fails both 2 "--single-message and --rethread contradict" \
	"--single-message --rethread: refused in one line"
lore other --single-message -m "$TRASH/list.mbox" nothing@example.net
is "$(cat "$TRASH/other.rc")" 1 "a message the mailbox lacks: exit 1"
