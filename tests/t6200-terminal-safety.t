#!/bin/bash
# Terminal safety and the Trojan Source defence: whatever a mail holds,
# what lore-am prints on stderr has no control or escape characters, and a
# patch that hides code behind Unicode bidi or zero-width controls is
# refused (as b4 does) unless --allow-unicode-control-chars is given.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hostile.sh"

plan 19
hostile_thread || { echo "Bail out! cannot generate the thread"; exit 1; }
cd "$TRASH" || exit 1

# no C0 control but LF, no DEL, no C1 (raw or UTF-8), no bidi or
# zero-width format character in FILE
clean_text() {
	perl -ne '
		exit 1 if /[\x00-\x09\x0b-\x1f\x7f]/;
		exit 1 if /\xc2[\x80-\x9f]/ || /\xe2\x80[\x8b-\x8f\xaa-\xae]/ ||
			/\xe2\x81[\xa6-\xa9]/;
		if (!utf8::decode($_)) { exit 1 }' "$1"
}

# -- what reaches the terminal ----------------------------------------------
cp "$THREAD" term.mbox
"$MAIL_EDIT" term.mbox "$P1" "set_header('Subject', '[PATCH 1/5] $(b64w 'title\x1b]0;owned\x07 \x1b[2J\xc2\x9b31m \xe2\x80\xaeevil')')"
"$MAIL_EDIT" term.mbox "$P2" 's/^(Subject: [^\n]*)/$1 raw \x9b\x1b[5m 8-bit/m'
printf 'From: %s <evil@example.org>\nSubject: Re: [PATCH 3/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <mismatch@example.org>\nIn-Reply-To: <%s>\n\nReviewed-by: \x1b[31mSomeone Else\x1b[0m <else@example.org>\n' \
	"$(b64w 'Ev\x1b[8mil\x07')" "$P3" | "$MAIL_EDIT" term.mbox --add
"$LORE_AM" -m term.mbox --allow-unicode-control-chars "$COVER" </dev/null \
	>term.out 2>term.err
is "$?" 0 "escape sequences in subjects and names: written"
grep -q "title" term.err && grep -q "NOTE: some trailers ignored" term.err
ok $? "the summary shows the subjects and the refused trailer"
clean_text term.err
ok $? "the summary holds no control, escape or bidi character"
grep -q '?' term.err
ok $? "they are shown as '?'"

lore escarg -m "$THREAD" $'\x1b]0;owned\x07@x\x1b[2J'
refused escarg 2 "'\\?\\]0;owned\\?@x\\?\\[2J' is not a Message-ID" \
	"an argument with escapes: refused, echoed without them"
clean_text escarg.err
ok $? "and the error line is clean"

printf 'From: %s <x@example.org>\nSubject: %s\n\nbody\n' \
	"$(b64w '\x1b[2J')" "$(b64w 'no id \x1b]0;t\x07')" >noid.eml
lore noid -m "$THREAD" <noid.eml
refused noid 2 "standard input: the message has no usable Message-ID" \
	"a message without id: the error names no mail text"

# -- Trojan Source --------------------------------------------------------------
trojan() { # trojan NAME MSGID PERL-SUBSTITUTION
	cp "$THREAD" "$1.mbox"
	"$MAIL_EDIT" "$1.mbox" "$2" "$3"
	lore "$1" -m "$1.mbox" "$COVER" </dev/null
}
# U+202E RIGHT-TO-LEFT OVERRIDE inside an added line of code
trojan rlo "$P2" 's/^(\+[^\n]*)$/$1 \/* \xe2\x80\xae } \xe2\x81\xa6 *\//m'
refused rlo 2 "<$P2> holds the Unicode control character U\\+202E on line [0-9]+ of its am-ready text: refused, nothing written \(--allow-unicode-control-chars accepts it\)" \
	"a bidi override in the diff: exit 2, nothing written"
lore rlo-allowed --allow-unicode-control-chars -m rlo.mbox "$COVER" </dev/null
is "$RC" 0 "--allow-unicode-control-chars writes it"
grep -q $'\xe2\x80\xae' rlo-allowed.out
ok $? "with the character kept"

# bidi isolate next to Arabic letters: b4 lets the letters excuse it, not
# in a diff
trojan rli "$P3" 's/^(\+[^\n]*)$/$1 \/* \xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a\xd8\xa9 \xe2\x81\xa7 *\//m'
refused rli 2 "<$P3> holds the Unicode control character U\\+2067" \
	"a bidi isolate beside Arabic letters in the diff: still refused"

# zero-width space in an ASCII line of the commit message
trojan zwsp "$P4" 's/^(Signed-off-by: )/Fixes: abc\xe2\x80\x8bdef\n$1/m'
refused zwsp 2 "<$P4> holds the Unicode control character U\\+200B" \
	"a zero-width space in an ASCII line: refused"

# U+202E in the subject: b4 does not look there, lore-am does
trojan subjrlo "$P5" 's/^(Subject: [^\n]*)/$1 \xe2\x80\xaetxt.exe/m'
refused subjrlo 2 "<$P5> holds the Unicode control character U\\+202E on line [0-9]+ " \
	"a bidi override in the subject: refused"

# legitimate: a zero-width non-joiner inside Persian text of the message
trojan zwnj "$P1" 's/^(Signed-off-by: )/Thanks: \xd9\x85\xdb\x8c\xe2\x80\x8c\xd8\xae\xd9\x88\xd8\xa7\xd9\x87\xd9\x85\n\n$1/m'
is "$RC" 0 "a ZWNJ in Persian words (letters of category Lo) is accepted"
grep -q $'\xe2\x80\x8c' zwnj.out
ok $? "and kept"

# -- replies are not patches ----------------------------------------------------
cp "$THREAD" replyctl.mbox
printf 'From: Bi Di <bidi@example.org>\nSubject: Re: [PATCH 1/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <bidi@example.org>\nIn-Reply-To: <%s>\nContent-Type: text/plain; charset=utf-8\n\nLooks \xe2\x80\xaeodd\n\nReviewed-by: Bi Di <bidi@example.org>\n' "$P1" |
	"$MAIL_EDIT" replyctl.mbox --add
lore replyctl -m replyctl.mbox "$COVER" </dev/null
is "$RC" 0 "a bidi control in a reply's prose does not stop the series"
grep -q "^Reviewed-by: Bi Di <bidi@example.org>" replyctl.out
ok $? "and its trailer is added"

# -- NUL, C0 controls in a commit message -----------------------------------
trojan c0 "$P1" 's/^(Signed-off-by: )/Note: bell \x07 and escape \x1b[31m here\n\n$1/m'
is "$RC" 0 "C0 controls in a commit message are not Trojan Source: written"
clean_text c0.err
ok $? "and nothing of them reaches the terminal"
done_testing
