#!/bin/bash
# Real mail: every message of the lkml corpus piped in gives a sensible
# answer and never a crash, and the series in it come out right, including
# where b4 gets them wrong.
. "$(dirname "$0")/lib.sh"

CORPUS=$SHARED_DIR/corpora/lkml
[ -d "$CORPUS/cur" ] || skip_all_no_data "lkml corpus not present"
plan 13

# the corpus is stored without new/ and tmp/: copy it and add them
cp -r "$CORPUS" "$TRASH/md"
chmod -R u+w "$TRASH/md"
mkdir -p "$TRASH/md/new" "$TRASH/md/tmp"

# Under valgrind each run reads the 210 messages of the maildir at about
# 90 times the native cost: every 10th piped message runs under it (all
# of the maildir is read every time), the others run natively, and every
# assertion below holds for all 210 either way.
sample=1
[ "$LORE_AM_TOOL" = valgrind ] && sample=10
crashes=0 badexit=0 badout=0 written=0 total=0 unexplained=0
for f in "$TRASH/md/cur"/*; do
	total=$((total + 1))
	am=$LORE_AM
	[ $((total % sample)) -eq 0 ] || am=$LORE_AM_REAL
	"$am" -q -m "$TRASH/md" < "$f" > "$TRASH/out" 2> "$TRASH/err"
	rc=$?
	[ $rc -ge 128 ] && { crashes=$((crashes + 1)); echo "# crash ($rc) on $(basename "$f")"; }
	case $rc in 0|1) ;; *) badexit=$((badexit + 1)); echo "# exit $rc on $(basename "$f"): $(head -1 "$TRASH/err")";; esac
	if [ $rc -eq 0 ]; then
		written=$((written + 1))
		rm -rf "$TRASH/split"; mkdir "$TRASH/split"
		n=$(git mailsplit -o"$TRASH/split" "$TRASH/out" 2>/dev/null)
		[ "$n" = "$(grep -c '^From git@z ' "$TRASH/out")" ] || badout=$((badout + 1))
	elif [ -s "$TRASH/out" ]; then
		badout=$((badout + 1))
	fi
	if [ $rc -eq 1 ] && ! grep -q -e 'no patches found' -e 'missing [0-9]' "$TRASH/err"; then
		unexplained=$((unexplained + 1))
	fi
done
is "$total" 210 "the whole corpus was read"
is "$crashes" 0 "no crash on any message"
is "$badexit" 0 "every exit status is 0 or 1"
is "$badout" 0 "output is a valid mbox when written, empty otherwise"
is "$unexplained" 0 "every exit 1 says why (no patches, or which are missing)"
ok $([ "$written" -ge 190 ]; echo $?) "most messages belong to a series ($written of $total)"

series() { "$LORE_AM" -m "$TRASH/md" "$1" 2> "$TRASH/err" > "$TRASH/out"; }
# the subjects as the summary lists them (the mbox folds long ones)
subjects() { grep '^  \[PATCH' "$TRASH/err" | sed 's/^  //'; }

# Joe Perches' 44-patch semicolon series: reviewers' acks on four patches
series "cover.1289789604.git.joe@perches.com"
is "$(grep -c '^From git@z' "$TRASH/out")" 44 "the 44-patch series is complete"
is "$(grep -c '^Acked-by:' "$TRASH/out")" 4 "with the four acks reviewers sent"
check "ack on the right patch" sh -c "sed -n '/Subject: \[PATCH 40\/44\]/,/^---/p' '$TRASH/out' | grep -q 'Acked-by: Mel Gorman'"

# two series whose patches all say In-Reply-To: <yes> (git send-email's
# prompt answered "yes"): b4 joins them; they are different threads
series "1277220158-3405-1-git-send-email-sjayaraman@suse.de"
is "$(subjects | head -1)" "[PATCH RFC 1/10] cifs: add kernel config option for CIFS Client caching support" \
	"the cifs RFC series starts right"
is "$(subjects | grep -c 'cifs:')" 10 "and holds only its own ten patches"
series "1258848661-4660-1-git-send-email-stefan@datenfreihafen.org"
is "$(subjects | tr '\n' '|')" "[PATCH 1/2] lib/message: Add function to get maildir flags.|[PATCH 2/2] notmuch-new: Tag mails not as unread when the seen flag in the maildir is set.|" \
	"the notmuch series next to it is its own"

# a patch whose quoted-printable body holds a byte invalid in its charset
f=$(grep -l 'Check_D_MediaPower())        ; =A6b' "$TRASH/md/cur"/* | head -1)
id=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$f" | head -1)
"$LORE_AM" -q --allow-incomplete -P _ -m "$TRASH/md" "$id" > "$TRASH/out" 2>/dev/null
# in the diff, which git applies byte for byte: it stays as it was sent
check "an invalid byte in the diff is kept as sent, not U+FFFD" grep -q "; $(printf '\246')b 6250" "$TRASH/out"

done_testing
