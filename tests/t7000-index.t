#!/bin/bash
# The -m index: on every thread this test has (a real git format-patch
# series in two revisions with replies, the small thread, the bundled
# example, threads joined by ids without '@', duplicate Message-IDs, and
# the lkml corpus when present), in a maildir and in an mbox, every message
# as the target gives the same bytes and exit status with the index as
# with --no-index; and the index does read only the thread, keeps renames
# and appends as such, and rebuilds an mbox rewritten.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
plan 21

W=$TRASH/w
mkdir -p "$W/mail"
# a real series, v1 and v2 (a reply to v1's cover), with replies
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$W/v1" --cover-letter
v1cover=$W/v1/0000-cover-letter.patch
# v2 changes the last patch (and so every Message-ID git makes)
(cd "$TRASH/repo" && echo 'content 3, reworked' >part3.c &&
 git commit -q -a --amend --no-edit && sleep 1)
fmt "$TRASH/repo" "$W/v2" --cover-letter -v2 \
	--in-reply-to="$(msgid_of "$v1cover")"
reply "$W/r1" "$W/v1/0001-part-add-piece-1.patch" "Rita <rita@example.com>" \
	"Reviewed-by: Rita <rita@example.com>"
reply "$W/r2" "$W/v2/v2-0002-part-add-piece-2.patch" "Alan <alan@example.com>" \
	"Acked-by: Alan <alan@example.com>"
reply "$W/r3" "$W/r2" "Tina <tina@example.com>" \
	"Tested-by: Tina <tina@example.com>"
reply "$W/r4" "$W/v2/v2-0000-cover-letter.patch" "Vic <vic@example.com>" \
	"For all: Reviewed-by: Vic <vic@example.com>"
cp "$W"/v1/*.patch "$W"/v2/*.patch "$W"/r[1-4] "$W/mail/"
small_thread "$W/small"
cp "$W"/small/*.eml "$W/mail/"
# the bundled example, one file a message
mkdir -p "$W/ex" && git mailsplit -o"$W/ex" "$SRC_DIR/examples/thread.mbox" >/dev/null
for f in "$W"/ex/*; do sed '1{/^From /d;}' "$f" >"$W/mail/ex-$(basename "$f")"; done
# two series answering git send-email's prompt with "yes": two threads
for s in y1 y2; do
	mk_msg "$W/mail/$s-0" "$s-0@example.org" "Mon, 1 Jan 2024 11:00:00 +0000" \
		yes yes "[PATCH 0/1] $s: cover"
	mk_msg "$W/mail/$s-1" "$s-1@example.org" "Mon, 1 Jan 2024 11:01:00 +0000" \
		"$s-0@example.org" "yes $s-0@example.org" "[PATCH 1/1] $s: one" \
		"$(_patch_body "$s")"$'\n'
done
# one id twice (the first copy wins, with its own references), one
# message without an id, one with a ">From " body line
mk_msg "$W/mail/dup-a" dup@example.org "Mon, 1 Jan 2024 12:00:00 +0000" \
	r@example.org r@example.org "Re: [PATCH 0/2] widget: cover"
mk_msg "$W/mail/dup-b" dup@example.org "Mon, 1 Jan 2024 12:01:00 +0000" \
	u@example.org u@example.org "Re: another discussion"
mk_msg "$W/mail/noid" x "Mon, 1 Jan 2024 12:02:00 +0000" "" "" "no id"
sed -i '/^Message-ID/d' "$W/mail/noid"
mk_msg "$W/mail/from" from@example.org "Mon, 1 Jan 2024 12:03:00 +0000" \
	u2@example.org "u@example.org u2@example.org" "Re: another discussion" \
	"From here on, nothing.
>From there neither.
"
# real list mail, when this machine has the corpus (t1080)
if [ -d "$SHARED_DIR/corpora/lkml/cur" ]; then
	for f in "$SHARED_DIR"/corpora/lkml/cur/*; do
		cp "$f" "$W/mail/lkml-$(basename "$f" | tr -c 'A-Za-z0-9.\n' _)"
	done
fi

# the maildir: most in cur/ with flags, some in new/; the mbox (mboxrd):
# the same messages in another order
MD=$TRASH/md MB=$TRASH/all.mbox
mkdir -p "$MD/cur" "$MD/new" "$MD/tmp"
i=0
for f in "$W"/mail/*; do
	i=$((i + 1))
	if [ $((i % 4)) -eq 0 ]; then cp "$f" "$MD/new/$i.$$.host"
	else cp "$f" "$MD/cur/$i.$$.host:2,S"; fi
done
ls "$W"/mail/* | sort -r | while read -r f; do mboxrd_add "$MB" "$f"; done
total=$i
echo "# $total messages"

# every message as the target, but only every 15th of the corpus (210)
k=0
ids=$(for f in "$W"/mail/*; do
	case $f in */lkml-*) k=$((k + 1)); [ $((k % 15)) -eq 0 ] || continue ;; esac
	msgid_of "$f"
done | sort -u)
# under valgrind, every 16th run is checked under it and the rest natively
sample=1
[ "$LORE_AM_TOOL" = valgrind ] && sample=16
n=0 bad_md=0 bad_mb=0 bad_thread=0 bad_pipe=0 runs=0
for id in $ids; do
	n=$((n + 1))
	IDX_AM=$LORE_AM
	[ $((n % sample)) -eq 0 ] || IDX_AM=$LORE_AM_REAL
	idx_cmp "$TRASH/o" /dev/null -m "$MD" "$id" || bad_md=$((bad_md + 1))
	idx_cmp "$TRASH/o" /dev/null -m "$MB" "$id" || bad_mb=$((bad_mb + 1))
	idx_cmp "$TRASH/o" /dev/null --thread -m "$MD" -m "$MB" "$id" ||
		bad_thread=$((bad_thread + 1))
	runs=$((runs + 6))
done
# piped: the mail client's copy takes part in the walk
for f in "$W"/mail/*; do
	n=$((n + 1))
	[ $((n % 4)) -eq 0 ] || continue
	case $f in */lkml-*) [ $((n % 30)) -eq 0 ] || continue ;; esac
	IDX_AM=$LORE_AM
	[ $((n % sample)) -eq 0 ] || IDX_AM=$LORE_AM_REAL
	idx_cmp "$TRASH/o" "$f" -m "$MD" || bad_pipe=$((bad_pipe + 1))
	idx_cmp "$TRASH/o" "$f" --thread -m "$MB" || bad_pipe=$((bad_pipe + 1))
	runs=$((runs + 4))
done
unset IDX_AM
echo "# $runs runs"
is "$bad_md" 0 "maildir: every message as the target, indexed = --no-index"
is "$bad_mb" 0 "mbox: every message as the target, indexed = --no-index"
is "$bad_thread" 0 "--thread over both: indexed = --no-index"
is "$bad_pipe" 0 "piped messages: indexed = --no-index"

# the indexes hold every message of the folders
is "$(idx_sql "$MD" 'SELECT count(*) FROM msg')" "$total" "the maildir's index has a row per file"
is "$(idx_sql "$MB" 'SELECT count(*) FROM msg')" "$total" "the mbox's index has a row per message"

# the series comes out right through the index
v2p1=$(msgid_of "$W/v2/v2-0001-part-add-piece-1.patch")
"$LORE_AM" -m "$MD" "$v2p1" >"$TRASH/s.mbx" 2>"$TRASH/s.err"
is "$?" 0 "the v2 series from the indexed maildir"
apply_into "$TRASH/s.mbx" "$TRASH/applied" >/dev/null 2>&1
is "$(git -C "$TRASH/applied" rev-parse HEAD^{tree})" \
   "$(git -C "$TRASH/repo" rev-parse topic^{tree})" "git am of it gives the series' tree"

# only the thread is read: a message of another thread, changed in place
# (same name, so the folder looks unchanged), is not read again, while a
# plain scan sees it
victim=$(grep -l '^Message-ID: <u2@example.org>' "$MD"/cur/* "$MD"/new/* | head -1)
mk_msg "$TRASH/evil" u2@example.org "Mon, 1 Jan 2024 10:02:00 +0000" \
	r@example.org r@example.org "Re: [PATCH 0/2] widget: cover"
touch -r "$(dirname "$victim")" "$TRASH/dirstamp"
cat "$TRASH/evil" >"$victim"
touch -r "$TRASH/dirstamp" "$(dirname "$victim")"
"$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/t.i" 2>/dev/null
"$LORE_AM" --no-index --thread -m "$MD" r@example.org >"$TRASH/t.p" 2>/dev/null
check "the indexed run did not read the unrelated file" \
	sh -c "! grep -q '^Message-ID: <u2@' '$TRASH/t.i'"
check "the plain scan did" grep -q '^Message-ID: <u2@' "$TRASH/t.p"
mk_msg "$TRASH/good" u2@example.org "Mon, 1 Jan 2024 10:02:00 +0000" \
	u@example.org u@example.org "Re: another discussion"
rm "$victim" && cp "$TRASH/good" "$victim"
# (the folder changed: the unique name is known, nothing is re-read, so
# the row stays as it was, which is right for the same message)

# a flag change is a rename: the row is kept, not read again
f=$(ls "$MD/cur" | head -1)
uniq=${f%%:*}
idx_sql "$MD" "UPDATE msg SET subject = 'marker' WHERE uniq = '$uniq'"
mv "$MD/cur/$f" "$MD/cur/$uniq:2,RS"
sleep 0.1
idx_cmp "$TRASH/o" /dev/null --thread -m "$MD" r@example.org
ok $? "after a flag change, indexed = --no-index"
is "$(idx_sql "$MD" "SELECT name || ' ' || subject FROM msg WHERE uniq = '$uniq'")" \
   "$uniq:2,RS marker" "the renamed file kept its row"
# new/ -> cur/ is a rename too
g=$(ls "$MD/new" | head -1)
idx_sql "$MD" "UPDATE msg SET subject = 'marker2' WHERE uniq = '$g'"
mv "$MD/new/$g" "$MD/cur/$g:2,S"
idx_cmp "$TRASH/o" /dev/null --thread -m "$MD" r@example.org
is "$(idx_sql "$MD" "SELECT dir || ' ' || subject FROM msg WHERE uniq = '$g'")" \
   "0 marker2" "a move from new/ to cur/ kept its row"
# a delivery into new/ is read, and used
mk_msg "$TRASH/late" late@example.org "Mon, 1 Jan 2024 13:00:00 +0000" \
	e@example.org "r@example.org a@example.org c@example.org e@example.org" \
	"Re: [PATCH 1/2] widget: one"
cp "$TRASH/late" "$MD/new/late.$$.host"
"$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/t.i" 2>/dev/null
check "a new mail in new/ is in the indexed thread" \
	grep -q '^Message-ID: <late@example.org>' "$TRASH/t.i"

# mbox: an append is read from the last message on, rows before it stay
idx_sql "$MB" "UPDATE msg SET subject = 'first' WHERE off = 0"
mboxrd_add "$MB" "$TRASH/late"
idx_cmp "$TRASH/o" /dev/null --thread -m "$MB" r@example.org
ok $? "after an append, indexed = --no-index"
is "$(idx_sql "$MB" "SELECT subject FROM msg WHERE off = 0")" first \
   "the append kept the rows before it"
check "and the appended message is in the thread" \
	grep -q '^Message-ID: <late@example.org>' "$TRASH/o.i"
# a rewrite in the middle (one message dropped) rebuilds the rows
perl -0pi -e 's/\nFrom [^\n]*\n(?:(?!\nFrom ).)*?Message-ID: <c\@example\.org>.*?(?=\nFrom )//s' "$MB"
idx_cmp "$TRASH/o" /dev/null --thread -m "$MB" r@example.org
ok $? "after a rewrite in the middle, indexed = --no-index"
is "$(idx_sql "$MB" "SELECT count(*) FROM msg WHERE subject = 'first'")" 0 \
   "the rewrite rebuilt the rows"

# the default threshold: a small mailbox is read whole, with no index kept
cp "$MB" "$TRASH/small.mbox"
git config --global --unset lore-am.index-min-messages
"$LORE_AM" -q --thread -m "$TRASH/small.mbox" r@example.org >"$TRASH/s.i" 2>/dev/null
check "under lore-am.index-min-messages (default): no index is kept" \
	sh -c "test ! -e \"$(idx_db "$TRASH/small.mbox")\" && test -s \"$TRASH/s.i\""
"$LORE_AM" -q --no-index --thread -m "$TRASH/small.mbox" r@example.org >"$TRASH/s.p" 2>/dev/null
same_file "$TRASH/s.i" "$TRASH/s.p" "... and the run is the plain scan's"
git config --global lore-am.index-min-messages 0

done_testing
