#!/bin/bash
# t9447-queue-damage.t - a damaged page of the queue file is said, once.
# A lookup that reads it (the series of a known message) fails the
# record there, and the file is set aside as for any other damaged read;
# it read as "no such message", and only SQLite's refusal of any write
# after a damaged read in the transaction stopped the run. `lore-am queue` in a git work tree, whose applied scan reads the
# file before the listing does: one line for a damaged file, not the
# scan's warning and the listing's error; a scan that fails where the
# listing does not is one warning and the listing.
. "$(dirname "$0")/lib.sh"

plan 10

hello_series lists.example.org p1@example.org p2@example.org \
	r1@example.org >"$TRASH/box.mbox"
mkdir -p "$TRASH/split"
git mailsplit -o"$TRASH/split" "$TRASH/box.mbox" >/dev/null
reply=$TRASH/split/0003
QFILE=$HOME/.local/share/lore-am/queue.sqlite

# deliver N: the reply through the mail filter, into $TRASH/mail.N and
# $TRASH/err.N
deliver() {
	"$LORE_AM" --passthrough --status-header -q -o "$TRASH/out" \
		-m "$TRASH/box.mbox" <"$reply" >"$TRASH/mail.$1" 2>"$TRASH/err.$1"
}
# damage TABLE: the first page of TABLE overwritten (its b-tree page type
# 0xff), the file's header whole. The sqlite3 shell, the last to close
# the file, has copied the WAL into it first.
damage() {
	_root=$(sqlite3 "$QFILE" "SELECT rootpage FROM sqlite_master WHERE name = '$1'")
	head -c 4096 /dev/zero | tr '\0' '\377' |
		dd of="$QFILE" bs=4096 seek=$((_root - 1)) conv=notrunc 2>/dev/null
}
state_said() {
	grep -q '^X-Lore-Am: .*revision=1; .*state=complete; reviews=1,0' "$1"
}

deliver 1
is "$?:$(cat "$TRASH/err.1")" 0: "the reply passes through, the queue on"
check "... its header says the state" state_said "$TRASH/mail.1"

# the messages table damaged: the same mail again looks its messages up
# there (the series is found by author and title, nothing is written)
damage messages
deliver 2
is "$? $(wc -l <"$TRASH/err.2") $(grep -c "queue file set aside, to be rebuilt: $QFILE: " "$TRASH/err.2")" \
	"0 1 1" "a damaged page a lookup reads: exit 0, one line, the file set aside"
check "... as queue.sqlite.corrupt" test -f "$QFILE.corrupt"
check "... the mail whole, its header claiming no state" eval \
	'! grep -q "state=" "$TRASH/mail.2" &&
	grep -v "^X-Lore-Am:" "$TRASH/mail.2" | cmp -s - "$reply"'
deliver 3
is "$?:$(cat "$TRASH/err.3")" 0: "the next mail: a new file, silently"
check "... its state known again" state_said "$TRASH/mail.3"

# `lore-am queue` in a git work tree: the applied scan reads the patches
# of every whole series, the listing does not
make_repo "$TRASH/repo"
cd "$TRASH/repo" || exit 1
damage patches
"$LORE_AM" queue >"$TRASH/list" 2>"$TRASH/err"
is "$? $(wc -l <"$TRASH/list") $(wc -l <"$TRASH/err")" "0 1 1" \
	"the scan cannot read the patches: the list, and one line"
check "... the scan's warning" \
	grep -q "^lore-am: warning: the series were not looked for in the tree: " \
	"$TRASH/err"
damage series
"$LORE_AM" queue >"$TRASH/list" 2>"$TRASH/err"
is "$? $(wc -l <"$TRASH/list") $(cat "$TRASH/err")" \
	"74 0 lore-am: cannot read the queue file $QFILE: database disk image is malformed" \
	"the series damaged: exit 74 and one line, not the scan's too"
done_testing
