#!/bin/bash
# --append under signals: SIGTERM, SIGINT or SIGHUP sent in the middle of
# the write wait until the mailbox is whole and unlocked; a SIGKILL there
# leaves a torn last message and the dotlock, and the next run takes the
# lock over (its process is gone), cuts the torn message off and appends
# the thread whole. A dotlock is taken over only when its holder is gone:
# a dead pid on this host, or older than 15 minutes.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-append.sh"

command -v perl >/dev/null || skip_all "perl not installed"
command -v flock >/dev/null || skip_all "flock(1) not installed"

plan 34

cd "$TRASH" || exit 1

# the 26 MB thread whose write the signals land in (lib-append.sh) and the
# reference, an append nothing stops
append_thread
is "$?:$(grep -c '^From ' ref.mbox)" "0:3001" "the reference: an append nothing stops"
full=$(stat -c %s ref.mbox)

for sig in TERM INT HUP; do
	append_at_write $sig $sig
	ok $? "SIG$sig: sent while the mailbox grew (at $(cut -d' ' -f3 $sig.res) of $full bytes)"
	num=$(kill -l $sig)
	is "$(cut -d' ' -f1,2 $sig.res)" "sig $num" "SIG$sig: lore-am still ends by the signal"
	same_file $sig.mbox ref.mbox "SIG$sig: the write was finished first: every message whole"
	test ! -e $sig.mbox.lock
	ok $? "SIG$sig: and the dotlock is gone"
done

# SIGKILL cannot wait: the write is cut
append_killed kill
ok $? "SIGKILL: sent while the mailbox grew"
size=$(stat -c %s kill.mbox)
test "$size" -lt "$full" -a "$size" -gt "$(stat -c %s base.mbox)"
ok $? "SIGKILL: the mailbox is torn ($size of $full bytes)"
pid=$(head -n 1 kill.mbox.lock 2>/dev/null)
is "$(sed -n 2p kill.mbox.lock 2>/dev/null)" "$(hostname)" \
	"SIGKILL: the dotlock stays, naming the dead process and this host"
"$LORE_AM" -q --append kill.mbox -m big.mbox m0@example.org 2>kill2.err
is "$?" 0 "the next run is not blocked by the dead process's lock"
grep -qx "lore-am: note: removed the stale lock 'kill.mbox.lock' (its process $pid is gone)" kill2.err
ok $? "... it says it took the lock over, in one line"
grep -qx "lore-am: note: cut 'kill.mbox' back to its last whole message ([0-9]* bytes of a message a killed run left half-written)" kill2.err
ok $? "... and that it cut the torn message off"
is "$(wc -l <kill2.err)" 2 "... and nothing else"
same_file kill.mbox ref.mbox "... then appended the rest: every message whole, none twice"
test ! -e kill.mbox.lock
ok $? "... and let go of the lock"

# a killed run's lock taken over while another program holds an flock:
# the journal must outlive the run that gives up
append_killed k3
torn=$(stat -c %s k3.mbox)
perl -MFcntl=:flock -e 'open(F, "<", $ARGV[0]) && flock(F, LOCK_EX) && sleep 30' k3.mbox &
holder=$!
at_exit "kill $holder 2>/dev/null"
# until it holds the flock (at most 5 s)
for i in $(seq 100); do flock -n k3.mbox true || break; sleep 0.05; done
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append k3.mbox -m big.mbox m0@example.org 2>k3.err
is "$?:$(stat -c %s k3.mbox)" "75:$torn" \
	"the stale lock taken, an flock held by another: exit 75, nothing touched"
grep -q '^append [0-9]' k3.mbox.lock 2>/dev/null
ok $? "... and the dotlock is left with the killed run's journal"
kill $holder; wait $holder 2>/dev/null
"$LORE_AM" -q --append k3.mbox -m big.mbox m0@example.org 2>k3b.err
grep -q "note: cut 'k3.mbox' back to its last whole message" k3b.err &&
	cmp -s k3.mbox ref.mbox
ok $? "... which the next run finds: the torn message cut, the thread whole"

# dotlocks left by others
dead=$(sh -c 'echo $$')
cp base.mbox d.mbox && echo "$dead" >d.mbox.lock
"$LORE_AM" -q --append d.mbox -m big.mbox m0@example.org 2>d.err
is "$?:$(grep -c '^From ' d.mbox)" "0:3001" "a dotlock whose pid is gone is taken over"
grep -qx "lore-am: note: removed the stale lock 'd.mbox.lock' (its process $dead is gone)" d.err
ok $? "... with one note that names it"
test ! -e d.mbox.lock
ok $? "... and removed after the append"

cp base.mbox h.mbox && printf '%s\nanother-host.example\n' "$dead" >h.mbox.lock
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append h.mbox -m big.mbox m0@example.org 2>h.err
is "$?:$(cat h.mbox.lock | head -n 1)" "75:$dead" \
	"a fresh dotlock from another host: its pid means nothing here, exit 75"
same_file h.mbox base.mbox "... the mailbox is unchanged"

cp base.mbox e.mbox && : >e.mbox.lock
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append e.mbox -m big.mbox m0@example.org 2>e.err
is "$?" 75 "a fresh dotlock without a pid (procmail's): waited for, exit 75"
touch -d '20 minutes ago' e.mbox.lock
"$LORE_AM" -q --append e.mbox -m big.mbox m0@example.org 2>e.err
is "$?:$(grep -c '^From ' e.mbox)" "0:3001" "... the same lock 20 minutes old is taken over"
grep -qx "lore-am: note: removed the stale lock 'e.mbox.lock' (it is 20 minutes old)" e.err
ok $? "... saying how old it was"

# a live holder (this shell) keeps its lock until it is 15 minutes old
cp base.mbox l.mbox && echo $$ >l.mbox.lock && touch -d '10 minutes ago' l.mbox.lock
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append l.mbox -m big.mbox m0@example.org 2>l.err
is "$?:$(cat l.mbox.lock)" "75:$$" "a live process's 10-minute-old lock is left alone"

done_testing
