#!/bin/bash
# --thread: every message of the thread, in thread order, unchanged, as
# mboxrd on stdout or in DIR/<msgid-slug>.mbx; --no-parent; dedup across
# sources; the summary; and the refusals (exit status, nothing written).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-thread.sh"

plan 42

cd "$TRASH" || exit 1
small_thread w

# --- thread order, other threads left out ---
"$LORE_AM" --thread -m w/all.mbox c@example.org >out.mbox 2>err
is "$?" 0 "--thread exits 0"
is "$(entry_ids out.mbox | tr '\n' ' ')" \
	"r@example.org b@example.org d@example.org a@example.org c@example.org e@example.org " \
	"thread order: parents before replies, siblings by date"
grep -q '^Sources: mbox 6 messages$' err &&
	grep -q '^6 messages in the thread of <c@example.org>$' err
ok $? "summary: message count and source"
grep -q '^Wrote 6 messages to standard output$' err
ok $? "summary: where they went"

# --- every message comes back byte for byte ---
split_by_id out.mbox got
same=0
for m in r a b c d e; do
	# git mailsplit keeps the blank line that ends each mbox entry
	{ cat "w/$m.eml"; echo; } >want.eml
	cmp -s "got/$m@example.org" want.eml && same=$((same + 1))
done
is "$same" 6 "git mailsplit --mboxrd gives back each message unchanged"

# --- the same from a maildir; and -o DIR ---
maildir_add md w/r.eml w/a.eml w/b.eml w/c.eml w/d.eml w/e.eml w/u.eml
"$LORE_AM" -q --thread -m md -o outdir '<e@example.org>' >stdout 2>err
is "$?" 0 "-o DIR exits 0"
test -s stdout
ok $((! $?)) "-o DIR: nothing on stdout"
same_file outdir/e@example.org.mbx out.mbox \
	"-o DIR writes <msgid-slug>.mbx, the same mbox as from an mbox source"
printf 'old\n' >outdir/e@example.org.mbx
"$LORE_AM" -q --thread -m md -o outdir e@example.org 2>err
same_file outdir/e@example.org.mbx out.mbox "-o DIR again: the file is replaced"
is "$(ls -a outdir | tr '\n' ' ')" ". .. e@example.org.mbx " \
	"... and no temporary file is left"

# --- --no-parent ---
"$LORE_AM" --thread --no-parent -m w/all.mbox a@example.org >np.mbox 2>err
is "$?" 0 "--no-parent exits 0"
is "$(entry_ids np.mbox | tr '\n' ' ')" \
	"a@example.org c@example.org e@example.org " \
	"--no-parent: the thread starts at the given message"
grep -q 'Starting at <a@example.org>' err
ok $? "--no-parent: the summary says so"
"$LORE_AM" --thread --no-parent -m w/all.mbox b@example.org >np2.mbox 2>/dev/null
is "$(entry_ids np2.mbox | tr '\n' ' ')" "b@example.org d@example.org " \
	"--no-parent on the other branch"
"$LORE_AM" --thread --no-parent -m w/all.mbox r@example.org >np3.mbox 2>/dev/null
same_file np3.mbox out.mbox "--no-parent at the root: the whole thread"

# --- the message a mail client pipes in ---
{ echo "Status: RO"; cat w/a.eml; } >piped.eml
"$LORE_AM" --thread -m w/all.mbox <piped.eml >pipe.mbox 2>err
is "$?" 0 "piped message: exits 0"
same_file pipe.mbox out.mbox \
	"piped message names the thread; the sources' copy wins over the client's"
grep -q '^Sources: mbox 6 messages$' err
ok $? "piped duplicate not counted as a source"
mk_msg new.eml n@example.org "Mon, 1 Jan 2024 11:00:00 +0000" \
	e@example.org "r@example.org a@example.org c@example.org e@example.org" \
	"Re: [PATCH 1/2] widget: one"
"$LORE_AM" --thread -m w/all.mbox <new.eml >new.mbox 2>err
is "$(entry_ids new.mbox | tail -1)" "n@example.org" \
	"a piped message the sources lack is part of the thread"
grep -q '^Sources: mbox 6 messages, stdin 1 message$' err
ok $? "summary names both sources"

# --- dedup across sources ---
rm -f half.mbox
mboxrd_add half.mbox w/r.eml w/a.eml w/c.eml
"$LORE_AM" --thread -m half.mbox -m md -m w/all.mbox e@example.org >dd.mbox 2>err
is "$?" 0 "three overlapping sources: exits 0"
is "$(entry_ids dd.mbox | sort | uniq -d | wc -l)" 0 "no message twice"
same_file dd.mbox out.mbox "three overlapping sources give the same thread"

# --- a generated review thread with real git format-patch mails ---
id=$("$SRC_DIR/bench/gen-thread.sh" --preset small -s 3 -o gen.mbox)
"$LORE_AM" -q --thread -m gen.mbox "$id" >gen-out.mbox
is "$?" 0 "generated thread: exits 0"
is "$(entry_ids gen-out.mbox | wc -l)" 26 "generated thread: all 26 messages"
split_by_id gen.mbox gen-src
split_by_id gen-out.mbox gen-got
diff -r gen-src gen-got >/dev/null
ok $? "generated thread: every message byte-identical after git mailsplit --mboxrd"
grep -c '^>From ' gen-out.mbox >/dev/null
ok $? "generated thread: body From lines are quoted"
"$LORE_AM" -q --thread -m gen-out.mbox "$id" >gen-again.mbox
same_file gen-again.mbox gen-out.mbox "reading our own output back is a fixed point"

# --- refusals: clear error, exit status, nothing written ---
"$LORE_AM" --thread -P 1-2 -m w/all.mbox r@example.org >o 2>e
is "$?" 2 "--thread with --cherry-pick: usage error"
grep -q 'does not go with --thread' e && ! test -s o
ok $? "... said once, nothing on stdout"
"$LORE_AM" --thread -m w/all.mbox nowhere@example.org >o 2>e
is "$?" 1 "unknown message: exit 1"
grep -q 'lore-am: message <nowhere@example.org> is not in w/all.mbox' e &&
	! test -s o
ok $? "... named, nothing on stdout"
"$LORE_AM" --thread -m w/all.mbox </dev/null >o 2>e
is "$?" 2 "--thread without a message: usage error"
grep -q -- '--thread needs a message' e
ok $? "... and says what is missing"
"$LORE_AM" --maildir x -o y -m w/all.mbox r@example.org >o 2>e
is "$?" 2 "-o with --maildir: usage error"
test ! -e x && test ! -e y
ok $? "... nothing created"
"$LORE_AM" --seen --thread -m w/all.mbox r@example.org >o 2>e
is "$?" 2 "--seen without --maildir: usage error"
: >afile
"$LORE_AM" -q --thread -m w/all.mbox -o afile/sub r@example.org 2>e
is "$?" 74 "-o under a regular file: output error"
grep -q "lore-am: cannot create folder 'afile/sub'" e
ok $? "... named in the error"
# a write that fails half-way (file size limit) leaves the old file as it was
mkdir fail && printf 'old\n' >"fail/$id.mbx"
(trap '' XFSZ; ulimit -f 8; "$LORE_AM" -q --thread -m gen.mbox -o fail "$id" 2>e)
is "$?" 74 "-o: a write that fails half-way exits 74"
is "$(cat "fail/$id.mbx"):$(ls -a fail | wc -l)" "old:3" \
	"... the old file is unchanged and no temporary file is left"
grep -q "lore-am: cannot write 'fail/$id.mbx'" e
ok $? "... and the error names the file"
done_testing
