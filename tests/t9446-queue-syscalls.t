#!/bin/bash
# t9446-queue-syscalls.t - what the queue costs the mail filter in waits
# for the disk and in libraries, watched by strace (the figures are
# bench/queue-bench.sh's). A mail recorded in a queue file that exists
# syncs nothing of the queue's: its commit goes to the WAL, unsynced
# (synchronous = NORMAL), and the close leaves it there for a later
# checkpoint instead of copying it into the file with two fdatasync(2)
# calls a mail. What a killed run or a power cut leaves (the file and its
# WAL, no -shm) is read whole. A --passthrough -m run opens no library it
# does not use: none for the queue (SQLite is in the binary); libnotmuch
# (with Xapian and the C++ runtime), asked when the mailbox lacks part of
# the series, only when notmuch has a configuration file to read.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip_all "strace not installed"

plan 9

hello_series lists.example.org p1@example.org p2@example.org \
	r1@example.org >"$TRASH/box.mbox"
mkdir -p "$TRASH/split"
git mailsplit -o"$TRASH/split" "$TRASH/box.mbox" >/dev/null
QFILE=$HOME/.local/share/lore-am/queue.sqlite
# LeakSanitizer cannot run under ptrace (make SANITIZE=1 check)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# trace Q N: mail N delivered with lore-am.queue = Q under strace (the
# paths of the file descriptors shown), into $TRASH/st.Q.N
trace() {
	strace -f -qq -y -o "$TRASH/st.$1.$2" \
		-e trace=fsync,fdatasync,syncfs,sync_file_range,open,openat \
		"$LORE_AM" -c "lore-am.queue=$1" --passthrough --status-header \
		-q -o "$TRASH/out.$1" -m "$TRASH/box.mbox" \
		<"$TRASH/split/$2" >"$TRASH/mail.$1.$2" 2>"$TRASH/err.$1.$2"
}
# syncs Q N: the fsync-like calls of that run, one a line, the process
# ids left out and the output folder named alike
syncs() {
	grep -E '^[0-9]+ +(fsync|fdatasync|syncfs|sync_file_range)\(' \
		"$TRASH/st.$1.$2" | sed "s/^[0-9]* *//; s|/out\.$1|/out|g"
}
# libs Q N: the shared libraries that run loaded (opened, not probed)
libs() {
	grep -E 'open(at)?\(.*\.so[.0-9]*", .* = [0-9]' "$TRASH/st.$1.$2" |
		sed 's/.*"\(.*\)".*/\1/; s|.*/||' | sort -u
}

fails=0
for n in 0001 0002 0003; do
	trace false "$n" && trace true "$n" || fails=$((fails + 1))
done
is "$fails $(cat "$TRASH"/err.*)" "0 " \
	"three mails through the filter, the queue off and on"
check "... the last one's state said" grep -q \
	'^X-Lore-Am: .*revision=1; .*state=complete; reviews=1,0' \
	"$TRASH/mail.true.0003"

# the file made by the first mail; the next two write what they saw
is "$(syncs true 0002; syncs true 0003)" "$(syncs false 0002; syncs false 0003)" \
	"a mail into an existing queue file syncs nothing more than without the queue"
check "... its commits are in the WAL, left for a later checkpoint" \
	test -s "$QFILE-wal"

# what a run killed after its commit, or a power cut, leaves: the file
# and its WAL as written, the -shm (the WAL's index in memory) not
# (two copies: the sqlite3 shell, closing the first, copies its WAL in)
XDG_DATA_HOME=$TRASH/xdg
mkdir -p "$TRASH/cut" "$XDG_DATA_HOME/lore-am"
cp "$QFILE" "$QFILE-wal" "$TRASH/cut/"
cp "$QFILE" "$QFILE-wal" "$XDG_DATA_HOME/lore-am/"
is "$(sqlite3 "$TRASH/cut/queue.sqlite" 'PRAGMA integrity_check')" ok \
	"the file and its WAL without the -shm: whole"
is "$(XDG_DATA_HOME=$XDG_DATA_HOME "$LORE_AM" queue --no-scan | awk '{ print $1, $2, $3 }')" \
	"complete v1 2/2" "... and the series known in it"

# the libraries: the queue loads none (SQLite is linked into the binary)
libs false 0003 >"$TRASH/libs.false"
libs true 0003 >"$TRASH/libs.true"
is "$(comm -13 "$TRASH/libs.false" "$TRASH/libs.true" | sed 's/\.so.*//' | tr '\n' ' ')" \
	"" "the queue loads no library"

# the first patch alone in the mailbox: the series is incomplete there,
# and notmuch would be asked for the rest; it is not set up here (no
# configuration file), so nothing beyond what lore-am links is loaded
ldd "$LORE_AM_REAL" | awk '{ sub(".*/", "", $1); print $1 }' | sort -u \
	>"$TRASH/linked"
cp "$TRASH/split/0001" "$TRASH/one.mbox"
lone() {
	strace -f -qq -o "$TRASH/st.lone.$1" -e trace=open,openat \
		"$LORE_AM" -c lore-am.queue=false --passthrough -q \
		-o "$TRASH/out.lone" -m "$TRASH/one.mbox" \
		<"$TRASH/split/0001" >/dev/null 2>&1
}
lone 1
is "$(libs lone 1 | comm -23 - "$TRASH/linked")" "" \
	"an incomplete series, notmuch not set up: no library beyond the linked ones"
NOTMUCH_CONFIG=$TRASH/no-such-config lone 2
is "$(libs lone 2 | comm -23 - "$TRASH/linked" | grep -c '^libnotmuch\.')" 1 \
	"... with NOTMUCH_CONFIG set, libnotmuch is asked"
done_testing
