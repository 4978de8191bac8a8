#!/bin/bash
# t4010-notmuch-locked.t - a notmuch database that another process writes.
# A real notmuch writer holding the Xapian write lock must not stop -N (a
# Xapian reader sees the last commit); a database that cannot be read (as
# while `notmuch compact` swaps its Xapian folder) is retried for a while,
# then reported busy with exit 75 and nothing written.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 11

gen_thread || exit 1
nm_maildir "$TRASH/mail" "$mbox" || exit 1
"$LORE_AM" -q -m "$mbox" "$cover" >"$TRASH/ref.mbx" 2>/dev/null

# `notmuch tag --batch` opens the database read-write, so holds the write
# lock, and then waits for tag lines on its standard input: a FIFO we keep
# open until we are done.
mkfifo "$TRASH/fifo"
notmuch tag --batch <"$TRASH/fifo" >"$TRASH/writer.out" 2>&1 &
writer=$!
at_exit "kill $writer 2>/dev/null; wait $writer 2>/dev/null"
exec 7>"$TRASH/fifo"

# is the write lock held? another writer then cannot get it (it waits)
lock_held() {
	timeout 1 notmuch tag +probe -- "id:$p2" >/dev/null 2>&1
	[ $? -eq 124 ]
}
held=1
for _ in 1 2 3 4 5; do
	lock_held && { held=0; break; }
done
ok $held "a real notmuch writer holds the database's write lock"

"$LORE_AM" -N "$p2" >"$TRASH/out.mbx" 2>"$TRASH/err"
is "$?" 0 "-N reads the database while the writer holds the lock"
same_file "$TRASH/out.mbx" "$TRASH/ref.mbx" "the full series"
check "the writer still held the lock all along" lock_held
exec 7>&-
wait "$writer"
is "$?" 0 "the writer ends cleanly once its input closes"

# the Xapian folder swapped out, as `notmuch compact` does
x=$NM_MAIL/.notmuch/xapian
mv "$x" "$x.real" && mkdir "$x"
"$LORE_AM" -N "$p2" >"$TRASH/busy.mbx" 2>"$TRASH/busy.err"
is "$?" 75 "an unreadable database: exit 75 after retrying"
check "a clear one-line message" \
	grep -qx "lore-am: the notmuch database stayed busy for 2.0 s (.*); try again when notmuch new is done" \
	"$TRASH/busy.err"
is "$(wc -l <"$TRASH/busy.err")" 1 "and nothing else on stderr"
check "nothing on stdout" test ! -s "$TRASH/busy.mbx"

# the database comes back while lore-am retries: it then succeeds
"$LORE_AM" -q -N "$p2" >"$TRASH/late.mbx" 2>"$TRASH/late.err" &
reader=$!
at_exit "kill $reader 2>/dev/null"
sleep 0.4
mv -T "$x.real" "$x"
wait "$reader"
is "$?" 0 "a database readable again within the retry time is read"
same_file "$TRASH/late.mbx" "$TRASH/ref.mbx" "the full series, after the retry"
done_testing
