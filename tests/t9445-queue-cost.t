#!/bin/bash
# t9445-queue-cost.t - what the queue costs the mail filter, where a test
# can see it (the figures are bench/queue-bench.sh's): SQLite is linked
# into the binary (core/sqlitelib.h), so the queue loads and binds no
# libsqlite3.so, whose load (BIND_NOW: its 1 238 PLT slots at once) was
# most of what the queue cost a mail. The mail and its state come out
# the same. The open reads no table to find a damaged
# file: a damaged page found by the store sets the file aside as a
# damaged header does (t9400), to be rebuilt by the next mail; `lore-am
# queue` says it is damaged, where it listed an empty queue.
. "$(dirname "$0")/lib.sh"

plan 11

hello_series lists.example.org p1@example.org p2@example.org \
	r1@example.org >"$TRASH/box.mbox"
mkdir -p "$TRASH/split"
git mailsplit -o"$TRASH/split" "$TRASH/box.mbox" >/dev/null
reply=$TRASH/split/0003

# the dynamic loader prints each loaded object's lookup scopes with
# LD_DEBUG=scopes: "object=PATH [0]", then " scope 0: PATH PATH ..."
LD_DEBUG=scopes "$LORE_AM" --passthrough --status-header -q \
	-o "$TRASH/out" -m "$TRASH/box.mbox" <"$reply" \
	>"$TRASH/mail" 2>"$TRASH/ld"
is "$?" 0 "the reply passes through with the queue on"
check "... its header says the state of its series" \
	grep -q '^X-Lore-Am: .*revision=1; .*state=complete; reviews=1,0' \
	"$TRASH/mail"

# the objects the run loaded beyond the program's own start: no
# libsqlite3 among them (the loader printed the program's scope, so
# LD_DEBUG worked)
is "$(grep -c 'scope 0:' "$TRASH/ld" | awk '{ print ($1 > 0) }'):$(grep -c 'object=.*libsqlite3' "$TRASH/ld")" \
	1:0 "the queue loads no libsqlite3.so: SQLite is in the binary"
check "... and the mail comes out whole" eval \
	'grep -v "^X-Lore-Am:" "$TRASH/mail" | cmp -s - "$reply"'

# the series table's first page damaged (its b-tree page type 0xff), the
# file's header whole
QFILE=$HOME/.local/share/lore-am/queue.sqlite
root=$(sqlite3 "$QFILE" "SELECT rootpage FROM sqlite_master WHERE name = 'series'")
head -c 4096 /dev/zero | tr '\0' '\377' |
	dd of="$QFILE" bs=4096 seek=$((root - 1)) conv=notrunc 2>/dev/null
# (outside a git tree: no scan for applied series)
(cd "$TRASH" && "$LORE_AM" queue) >"$TRASH/list" 2>"$TRASH/err"
is "$? $(wc -l <"$TRASH/list")" "74 0" \
	"lore-am queue on it: exit 74, not an empty queue"
check "... and one line that names the file" eval \
	'[ "$(wc -l <"$TRASH/err")" = 1 ] &&
	grep -qF "lore-am: cannot read the queue file $QFILE: " "$TRASH/err"'
"$LORE_AM" --passthrough --status-header -q -o "$TRASH/out" \
	-m "$TRASH/box.mbox" <"$reply" >"$TRASH/mail2" 2>"$TRASH/err"
is "$?" 0 "a damaged page of the queue: the mail passes through"
is "$(wc -l <"$TRASH/err") $(grep -c 'queue file set aside, to be rebuilt: ' "$TRASH/err")" \
	"1 1" "... with one line: the file set aside"
check "... as queue.sqlite.corrupt" test -f "$QFILE.corrupt"
"$LORE_AM" --passthrough --status-header -q -o "$TRASH/out" \
	-m "$TRASH/box.mbox" <"$reply" >"$TRASH/mail3" 2>"$TRASH/err"
is "$?:$(cat "$TRASH/err")" 0: "the next mail: a new file, silently"
check "... its state known again" \
	grep -q '^X-Lore-Am: .*revision=1; .*state=complete; reviews=1,0' \
	"$TRASH/mail3"
done_testing
