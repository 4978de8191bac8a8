#!/bin/bash
# --rethread: a series sent unthreaded (every [PATCH i/N] a mail of its
# own, no In-Reply-To, no References) stitched into one series from the
# -m mailbox, from notmuch and from the archive's search (a real
# public-inbox-httpd with Xapian): the same sender, within an hour, the
# same prefix, revision and total. Mail that only looks alike (another
# sender, prefix, revision or total, hours away, a farther copy of a
# slot) stays out, a reviewer's reply to a stitched patch is folded in,
# and a [PATCH 1/5000] is refused before anything is asked.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-nm.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
nm_have || skip_all "notmuch not installed or not compiled in"
plan 32

R=$TRASH/repo
P=$TRASH/p
series_repo "$R" 3 >/dev/null || exit 1
fmt "$R" "$P" --cover-letter || exit 1
cover_letter "part: three pieces" "Sent without threading." "$P"/0000-*
# git send-email sends every mail From: the one who sends
sed -i "s/^From: .*/From: Pat Contributor <pat@example.com>/" "$P"/0000-*
# unthread them (git send-email --no-thread) and give each its minute
n=0
for f in "$P"/*.patch; do
	perl -i -ne 'BEGIN { $h = 1; $s = shift @ARGV }
		$h = 0 if /^$/;
		if ($h && /^(In-Reply-To|References):/i) { $skip = 1; next }
		if ($h && $skip && /^[ \t]/) { next }
		$skip = 0;
		s/^Date: .*/Date: Tue, 2 Jan 2024 10:00:0$s +0000/ if $h;
		print' "$n" "$f"
	n=$((n + 1))
done
check "the mails answer nothing" eval '! grep -qiE "^(In-Reply-To|References):" "$P"/*.patch'
C0=$(msgid_of "$P"/0000-*)
P1=$(msgid_of "$P"/0001-*)
P2=$(msgid_of "$P"/0002-*)
P3=$(msgid_of "$P"/0003-*)

# mail: FILE SUBJECT FROM DATE [ID]: a plain mail with a body of its own
mail() {
	cat >"$1" <<EOM
From: $3
To: list@example.org
Subject: $2
Date: $4
Message-ID: <${5:-$(basename "$1")@example.net}>

$2, not a part of the series.
EOM
}
PAT='Pat Contributor <pat@example.com>'
D=$TRASH/decoys
mkdir -p "$D"
mail "$D/total" "[PATCH 1/2] other: two pieces" "$PAT" "Tue, 2 Jan 2024 10:05:00 +0000"
mail "$D/prefix" "[PATCH net 2/3] part: add piece 2" "$PAT" "Tue, 2 Jan 2024 10:06:00 +0000"
mail "$D/far" "[PATCH 3/3] part: a farther copy" "$PAT" "Tue, 2 Jan 2024 10:50:00 +0000"
mail "$D/spoof" "[PATCH 2/3] part: add piece 2" "Mallory <mallory@evil.example>" "Tue, 2 Jan 2024 10:00:30 +0000"
mail "$D/late" "[PATCH 1/3] part: add piece 1" "$PAT" "Tue, 2 Jan 2024 13:00:00 +0000"
mail "$D/v2" "[PATCH v2 1/3] part: add piece 1" "$PAT" "Tue, 2 Jan 2024 10:10:00 +0000"
mail "$D/flood" "[PATCH 1/5000] spam" "$PAT" "Tue, 2 Jan 2024 10:20:00 +0000"
FLOOD=flood@example.net
reply "$TRASH/review" "$P"/0002-* "Rita Reviewer <rita@example.net>" \
	"Reviewed-by: Rita Reviewer <rita@example.net>"
to_mbox "$TRASH/list.mbox" "$P"/*.patch "$D"/* "$TRASH/review"

# the subjects written, and the tree git am makes of them
subjects() { grep '^Subject:' "$TRASH/$1.out" | sed 's/^Subject: //' | tr '\n' '|'; }
WANT='[PATCH 1/3] part: add piece 1|[PATCH 2/3] part: add piece 2|[PATCH 3/3] part: add piece 3|'
applies() { am_gives "$R" "$1" topic; }

# --------------------------------------------------------- -m mailbox
lore plain -m "$TRASH/list.mbox" "$P2"
is "$(cat "$TRASH/plain.rc")" 1 "without --rethread: 2/3 alone is an incomplete series"
check "... naming the missing patches" grep -q 'missing 1, 3 of 3' "$TRASH/plain.err"

lore mbox --rethread -m "$TRASH/list.mbox" "$P2"
is "$(cat "$TRASH/mbox.rc")" 0 "--rethread -m: the series is stitched"
is "$(subjects mbox)" "$WANT" "... its three patches in order, no look-alike"
check "... git am gives the topic branch" applies mbox
is "$(grep -c '^Reviewed-by: Rita Reviewer' "$TRASH/mbox.out")" 1 \
	"... with the review of 2/3 folded in"
check "... and says so" grep -q 'Rethreaded: 4 mails from pat@example.com' "$TRASH/mbox.err"

lore_in piped "$P"/0003-* --rethread -m "$TRASH/list.mbox"
is "$(subjects piped)" "$WANT" "3/3 piped in: the same series"

lore_in cover "$P"/0000-* --rethread -m "$TRASH/list.mbox"
is "$(subjects cover)" "$WANT" "the cover letter piped in: the same series"

lore mboxword mbox --rethread -m "$TRASH/list.mbox" "$P2"
is "$(cat "$TRASH/mboxword.rc"):$(grep -ci '^Message-ID:' "$TRASH/mboxword.out"):$(grep -c 'not a part of the series' "$TRASH/mboxword.out")" \
	"0:5:0" "mbox --rethread (the whole thread): the four mails and the review, no look-alike"

mail "$TRASH/lone" "[PATCH 2/2] lone: nothing before it" "$PAT" "Wed, 3 Jan 2024 10:00:00 +0000" lone@example.net
lore_in lone "$TRASH/lone" --rethread -m "$TRASH/list.mbox"
check "a patch with nothing to stitch to: said, nothing written" \
	eval 'grep -q "no other mail of <lone@example.net>.s series from pat@example.com" "$TRASH/lone.err" &&
	      [ "$(cat "$TRASH/lone.rc")" = 1 ] && [ ! -s "$TRASH/lone.out" ]'

# b4's own form: the mails named, in any order, whoever sent them
lore given --rethread -m "$TRASH/list.mbox" "$P3" "<$P1>" "$P2"
is "$(cat "$TRASH/given.rc"):$(subjects given)" "0:$WANT" \
	"--rethread ID ID ID (b4's): the series, in the order of its subjects"
is "$(grep -c '^Reviewed-by: Rita Reviewer' "$TRASH/given.out")" 1 \
	"... the review folded in"
printf '%s\n' "$P2" "" "$P1" "$P3" >"$TRASH/ids"
lore_in stdin "$TRASH/ids" --rethread -m "$TRASH/list.mbox" -
is "$(cat "$TRASH/stdin.rc"):$(subjects stdin)" "0:$WANT" \
	"--rethread - : the ids on standard input, one a line"
lore bad --rethread -m "$TRASH/list.mbox" "$P1" "not an id"
fails bad 2 "--rethread: 'not an id' is not a Message-ID" \
	"a bad id among them: refused in one line, nothing written"

# ------------------------------------------------------------- notmuch
nm_maildir "$TRASH/mail" "$TRASH/list.mbox" || exit 1
lore nmplain -N "$P1"
is "$(cat "$TRASH/nmplain.rc")" 1 "notmuch without --rethread: incomplete"
lore nm --rethread -N "$P1"
is "$(cat "$TRASH/nm.rc")" 0 "--rethread -N: stitched from notmuch"
is "$(subjects nm)" "$WANT" "... the same three patches"
is "$(grep -c '^Reviewed-by: Rita Reviewer' "$TRASH/nm.out")" 1 \
	"... the review folded in"
unset NOTMUCH_CONFIG

# ----------------------------------------------------- the archive
pi_serve list "$TRASH/list.mbox" || exit 1
lore piplain "$P2"
is "$(cat "$TRASH/piplain.rc")" 1 "the archive without --rethread: incomplete"
is "$(grep -c '"POST ' "$PI_ACCESS_LOG")" 0 "... and its search not asked"
: >"$PI_ACCESS_LOG"
lore pi --rethread "$P2"
is "$(cat "$TRASH/pi.rc")" 0 "--rethread from the archive: stitched"
is "$(subjects pi)" "$WANT" "... the same three patches"
check "... git am gives the topic branch" applies pi
is "$(grep -c '^Reviewed-by: Rita Reviewer' "$TRASH/pi.out")" 1 \
	"... the review, from the stitched patch's thread, folded in"
is "$(grep -c '"POST /list/?x=m&q=' "$PI_ACCESS_LOG")" 1 \
	"... through one search of the archive"
lore pigiven --rethread "$P1" "$P3" "$P2"
is "$(cat "$TRASH/pigiven.rc"):$(subjects pigiven)" "0:$WANT" \
	"--rethread ID ID ID from the archive: each fetched, stitched"

# ---------------------------------------------------- bounded
: >"$PI_ACCESS_LOG"
lore flood --rethread "$FLOOD"
is "$(cat "$TRASH/flood.rc")" 1 "[PATCH 1/5000] is not stitched"
check "... it says why" grep -q 'not stitched: a series of 5000 patches is more than the 200' "$TRASH/flood.err"
is "$(grep -c '"POST ' "$PI_ACCESS_LOG")" 0 "... and asks the archive's search nothing"

# a thousand copies of 2/3 from the sender, all later than the series
for i in $(seq 1 1000); do
	printf 'From x Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: [PATCH 2/3] part: add piece 2\nDate: Tue, 2 Jan 2024 10:%02d:%02d +0000\nMessage-ID: <copy-%d@example.net>\n\nnot it\n\n' \
		"$PAT" $((10 + i / 60)) $((i % 60)) "$i"
done >"$TRASH/copies.mbox"
lore copies --rethread -m "$TRASH/list.mbox" -m "$TRASH/copies.mbox" "$P1"
is "$(subjects copies):$(grep -c 'not it' "$TRASH/copies.out")" "$WANT:0" \
	"a thousand later copies of a slot: the one nearest in time is kept"
