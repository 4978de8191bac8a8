#!/bin/bash
# The key pressed with no archive to reach and nothing local: a piped
# message that is a whole series by itself (a single [PATCH] that answers
# nothing) is written from the piped copy, with a NOTE, whether the archive
# is down or --offline keeps it out; anything else fails with an error that
# names -m and -N. A -m mailbox that does not exist yet (before a delivery
# agent's first delivery) is an empty one, with a NOTE. The archive here is
# a port of 127.0.0.1 where nothing listens.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"

plan 20

free_port DOWN || exit 1
ARCH=http://127.0.0.1:$DOWN/list
make_repo "$TRASH/repo"

# the patch of fixtures/hello-series.mbox as a [PATCH] of its own
hello_series list@example.org one@example.com two@example.com rev@example.net |
	sed -n '2,/^2.39.5$/p' | sed 's/\[PATCH 1\/2\]/[PATCH]/' >"$TRASH/single.eml"
hello_series list@example.org one@example.com two@example.com rev@example.net |
	sed -n '/^From 2222/,/^2.39.5$/p' | sed 1d >"$TRASH/second.eml"
sed 's/^Message-ID: .*/Message-ID: <v2@example.com>\nIn-Reply-To: <one@example.com>\nReferences: <one@example.com>/; s/\[PATCH\]/[PATCH v2]/' \
	"$TRASH/single.eml" >"$TRASH/v2.eml"

# piped NAME FILE ARGS...: lore-am ARGS with FILE on stdin; NAME.out/.err/.rc
piped() { lore_in "$@"; }
applies() {
	(cd "$TRASH/repo" && git checkout -q -B "t$1" base &&
	 git am -q "$TRASH/$1.out" && git log -1 --format=%s | grep -qx 'hello: add greeting')
}

piped down "$TRASH/single.eml" -L "$ARCH"
is "$(cat "$TRASH/down.rc")" 0 "a single [PATCH], archive down, nothing local: exit 0"
check "... the series written from the piped copy, and git am applies it" applies down
check "... a NOTE says why, and that replies' trailers were not looked up" \
	grep -q "^NOTE: <one@example.com> is a whole series by itself (a patch that answers nothing) and the archive did not give its thread (cannot fetch .*[Cc]onnect.*): written from the piped copy; trailers in replies to it, if any, are not added$" \
	"$TRASH/down.err"
check "... the summary names the piped copy as the source" \
	grep -qx "Sources: stdin 1 message" "$TRASH/down.err"

piped off "$TRASH/single.eml" --offline -L "$ARCH"
is "$(cat "$TRASH/off.rc")" 0 "the same with --offline: exit 0"
test -s "$TRASH/off.out" && cmp -s "$TRASH/off.out" "$TRASH/down.out"
ok $? "... the same series"
check "... the NOTE says the cache does not have it" \
	grep -q "^NOTE: <one@example.com> is a whole series by itself .*(message <one@example.com> is not in the cache, and --offline forbids fetching it)" \
	"$TRASH/off.err"

# not a series by itself: the error says what would help
piped part "$TRASH/second.eml" -L "$ARCH"
fails part 75 "cannot fetch .*[Cc]onnect.* \(with no local copy of the thread: give -m MBOX or -N for notmuch to work from local mail\)$" \
	"patch 2/2 alone, archive down: exit 75, one line naming -m and -N"
piped partoff "$TRASH/second.eml" --offline -L "$ARCH"
fails partoff 1 "message <two@example.com> is not in the cache, and --offline forbids fetching it \(with no local copy of the thread: give -m MBOX or -N .*\)$" \
	"... with --offline: exit 1, the same hint"
piped v2 "$TRASH/v2.eml" -L "$ARCH"
fails v2 75 "cannot fetch .* give -m MBOX or -N" \
	"a [PATCH v2] that answers v1: not a series by itself, exit 75"
lore arg -L "$ARCH" one@example.com
fails arg 75 "cannot fetch .*[Cc]onnect[^(]*$" \
	"a Message-ID given, nothing piped: exit 75, the archive's error alone"

# a -m mailbox that no delivery has made yet
piped new "$TRASH/single.eml" -m "$TRASH/mail/inbox"
is "$(cat "$TRASH/new.rc")" 0 "-m a mailbox that does not exist yet: exit 0"
check "... read as an empty one, with a NOTE" \
	grep -qx "NOTE: '$TRASH/mail/inbox' does not exist (yet): read as an empty mailbox" "$TRASH/new.err"
check "... the piped patch written, and git am applies it" applies new
test ! -e "$TRASH/mail/inbox" && test ! -e "$TRASH/mail"
ok $? "... and nothing was made in its place"
piped newpart "$TRASH/second.eml" -m "$TRASH/mail/inbox"
is "$(cat "$TRASH/newpart.rc")" 1 "... a patch 2/2 from it: exit 1 (incomplete), not a read error"
lore newarg -m "$TRASH/mail/inbox" one@example.com
is "$(cat "$TRASH/newarg.rc"):$(grep -c "does not exist (yet)" "$TRASH/newarg.err")" 1:1 \
	"... a Message-ID looked up in it: exit 1 (not found), one NOTE"

# procmail's first delivery: the mail filter with a -m mailbox not made yet
"$LORE_AM" --passthrough -m "$TRASH/mail/lkml" -o "$TRASH/series" \
	<"$TRASH/single.eml" >"$TRASH/pt.out" 2>"$TRASH/pt.err"
is "$?" 0 "--passthrough -m a mailbox not made yet: exit 0"
same_file "$TRASH/pt.out" "$TRASH/single.eml" "... the mail copied through"
is "$(ls "$TRASH/series" 2>/dev/null | grep -c '\.mbx$')" 1 "... and the series written"

done_testing
