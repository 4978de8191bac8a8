#!/bin/bash
# --append under signals: SIGTERM, SIGINT or SIGHUP sent in the middle of
# the write wait until the mailbox is whole and unlocked; a SIGKILL there
# leaves a torn last message and the dotlock, and the next run takes the
# lock over (its process is gone), cuts the torn message off and appends
# the thread whole. A dotlock is taken over only when its holder is gone:
# a dead pid on this host, or older than 15 minutes.
. "$(dirname "$0")/lib.sh"

command -v perl >/dev/null || skip_all "perl not installed"
command -v flock >/dev/null || skip_all "flock(1) not installed"

plan 34

cd "$TRASH" || exit 1

# a thread big enough (26 MB) that a signal sent when the mailbox starts
# to grow lands in the write: 3000 messages of 8 KiB, all replies to m0
perl -e '
	for my $i (0 .. 2999) {
		print "From p$i\@example.org Mon Jan  1 00:00:00 2024\n",
		      "From: Person $i <p$i\@example.org>\n",
		      "Subject: ", ($i ? "Re: " : ""), "a long discussion\n";
		printf "Date: Mon, 1 Jan 2024 %02d:%02d:%02d +0000\n",
		       10 + int($i / 3600), int($i / 60) % 60, $i % 60;
		print "Message-ID: <m$i\@example.org>\n";
		print "In-Reply-To: <m0\@example.org>\n" if $i;
		print "\nline $_ of message $i: ", "x" x 60, "\n" for 1 .. 100;
		print "\n";
	}' >big.mbox
printf 'From a@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <old@example.org>\n\nAn old message.\n\n' >base.mbox
cp base.mbox ref.mbox
"$LORE_AM" -q --append ref.mbox -m big.mbox m0@example.org
is "$?:$(grep -c '^From ' ref.mbox)" "0:3001" "the reference: an append nothing stops"
full=$(stat -c %s ref.mbox)

# at_write SIG NAME: append the thread to a copy of base.mbox (NAME.mbox),
# SIG sent when it starts to grow; NAME.res is "STATUS SIZE-AT-SIGNAL".
# Tried again (at most 5 times) when the signal did not land in the write.
at_write() {
	local i
	for i in 1 2 3 4 5; do
		rm -f "$2.mbox.lock"
		cp base.mbox "$2.mbox"
		perl "$TEST_DIR/kill-at-write.pl" "$1" "$2.mbox" "$2.err" \
			"$LORE_AM" -q --append "$2.mbox" -m big.mbox m0@example.org \
			>"$2.res"
		set -- "$1" "$2" $(cat "$2.res")
		[ "$5" != none ] && [ "$5" -lt "$full" ] && return 0
		set -- "$1" "$2"
	done
	return 1
}

for sig in TERM INT HUP; do
	at_write $sig $sig
	ok $? "SIG$sig: sent while the mailbox grew (at $(cut -d' ' -f3 $sig.res) of $full bytes)"
	num=$(kill -l $sig)
	is "$(cut -d' ' -f1,2 $sig.res)" "sig $num" "SIG$sig: lore-am still ends by the signal"
	same_file $sig.mbox ref.mbox "SIG$sig: the write was finished first: every message whole"
	test ! -e $sig.mbox.lock
	ok $? "SIG$sig: and the dotlock is gone"
done

# SIGKILL cannot wait: the write is cut
at_write KILL kill
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
at_write KILL k3
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
