#!/bin/bash
# --stdin-pipe-sep SEP (b4's): several mails on standard input with SEP
# between them (a mail client piping tagged messages, mutt's pipe_split)
# are the mailbox the thread comes from; the target is the first mail's,
# or the one named. Real b4 0.12's am -m - --stdin-pipe-sep writes the
# same bytes.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 10

R=$TRASH/repo
P=$TRASH/p
series_repo "$R" 2 >/dev/null || exit 1
fmt "$R" "$P" --cover-letter || exit 1
reply "$TRASH/review" "$P"/0001-* "Rita Reviewer <rita@example.net>" \
	"Reviewed-by: Rita Reviewer <rita@example.net>"
C0=$(msgid_of "$P"/0000-*)
P2=$(msgid_of "$P"/0002-*)
# as mutt pipes them with pipe_sep="\n=====\n": the separator between
for f in "$P"/0000-* "$P"/0001-* "$TRASH/review" "$P"/0002-*; do
	[ -s "$TRASH/piped" ] && printf '\n=====\n' >>"$TRASH/piped"
	cat "$f" >>"$TRASH/piped"
done
SEP='\n=====\n'

"$LORE_AM" --stdin-pipe-sep "$SEP" <"$TRASH/piped" >"$TRASH/a.mbx" 2>"$TRASH/a.err"
is "$?:$(grep -c '^Subject:' "$TRASH/a.mbx")" 0:2 "--stdin-pipe-sep: the series from the mails piped"
is "$(grep -c '^Reviewed-by: Rita' "$TRASH/a.mbx")" 1 "... the review among them folded in"
check "... they were the source" grep -q '^Sources: stdin 4 messages' "$TRASH/a.err"
check "... git am applies it" apply_into "$TRASH/a.mbx" "$TRASH/a-repo"

"$LORE_AM" -m - --stdin-pipe-sep "$SEP" <"$TRASH/piped" >"$TRASH/b.mbx" 2>/dev/null
same_file "$TRASH/b.mbx" "$TRASH/a.mbx" "b4's -m - with it: the same"

"$LORE_AM" --stdin-pipe-sep "$SEP" "$P2" <"$TRASH/piped" >"$TRASH/c.mbx" 2>/dev/null
same_file "$TRASH/c.mbx" "$TRASH/a.mbx" "a MSGID named among them: the same series"

if command -v b4 >/dev/null; then
	git init -q "$TRASH/b4r" && git -C "$TRASH/b4r" config b4.attestation-policy off
	(cd "$TRASH/b4r" && b4 -q -n am -m - --stdin-pipe-sep "$SEP" -o - \
		<"$TRASH/piped" >"$TRASH/b4.mbx" 2>/dev/null)
	same_file "$TRASH/a.mbx" "$TRASH/b4.mbx" "byte for byte what b4 am -m - --stdin-pipe-sep writes"
else
	skip "b4 not installed"
fi

"$LORE_AM" --stdin-pipe-sep "" <"$TRASH/piped" >"$TRASH/e.out" 2>"$TRASH/e.err"
is "$?:$(wc -c <"$TRASH/e.out"):$(cat "$TRASH/e.err")" \
	"2:0:lore-am: --stdin-pipe-sep takes a separator that is not empty" \
	"an empty separator: refused in one line"
printf 'no mail\n=====\nnone here either\n' |
	"$LORE_AM" --stdin-pipe-sep '=====' >"$TRASH/n.out" 2>"$TRASH/n.err"
is "$?:$(wc -c <"$TRASH/n.out")" 2:0 "no mail with a Message-ID: exit 2, nothing written"
check "... said in one line" grep -qx 'lore-am: standard input: no mail with a Message-ID between the --stdin-pipe-sep separators' "$TRASH/n.err"
