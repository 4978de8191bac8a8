#!/bin/bash
# b4 mbox -r of a maildir: each message file of cur/ and new/ replaced by
# the sources' copy (tmp/, then renamed over it: its name and flags kept),
# one that is the same already not written, one no source knows kept with
# a warning, one without a Message-ID kept; the archive down: every file
# as it was. Real b4 0.12's mbox -r on the same maildir against the same
# public-inbox archive fetches the same copies.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
plan 11

series_repo "$TRASH/repo" 2 >/dev/null || exit 1
fmt "$TRASH/repo" "$TRASH/p" --cover-letter || exit 1
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
# what a mail client left: headers rewritten (the cover as sent), one mail
# of its own, one with no Message-ID; flags in the names
maildir() {
	rm -rf "$1" && mkdir -p "$1/cur" "$1/new" "$1/tmp"
	i=0
	for f in "$TRASH"/p/*.patch; do
		i=$((i + 1))
		case $f in
		*/0000-*) sed 1d "$f" >"$1/cur/$i.host:2,S" ;;
		*) sed -e 1d -e 's/^Subject: \(.*\)/Subject: MANGLED \1/' \
			-e '/^Date: /d' "$f" >"$1/cur/$i.host:2,RS" ;;
		esac
	done
	printf 'From: U <u@example.org>\nMessage-ID: <unknown@example.org>\nSubject: lone\n\nhi\n' >"$1/new/8.host"
	printf 'From: U <u@example.org>\nSubject: no id\n\nbody\n' >"$1/new/9.host"
}
subjects() { cat "$1"/cur/* "$1"/new/* | grep '^Subject: ' | tr '\n' '|'; }
names() { (cd "$1" && ls cur new tmp) | tr '\n' ' '; }
WANT="$(grep '^Subject: ' "$TRASH/t.mbox" | tr '\n' '|')Subject: lone|Subject: no id|"

maildir "$TRASH/md"
before=$(names "$TRASH/md")
cover_ino=$(stat -c %i "$TRASH"/md/cur/1.*)
lore m mbox -r "$TRASH/md" -m "$TRASH/t.mbox"
is "$(cat "$TRASH/m.rc"):$(wc -c <"$TRASH/m.out")" 0:0 "mbox -r MAILDIR -m SOURCE: exit 0, nothing on stdout"
is "$(subjects "$TRASH/md")" "$WANT" "... each message the source's copy, in its own file"
is "$(cat "$TRASH"/md/cur/* | grep -c '^Date: ')" 3 "... its headers as sent (the Dates back)"
is "$(names "$TRASH/md")" "$before" "... every file's name (and flags) kept, tmp/ empty"
is "$(stat -c %i "$TRASH"/md/cur/1.*)" "$cover_ino" "... the one that was the same already not written"
check "... the one no source knows kept, said" grep -qx \
	'lore-am: warning: <unknown@example.org> is known to no source: kept as it was' "$TRASH/m.err"
check "... the count said" grep -qx "Refetched 3 of the 5 messages of '$TRASH/md'; 1 was the sources' copy already" "$TRASH/m.err"
"$LORE_AM" -q --thread -m "$TRASH/md" "$(msgid_of "$TRASH"/p/0001-*)" </dev/null >/dev/null
is "$?" 0 "... and lore-am reads the maildir"

pi_have_httpd || { skip_all "public-inbox-httpd not installed"; }
pi_serve list "$TRASH/t.mbox" >/dev/null 2>&1 || exit 1
maildir "$TRASH/a"
maildir "$TRASH/b4"
lore a -C mbox -r "$TRASH/a"
is "$(cat "$TRASH/a.rc"):$(cat "$TRASH"/a/cur/* | grep -c '^List-Id: <list.example.org>')" "0:3" \
	"from the archive: its copies (its List-Id)"
if command -v b4 >/dev/null; then
	git config --global b4.midmask "$PI_URL/list/%s"
	(cd "$TRASH" && b4 -q mbox -r b4 >/dev/null 2>&1)
	is "$(cat "$TRASH"/b4/cur/* "$TRASH"/b4/new/* | grep '^Subject: ' | sort | tr '\n' '|')" \
		"$(cat "$TRASH"/a/cur/* "$TRASH"/a/new/* | grep '^Subject: ' | sort | tr '\n' '|')" \
		"... the same messages real b4 mbox -r fetches into the maildir"
else
	skip "b4 not installed"
fi

free_port DOWN || exit 1
maildir "$TRASH/d"
cp -a "$TRASH/d" "$TRASH/d.keep"
lore d -C -L "http://127.0.0.1:$DOWN/list" mbox -r "$TRASH/d"
is "$(cat "$TRASH/d.rc"):$(diff -r "$TRASH/d" "$TRASH/d.keep" >/dev/null && echo same)" "75:same" \
	"the archive down: exit 75, every file as it was"
done_testing
