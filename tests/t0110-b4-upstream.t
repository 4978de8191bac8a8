#!/bin/bash
# b4 upstream's newer fixtures, which have no expected output in cases.tsv;
# what is checked is what b4's own tests assert (src/tests/test___init__.py):
#  - naked-cover-single: the thread root by the series' author, with no
#    "0/N" and no diffstat, is the cover letter (b4 0.16's
#    test_naked_cover_letter_detection), so replies to it give their
#    trailers to every patch and --apply=merge takes its title and text;
#  - naked-cover-bugreport: a root by someone else is not (a bug report the
#    patch answers);
#  - trailers-followup-already-present: a reply restating the trailers the
#    patch already carries is no from/email mismatch, only the new
#    Tested-by is (b4 0.17's
#    test_mismatched_trailer_already_on_patch_is_not_flagged).
# And the --apply=merge message links https://patch.msgid.link/ID, as b4
# upstream's shazam-git1-just-series-merged.verify does.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

CONF=$SHARED_DIR/conformance/b4
[ -f "$CONF/naked-cover-single.mbox" ] || skip_all_no_data "b4 upstream fixtures not present"
plan 21

git config --global user.name "Test Override"
git config --global user.email "test-override@example.com"
la() { "$LORE_AM" --no-attestation "$@"; }

# --- the naked cover letter
S=$CONF/naked-cover-single.mbox
la -m "$S" -o "$TRASH/o1" 20221025-widget-v1-1-author@example.org 2>"$TRASH/err1"
is "$?" 0 "naked cover: exit 0"
check "its .cover is written" test -s "$TRASH"/o1/*.cover
check "and is the naked cover letter" \
	grep -q '^Subject: .*do a thing to the widget subsystem$' "$TRASH"/o1/*.cover
check "the summary says Cover:" grep -q '^ Cover: ' "$TRASH/err1"
check "the link is the cover letter's, as for a 0/N one" \
	grep -q '^ Link: .*20221025-widget-v1-0-author@example.org$' "$TRASH/err1"

# a reply to it is a reply to the cover letter: its trailer goes to the patch
{ cat "$S"; cat <<'EOF'
From mboxrd@git Thu Jan  1 00:00:00 1970
From: Ann Acker <ann@example.com>
Subject: Re: do a thing to the widget subsystem
Date: Tue, 25 Oct 2022 14:00:00 -0400
Message-Id: <ack-cover@example.com>
In-Reply-To: <20221025-widget-v1-0-author@example.org>
References: <20221025-widget-v1-0-author@example.org>

For the series:

Acked-by: Ann Acker <ann@example.com>

EOF
} > "$TRASH/single-acked.mbox"
la -q -m "$TRASH/single-acked.mbox" 20221025-widget-v1-1-author@example.org >"$TRASH/out2"
check "a trailer sent to the naked cover goes to the patch" \
	grep -qx 'Acked-by: Ann Acker <ann@example.com>' "$TRASH/out2"

# --- a bug report the patch answers is no cover letter
B=$CONF/naked-cover-bugreport.mbox
la -m "$B" -o "$TRASH/o3" 20221025-widget-fix-author@example.org 2>"$TRASH/err3"
is "$?" 0 "bug report: exit 0"
check "no .cover is written" test -z "$(ls "$TRASH"/o3/*.cover 2>/dev/null)"
check "the .mbx is" test -s "$TRASH"/o3/*.mbx
sed 's/^Subject: Re: do a thing.*/Subject: Re: widget subsystem corrupts data under load/;
     s/20221025-widget-v1-0-author@example.org/20221025-bugreport-widget@example.com/g' \
	"$TRASH/single-acked.mbox" | sed -n '/^From: Ann/,$p' > "$TRASH/ack.eml"
{ cat "$B"; echo "From mboxrd@git Thu Jan  1 00:00:00 1970"; cat "$TRASH/ack.eml"; } \
	> "$TRASH/bug-acked.mbox"
la -q -m "$TRASH/bug-acked.mbox" 20221025-widget-fix-author@example.org >"$TRASH/out4"
is "$(grep -c '^Acked-by:' "$TRASH/out4")" 0 \
	"a trailer sent to the bug report is not given to the patch"

# --- --apply=merge: the naked cover's title, author and text, and the link
make_repo "$TRASH/r"
(cd "$TRASH/r" && printf 'line 1\nline 2\nline 3\n' >file1 && git add file1 &&
 git commit -qm "file1" && git commit -q --allow-empty -m "later work")
(cd "$TRASH/r" && la --apply=merge -m "$S" 20221025-widget-v1-1-author@example.org \
	>/dev/null 2>"$TRASH/err5" </dev/null)
is "$?" 0 "--apply=merge with the naked cover: exit 0"
git -C "$TRASH/r" log -1 --format=%B >"$TRASH/merge"
is "$(head -1 "$TRASH/merge")" 'Merge patch "do a thing to the widget subsystem"' \
	"the merge is titled after the naked cover"
check "its author says" grep -qx 'Test Author <author@example.org> says:' "$TRASH/merge"
check "its text" grep -qx 'this changes how the widget works.  Note that there is neither a' "$TRASH/merge"
check "the merge links https://patch.msgid.link/ID (b4 upstream's linkmask)" \
	grep -qx 'Link: https://patch.msgid.link/20221025-widget-v1-0-author@example.org' "$TRASH/merge"
git -C "$TRASH/r" reset -q --hard HEAD^
(cd "$TRASH/r" && la --apply=merge -m "$B" 20221025-widget-fix-author@example.org \
	>/dev/null 2>&1 </dev/null)
git -C "$TRASH/r" log -1 --format=%B >"$TRASH/merge2"
check "without a cover letter the merge says so" \
	grep -q 'NOTE: No cover letter provided by the author.' "$TRASH/merge2"
check "and links the patch" \
	grep -qx 'Link: https://patch.msgid.link/20221025-widget-fix-author@example.org' "$TRASH/merge2"

# --- a reply restating the patch's own trailers is no mismatch
A=$CONF/trailers-followup-already-present.mbox
la -m "$A" orig-message@example.com >"$TRASH/out6" 2>"$TRASH/err6"
is "$?" 0 "already present: exit 0"
is "$(grep -c '! Trailer:' "$TRASH/err6")" 1 "one trailer is noted as a mismatch"
check "the new Tested-by from someone else" \
	grep -q '! Trailer: Tested-by: Someone Else <someone-else@example.com>' "$TRASH/err6"
# the restated ones are not added twice
is "$(sed -n '/^$/,/^---$/p' "$TRASH/out6" | grep -c ': ')" 5 \
	"the patch keeps its five trailers, none doubled"
done_testing
