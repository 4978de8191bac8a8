# lib-append.sh - a big thread to --append and a signal (SIGKILL, SIGTERM...)
# in its write (source after lib.sh, in $TRASH).
#
#   append_thread
#       big.mbox: 3000 messages of 8 KiB (26 MB), all replies to
#       <m0@example.org>, so that a signal sent when the mailbox starts to
#       grow lands in the write; base.mbox: one old message; ref.mbox:
#       base.mbox with the thread appended by a run nothing stopped.
#   append_at_write SIG NAME
#       NAME.mbox, a copy of base.mbox, with the thread appended by a run
#       sent SIG when the mailbox started to grow (tried again, at most 5
#       times, until the signal landed in the write, before the mailbox
#       was whole); NAME.res is "STATUS SIZE-AT-SIGNAL"
#       (tests/kill-at-write.pl). False when it never landed.
#   append_killed NAME
#       append_at_write KILL NAME.

append_thread() {
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
		}' >big.mbox &&
	printf 'From a@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <old@example.org>\n\nAn old message.\n\n' >base.mbox &&
	cp base.mbox ref.mbox &&
	"$LORE_AM" -q --append ref.mbox -m big.mbox m0@example.org
}

append_at_write() {
	local i res full
	full=$(stat -c %s ref.mbox)
	for i in 1 2 3 4 5; do
		rm -f "$2.mbox.lock"
		cp base.mbox "$2.mbox"
		perl "$TEST_DIR/kill-at-write.pl" "$1" "$2.mbox" "$2.err" \
			"$LORE_AM" -q --append "$2.mbox" -m big.mbox m0@example.org \
			>"$2.res"
		res=$(cut -d' ' -f3 "$2.res")
		[ "$res" != none ] && [ "$res" -lt "$full" ] && return 0
	done
	return 1
}

append_killed() {
	append_at_write KILL "$1"
}
