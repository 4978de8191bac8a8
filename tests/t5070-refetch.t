#!/bin/bash
# b4 mbox -r MBOX (--refetch): every message of an mbox fetched again
# from the sources as they hold it (its original headers back), in the
# file's order; one no source knows kept as it was, with a warning; the
# file replaced whole, its mode kept; on failure left as it was. Real b4
# 0.12's mbox -r against the same public-inbox archive gives the same
# messages.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
plan 13

series_repo "$TRASH/repo" 2 >/dev/null || exit 1
fmt "$TRASH/repo" "$TRASH/p" --cover-letter || exit 1
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
# what a mail client left: headers rewritten, one mail of its own, one
# with no Message-ID
mangle() {
	sed -e 's/^Subject: \(.*\)/Subject: MANGLED \1/' -e '/^Date: /d' "$TRASH/t.mbox"
	printf 'From x@y Thu Jan  1 00:00:00 1970\nFrom: U <u@example.org>\nMessage-ID: <unknown@example.org>\nSubject: lone\n\nhi\n\n'
	printf 'From x@y Thu Jan  1 00:00:00 1970\nFrom: U <u@example.org>\nSubject: no id\n\nbody\n\n'
}
subjects() { grep '^Subject: ' "$1" | tr '\n' '|'; }
# the Subject of each message that has a List-Id (an archive's copy)
archived() {
	awk '/^From / { if (l) print s; l = 0; s = "" }
	     /^Subject: / && !s { s = $0 } /^List-Id: / { l = 1 }
	     END { if (l) print s }' "$1" | tr '\n' '|'
}
mangle >"$TRASH/m.mbox"
chmod 600 "$TRASH/m.mbox"
WANT="$(grep '^Subject: ' "$TRASH/t.mbox" | tr '\n' '|')Subject: lone|Subject: no id|"

lore m mbox -r "$TRASH/m.mbox" -m "$TRASH/t.mbox"
is "$(cat "$TRASH/m.rc"):$(wc -c <"$TRASH/m.out")" 0:0 "mbox -r MBOX -m SOURCE: exit 0, nothing on stdout"
is "$(subjects "$TRASH/m.mbox")" "$WANT" "... each message the source's copy, in the file's order"
is "$(grep -c '^Date: ' "$TRASH/m.mbox")" 3 "... its headers as sent (the Dates back)"
check "... the one no source knows kept, said" grep -qx \
	'lore-am: warning: <unknown@example.org> is known to no source: kept as it was' "$TRASH/m.err"
check "... the count said" grep -qx "Refetched 3 of the 5 messages of '$TRASH/m.mbox'" "$TRASH/m.err"
is "$(stat -c %a "$TRASH/m.mbox"):$(ls -A "$TRASH" | grep -c '^\.m\.mbox\|m\.mbox\.lock')" 600:0 \
	"... its mode kept, no temporary file or lock left"
"$LORE_AM" -q --thread -m "$TRASH/m.mbox" "$(msgid_of "$TRASH"/p/0001-*)" </dev/null >/dev/null
is "$?" 0 "... and lore-am reads the new file"

# the archive: a real public-inbox, beside real b4
pi_have_httpd || { skip_all "public-inbox-httpd not installed"; }
pi_serve list "$TRASH/t.mbox" >/dev/null 2>&1 || exit 1
mangle >"$TRASH/a.mbox"
cp "$TRASH/a.mbox" "$TRASH/b4.mbox"
lore a -C mbox -r "$TRASH/a.mbox"
is "$(cat "$TRASH/a.rc"):$(subjects "$TRASH/a.mbox")" "0:$WANT" \
	"mbox -r from the archive: its copies, in the file's order"
check "... as the archive holds them (its List-Id)" \
	test "$(grep -c '^List-Id: <list.example.org>' "$TRASH/a.mbox")" = 3
if command -v b4 >/dev/null; then
	git config --global b4.midmask "$PI_URL/list/%s"
	(cd "$TRASH" && b4 -q mbox -r b4.mbox >/dev/null 2>&1)
	# b4 0.12 leaves the old copies in the file too: its archive
	# copies (those with a List-Id) are compared
	is "$(archived "$TRASH/b4.mbox")" "$(archived "$TRASH/a.mbox")" \
		"... the copies real b4 mbox -r fetches, in the same order"
	is "$(grep -c '^List-Id: ' "$TRASH/b4.mbox"):$(grep -c '^Date: ' "$TRASH/b4.mbox")" \
		"$(grep -c '^List-Id: ' "$TRASH/a.mbox"):$(grep -c '^Date: ' "$TRASH/a.mbox")" \
		"... with the same headers back"
else
	skip "b4 not installed"
	skip "b4 not installed"
fi

free_port DOWN || exit 1
mangle >"$TRASH/d.mbox"
cp "$TRASH/d.mbox" "$TRASH/d.keep"
lore d -C -L "http://127.0.0.1:$DOWN/list" mbox -r "$TRASH/d.mbox"
is "$(cat "$TRASH/d.rc")" 75 "the archive down: exit 75"
same_file "$TRASH/d.mbox" "$TRASH/d.keep" "... the file left as it was"
