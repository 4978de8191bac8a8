#!/bin/bash
# The whole flow on a real series: git format-patch, replies with trailers,
# lore-am on the piped message, git am of the result.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 23

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
cover=$P/0000-cover-letter.patch p1=$P/0001-part-add-piece-1.patch
p2=$P/0002-part-add-piece-2.patch p3=$P/0003-part-add-piece-3.patch
cover_letter "Add the pieces" "Three pieces." "$cover"

reply "$TRASH/r1" "$p1" "Rita Reviewer <rita@example.com>" \
"> This adds piece 1

Looks right.

Reviewed-by: Rita Reviewer <rita@example.com>"
reply "$TRASH/r2" "$cover" "Alan Acker <alan@example.com>" \
"For the whole series:

Acked-by: Alan Acker <alan@example.com>"
reply "$TRASH/r3" "$p2" "Quentin Quoter <quentin@example.com>" \
"> Reviewed-by: Someone Else <else@example.com>

I only quote.

-- 
Tested-by: Sig Nature <sig@example.com>"
reply "$TRASH/r4" "$TRASH/r3" "Tina Tester <tina@example.com>" \
"Tested on real hardware.

Tested-by: Tina Tester <tina@example.com>"
reply "$TRASH/r5" "$p3" "Mallory Mismatch <mallory@example.com>" \
"Reviewed-by: Someone Important <important@example.org>"
# a reply to the mismatched one: b4 re-adds its parent's trailers unchecked
reply "$TRASH/r6" "$TRASH/r5" "Vic Verifier <vic@example.com>" \
"Agreed.

Reviewed-by: Vic Verifier <vic@example.com>"
to_mbox "$TRASH/thread.mbox" "$cover" "$p1" "$p2" "$p3" \
	"$TRASH/r1" "$TRASH/r2" "$TRASH/r3" "$TRASH/r4" "$TRASH/r5" "$TRASH/r6"

# the message a mail client pipes: with a From_ line, CRLF line ends
{ echo "From foo@bar Mon Jan  1 00:00:00 2024"; cat "$p2"; } |
	sed 's/$/\r/' > "$TRASH/piped.eml"

"$LORE_AM" -m "$TRASH/thread.mbox" < "$TRASH/piped.eml" \
	> "$TRASH/out.mbx" 2> "$TRASH/err"
is "$?" 0 "lore-am exits 0 on a complete series"
is "$(grep -c '^From git@z ' "$TRASH/out.mbx")" 3 "three patches written, cover apart"
check "summary names the added trailer" grep -q '+ Reviewed-by: Rita Reviewer' "$TRASH/err"
check "summary notes the mismatched trailer" grep -q '! Trailer: Reviewed-by: Someone Important' "$TRASH/err"
check "summary shows the base commit" grep -q "base-commit $(git -C "$TRASH/repo" rev-parse base)" "$TRASH/err"

apply_into "$TRASH/out.mbx" "$TRASH/applied"
is "$?" 0 "git am applies the output"
is "$(git -C "$TRASH/applied" rev-list --count base..HEAD)" 3 "three commits applied"
is "$(git -C "$TRASH/applied" rev-parse HEAD^{tree})" \
   "$(git -C "$TRASH/repo" rev-parse topic^{tree})" "the final tree is the series' tree"
is "$(git -C "$TRASH/applied" log --format=%s base..HEAD | tac | tr '\n' '|')" \
   "part: add piece 1|part: add piece 2|part: add piece 3|" "subjects in order, prefixes gone"
is "$(git -C "$TRASH/applied" log -1 --format='%an <%ae>' HEAD~2)" \
   "Pat Contributor <pat@example.com>" "author kept"

t1=$(trailers_of "$TRASH/applied" HEAD~2)
t2=$(trailers_of "$TRASH/applied" HEAD~1)
t3=$(trailers_of "$TRASH/applied" HEAD)
case $t1 in *"Reviewed-by: Rita Reviewer <rita@example.com>"*) r=0;; *) r=1;; esac
ok $r "patch 1 got the reply's Reviewed-by"
case "$t1$t2$t3" in *"Acked-by: Alan Acker <alan@example.com>"*) r=0;; *) r=1;; esac
ok $r "the cover letter's Acked-by is applied"
is "$(printf '%s\n' "$t1" "$t2" "$t3" | grep -c 'Acked-by: Alan Acker')" 3 "the cover letter's Acked-by goes to every patch"
case $t2 in *"Tested-by: Tina Tester <tina@example.com>"*) r=0;; *) r=1;; esac
ok $r "a reply to a reply counts for the patch it descends from"
case $t2 in *"Someone Else"*) r=1;; *) r=0;; esac
ok $r "quoted trailers never count"
case $t2 in *"Sig Nature"*) r=1;; *) r=0;; esac
ok $r "nothing after a '-- ' signature counts"
case $t3 in *"Someone Important"*) r=1;; *) r=0;; esac
ok $r "a trailer whose address is not the sender's is skipped, even under a reply"
case $t3 in *"Vic Verifier"*) r=0;; *) r=1;; esac
ok $r "while the reply's own trailer is added"
is "$(printf '%s\n' "$t1" | head -1)" "Signed-off-by: Pat Contributor <pat@example.com>" \
   "the patch's own trailers stay first"

# -S accepts the mismatched one; -T adds none; -s adds ours last
"$LORE_AM" -q -S -m "$TRASH/thread.mbox" < "$TRASH/piped.eml" > "$TRASH/s.mbx"
check "-S accepts a trailer from another address" grep -q 'Reviewed-by: Someone Important' "$TRASH/s.mbx"
"$LORE_AM" -q -T -m "$TRASH/thread.mbox" < "$TRASH/piped.eml" > "$TRASH/t.mbx"
is "$(grep -c -e 'Reviewed-by' -e 'Acked-by' -e 'Tested-by' "$TRASH/t.mbx")" 0 "-T adds no trailers"
git config --global user.name "Mae Maintainer"
git config --global user.email "mae@example.org"
"$LORE_AM" -q -s -m "$TRASH/thread.mbox" < "$TRASH/piped.eml" > "$TRASH/sob.mbx"
apply_into "$TRASH/sob.mbx" "$TRASH/sob"
is "$(trailers_of "$TRASH/sob" HEAD | tail -1)" "Signed-off-by: Mae Maintainer <mae@example.org>" \
   "-s puts our Signed-off-by last"
# the output is the same whichever member of the thread is piped
"$LORE_AM" -q -m "$TRASH/thread.mbox" < "$TRASH/r4" > "$TRASH/via-reply.mbx"
same_file "$TRASH/via-reply.mbx" "$TRASH/out.mbx" "any message of the thread gives the same series"
done_testing
