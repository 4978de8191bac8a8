#!/bin/bash
# --append killed in its write (SIGKILL), then another program appends a
# whole message the way procmail does when it is set up without a lockfile
# (fcntl locks only, as Dovecot and Postfix can be set up, or after a user
# removed a stale dotlock by hand): the next --append proves, block by
# block against the killed run's journal, which bytes are that run's own;
# it blanks its half-written message out in place and keeps everything
# else, so that the other program's message stays whole and a message of
# its own for every mail reader.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-append.sh"

for p in perl procmail formail; do
	command -v $p >/dev/null || skip_all "$p not installed"
done

plan 18

cd "$TRASH" || exit 1
append_thread
printf 'From other@example.net Tue Jan  2 00:00:00 2024\nFrom: Other <other@example.net>\nSubject: not part of the thread\nMessage-ID: <other@example.net>\n\nDelivered by procmail while the dotlock was stale.\n' >other.eml

# deliver NAME: procmail appends other.eml to NAME.mbox without a lockfile
deliver() {
	printf ':0\n%s\n' "$TRASH/$1.mbox" >"$1.rc"
	procmail -m "$1.rc" <other.eml
}

append_killed k
ok $? "SIGKILL: sent while the mailbox grew (at $(cut -d' ' -f3 k.res) bytes)"
torn=$(stat -c %s k.mbox)
deliver k
is "$?:$(stat -c %s k.mbox)" "0:$((torn + $(stat -c %s other.eml) + 1))" \
	"procmail, without a lockfile, appended a whole message after the torn one"
cp k.mbox r.mbox && cp k.mbox.lock r.mbox.lock
"$LORE_AM" -q --append k.mbox -m big.mbox m0@example.org 2>k2.err
is "$?" 0 "the next --append: exit 0"
grep -q "^lore-am: note: blanked out in 'k.mbox' the [0-9]* bytes of a message a killed run left half-written; the $(($(stat -c %s other.eml) + 1)) bytes after them (mail another program appended) are kept$" k2.err
ok $? "... one note: the half-written message blanked out, the other mail kept"
is "$(wc -l <k2.err)" 2 "... after the stale lock's note, nothing else"

# the other program's message, as mail readers split the mailbox
mkdir split && git mailsplit -osplit k.mbox >k.count
is "$(cat k.count)" 3003 \
	"git mailsplit finds the thread, the other message and one blanked-out message"
printf '\n' | cat other.eml - >other.split
same_file "$(grep -l '^Message-ID: <other@example.net>' split/*)" other.split \
	"... the other program's message whole, byte for byte, a message of its own"
# formail (one process a message) on the part around the tear
from=$(grep -b -m 1 '^From MAILER-DAEMON ' k.mbox | cut -d: -f1)
tail -c +$((from + 1)) k.mbox | head -c $((torn + $(stat -c %s other.eml) + 1 - from)) >tear.mbox
formail -s sh -c 'cat >"$0/tear.$FILENO"' "$TRASH" <tear.mbox
is "$(ls tear.0* | wc -l)" 2 "formail: the blanked-out message, then the other one"
same_file tear.001 other.split "... whole"
is "$(grep -c '^Message-ID: <m[0-9]*@example.org>' k.mbox)" 3000 \
	"every message of the thread is there once: the torn copy has no Message-ID"
"$LORE_AM" -q --thread -m k.mbox m0@example.org >k.thread 2>/dev/null
"$LORE_AM" -q --thread -m ref.mbox m0@example.org >ref.thread 2>/dev/null
same_file k.thread ref.thread "read back, the thread is whole: the torn message was appended again"
test ! -e k.mbox.lock
ok $? "the lock is let go"

# a repair killed while it blanked the message out: its journal, with the
# span being blanked out, stays in the lock, and the next run finishes it
blanked=$(sed -n "s/.*blanked out in 'k.mbox' the \([0-9]*\) bytes.*/\1/p" k2.err)
printf 'From MAILER-DAEMON Thu' | dd of=r.mbox bs=1 seek=$((torn - blanked)) conv=notrunc 2>/dev/null
echo "isolate $((torn - blanked)) $torn" >>r.mbox.lock
"$LORE_AM" -q --append r.mbox -m big.mbox m0@example.org 2>r.err
grep -q "^lore-am: note: blanked out in 'r.mbox' the $blanked bytes of a message a killed run left half-written (a repair killed before it was done)$" r.err
ok $? "a repair killed halfway is finished by the next run, which says so"
same_file r.mbox k.mbox "... with the same mailbox as a repair nothing stopped"

# bytes that are no mail after the torn write: not provably the killed
# run's, so kept as they are; its own half-written bytes are blanked out
append_killed g
ok $? "SIGKILL again (at $(cut -d' ' -f3 g.res) bytes)"
printf 'no From_ line: not the killed run'"'"'s, and not mail either\n' >>g.mbox
"$LORE_AM" -q --append g.mbox -m big.mbox m0@example.org 2>g2.err
grep -q "the [0-9]* bytes after them are kept as they are (not provably that run's)" g2.err &&
	grep -q "^no From_ line: not the killed run's" g.mbox
ok $? "bytes that are not mail after it are kept as they are, and said so"
is "$(grep -c '^Message-ID: <m[0-9]*@example.org>' g.mbox)" 3000 \
	"... and the thread is there whole, once"

# a journal is believed only from a lock of our own user: in a shared mail
# folder, another user's lock must not make us change what they may not
if [ "$(id -u)" = 0 ]; then
	append_killed u
	cp u.mbox u.before
	chown nobody u.mbox.lock
	"$LORE_AM" -q --append u.mbox -m big.mbox m0@example.org 2>u.err
	! grep -q "cut\|blanked" u.err &&
		cmp -s -n "$(stat -c %s u.before)" u.mbox u.before
	ok $? "a killed run's journal in another user's lock: nothing is cut or blanked"
else
	skip "not root: cannot give the lock to another user"
fi

done_testing
