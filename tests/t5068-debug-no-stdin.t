#!/bin/bash
# b4's global -d (--debug) and --no-stdin. -d says on stderr what the
# run does: the command, each source asked and what it gave, and why
# this revision (--explain's lines); stdout is what it is without it.
# --no-stdin never reads standard input, even when it is no terminal:
# the Message-ID comes from the command line (b4 refuses too).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
plan 12

series_repo "$TRASH/repo" 2 >/dev/null || exit 1
fmt "$TRASH/repo" "$TRASH/p" --cover-letter || exit 1
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
ID=$(msgid_of "$TRASH"/p/0001-*)
printf 'From: Other <o@example.org>\nMessage-ID: <other@example.org>\nSubject: unrelated\n\nhello\n' >"$TRASH/other.eml"

lore plain -m "$TRASH/t.mbox" "$ID"
lore dbg -d -m "$TRASH/t.mbox" "$ID"
same_file "$TRASH/dbg.out" "$TRASH/plain.out" "-d: the same series on stdout"
check "... the run and the source asked, what it gave" grep -qx \
	"lore-am: debug: $TRASH/t.mbox (mbox) asked for <$ID>: 3 messages added" "$TRASH/dbg.err"
check "... and why this revision (--explain's lines)" \
	grep -q '^  v1: chosen, the latest revision in the thread' "$TRASH/dbg.err"
lore dq -d -q -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/dq.rc"):$(grep -vc '^lore-am: debug: ' "$TRASH/dq.err"):$(grep -c '^lore-am: debug: ' "$TRASH/dq.err")" \
	"0:0:2" "-d -q: the debug lines alone"
lore word -d am -o - -m "$TRASH/t.mbox" "$ID"
same_file "$TRASH/word.out" "$TRASH/plain.out" "-d before b4's word am, as b4 takes it"
if command -v b4 >/dev/null; then
	git -C "$TRASH/repo" config b4.attestation-policy off
	(cd "$TRASH/repo" && b4 -d am -o - -m "$TRASH/t.mbox" "$ID" \
		>"$TRASH/b4.out" 2>"$TRASH/b4.err")
	same_file "$TRASH/word.out" "$TRASH/b4.out" "... the series real b4 -d am writes"
else
	skip "b4 not installed"
fi

# a mail on stdin that is not the thread's: read, it is the target
lore_in piped "$TRASH/other.eml" -m "$TRASH/t.mbox"
is "$(cat "$TRASH/piped.rc")" 1 "stdin not a terminal: its mail is the target (not in the mailbox: exit 1)"
{ "$LORE_AM" --no-stdin -m "$TRASH/t.mbox" >"$TRASH/ns.out" 2>"$TRASH/ns.err"
  echo $? >"$TRASH/ns.rc"; cat >"$TRASH/left"; } <"$TRASH/other.eml"
same_file "$TRASH/ns.out" "$TRASH/plain.out" "--no-stdin -m MBOX: the mailbox's series, stdin not asked"
same_file "$TRASH/left" "$TRASH/other.eml" "... standard input left unread"
lore_in none "$TRASH"/p/0001-* --no-stdin
fails none 2 "--no-stdin: give the MSGID or URL on the command line" \
	"--no-stdin, a mail piped, no MSGID: refused in one line, exit 2"
if command -v b4 >/dev/null; then
	(cd "$TRASH/repo" && b4 --no-stdin am -o - <"$TRASH"/p/0001-* \
		>"$TRASH/b4n.out" 2>"$TRASH/b4n.err")
	is "$?:$(wc -c <"$TRASH/b4n.out")" "1:0" "... b4 --no-stdin refuses it too"
else
	skip "b4 not installed"
fi
lore dash --no-stdin -m - "$ID"
fails dash 2 "--no-stdin: -m - reads standard input" "--no-stdin with -m -: refused in one line"
