#!/bin/bash
# The -m index while another process holds its lock, as when procmail runs
# several lore-am at once: a run waits for it (lore-am.index-wait seconds
# in all), even on an index file so new that SQLite answers "locked" at
# once instead of waiting; when the wait runs out it reads the whole
# folder (the same bytes) and says so in one NOTE line, and the index is
# never removed for being busy. Eight runs that find an index of another
# version at once build one again, none removing the one another built.
# The lock is held by a real sqlite3 shell, started and waited for here by
# its PID.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"
command -v strace >/dev/null || skip_all "strace not installed"
plan 21

MD=$TRASH/md
idx_small_thread "$MD"
DB=$(idx_db "$MD")
mkdir -p "$(dirname "$DB")"
plain() { "$LORE_AM" --no-index --thread -m "$MD" r@example.org 2>/dev/null; }
run() { "$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/out" 2>"$TRASH/err"; }
notes() { grep -c NOTE "$TRASH/err"; }
# hold SECONDS: a sqlite3 shell holds the index's write lock (BEGIN
# IMMEDIATE) for SECONDS; back once it holds it, its PID in $holder
hold() {
	rm -f "$TRASH/held"
	sqlite3 "$DB" "BEGIN IMMEDIATE" ".shell touch '$TRASH/held'; sleep $1" \
		"COMMIT" >"$TRASH/holder.err" 2>&1 &
	holder=$!
	while [ ! -e "$TRASH/held" ] && kill -0 "$holder" 2>/dev/null; do
		sleep 0.05
	done
}

# a file just made by another opener, locked before it is an index: SQLite
# answers the switch to WAL with "locked" at once, without waiting
plain >"$TRASH/want"
: >"$DB"
hold 2
run
is "$?:$(notes)" "0:0" "a new index file held by another: the run waits for it, no NOTE"
same_file "$TRASH/out" "$TRASH/want" "and answers the thread"
wait "$holder"
is "$(sqlite3 "$DB" 'PRAGMA journal_mode')" wal "the index was made (WAL)"
is "$(idx_sql "$MD" 'SELECT count(*) FROM msg')" "$(ls "$MD/cur" | wc -l)" \
	"with a row per message"

# a built index, new mail to add while another holds the write lock
mk_msg "$TRASH/late" late@example.org "Mon, 1 Jan 2024 11:00:00 +0000" \
	e@example.org "r@example.org e@example.org" "Re: [PATCH 1/2] widget: one"
cp "$TRASH/late" "$MD/new/late.host"
plain >"$TRASH/want"
hold 2
run
is "$?:$(notes)" "0:0" "an update waits for another holder of the index"
same_file "$TRASH/out" "$TRASH/want" "and answers with the new mail"
wait "$holder"

# the wait runs out: the whole folder, one line that says so, the index kept
git config --global lore-am.index-wait 1
mk_msg "$TRASH/late2" late2@example.org "Mon, 1 Jan 2024 11:01:00 +0000" \
	e@example.org "r@example.org e@example.org" "Re: [PATCH 1/2] widget: one"
cp "$TRASH/late2" "$MD/new/late2.host"
plain >"$TRASH/want"
ino=$(stat -c %i "$DB")
hold 4
run
is "$?:$(notes)" "0:1" "held past lore-am.index-wait: exit 0, one NOTE"
same_file "$TRASH/out" "$TRASH/want" "the whole mailbox's bytes"
check "the NOTE says the index was busy and the whole mailbox was read" \
	grep -q "^NOTE: the index of '$MD' was busy (another process held it for 1 s); the whole mailbox was read" "$TRASH/err"
check "the busy index is not removed" test "$(stat -c %i "$DB")" = "$ino"
wait "$holder"
is "$?" 0 "the holder committed"
run
is "$?:$(notes)" "0:0" "once free, the index is used again"
same_file "$TRASH/out" "$TRASH/want" "with the new mail"
git config --global lore-am.index-wait 0
mk_msg "$TRASH/late3" late3@example.org "Mon, 1 Jan 2024 11:02:00 +0000" \
	e@example.org "r@example.org e@example.org" "Re: [PATCH 1/2] widget: one"
cp "$TRASH/late3" "$MD/new/late3.host"
hold 2
run
is "$?:$(notes)" "0:1" "lore-am.index-wait=0: no wait, one NOTE"
wait "$holder"
git config --global --unset lore-am.index-wait

# an index of another version, eight runs at once: one builds it again,
# the others use that one (before, each removed the file it found, the
# new one of another included, and its -wal and -shm under its
# connection: "disk I/O error")
sqlite3 "$DB" 'PRAGMA user_version = 99'
plain >"$TRASH/want"
pids=""
for i in 1 2 3 4 5 6 7 8; do
	"$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/v.$i.out" \
		2>"$TRASH/v.$i.err" &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
for i in 1 2 3 4 5 6 7 8; do
	cmp -s "$TRASH/v.$i.out" "$TRASH/want" || bad=$((bad + 1))
done
is "$bad" 0 "eight runs on an index of another version: each exits 0 with the thread"
others=$(grep -h NOTE "$TRASH"/v.*.err |
	grep -v "^NOTE: the index of '$MD' is from another version of lore-am: built again$")
is "$others" "" "no NOTE but 'built again'"
is "$(sqlite3 "$DB" 'PRAGMA user_version')" 1 "the index is of this version again"
is "$(sqlite3 "$DB" 'PRAGMA integrity_check')" ok "and sound"

# the file replaced by another run between this run's open and its look
# at which file it opened: another run found it of another version and
# built a new one there meanwhile. This run must not take the new file for
# the one it opened (it judged the old one, then removed the new one and
# built a third: CI's "disk I/O error" came from such a swap). The open is
# held back by strace while the swap is made (LeakSanitizer cannot run
# under ptrace: make SANITIZE=1 check).
good=$TRASH/good.sqlite3
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$DB" "$good"
sqlite3 "$DB" 'PRAGMA user_version = 99'
plain >"$TRASH/want"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o "$TRASH/strace" -P "$DB" -e trace=openat \
	-e inject=openat:delay_exit=3000000:when=1 \
	"$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/out" \
	2>"$TRASH/err" &
tracer=$!
held=""
for _ in $(seq 200); do
	for c in $(pgrep -P "$tracer"); do
		ls -l "/proc/$c/fd" 2>/dev/null | grep -q -- "-> $DB\$" && held=1
	done
	[ -n "$held" ] && break
	sleep 0.05
done
rm -f "$DB" "$DB-wal" "$DB-shm"
cp "$good" "$DB"
ino=$(stat -c %i "$DB")
wait "$tracer"
is "$held:$?:$(notes)" "1:0:0" "the file swapped while the run opened it: exit 0, no NOTE"
same_file "$TRASH/out" "$TRASH/want" "and the thread"
is "$(stat -c %i "$DB")" "$ino" "the index the other run built is the one kept"

done_testing
