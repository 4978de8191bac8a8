#!/bin/bash
# t7026-index-syncs.t - what the -m index costs in waits for the disk,
# counted with strace, and what a power cut may take back. A run that adds
# a delivered mail to the index syncs nothing: its commit stays in the WAL
# (synchronous = NORMAL) and the close does not copy it into the file.
# Once the WAL has grown, one run copies it in, empties it and begins the
# next one (a checkpoint, the one step that syncs). The index is a cache of the
# mailbox: the file and its WAL without the -shm (what a power cut leaves)
# are whole, and a lost last commit only makes the next run read that mail
# again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
command -v strace >/dev/null || skip_all "strace not installed"
command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"
plan 13

# LeakSanitizer cannot run under ptrace (make SANITIZE=1 check)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

MD=$TRASH/md
idx_small_thread "$MD"
# list mail around the thread, as in a real folder (the first build leaves
# about half a checkpoint's worth of WAL)
perl -e 'for my $i (1..400) {
	open my $f, ">", "$ARGV[0]/cur/fill$i.host:2,S" or die;
	print $f "From: F <f\@example.org>\nSubject: filler $i\n",
		"Message-ID: <fill$i\@example.org>\n",
		"References: <fill-root-$i-with-a-longer-id\@example.org>\n\n",
		"text\n" x 20 }' "$MD"
touch -d @1700000000 "$MD/cur" "$MD/new"
DB=$(idx_db "$MD")

# run NAME: the thread of r@example.org under strace, into st.NAME
run() {
	strace -f -qq -y -o "$TRASH/st.$1" \
		-e trace=fsync,fdatasync,syncfs,sync_file_range \
		"$LORE_AM" --thread -m "$MD" r@example.org \
		>"$TRASH/out.$1" 2>"$TRASH/err.$1"
}
# syncs NAME: that run's fsync-like calls, one a line: what was synced
# (file, file-wal, or the index folder) after the call's name
syncs() {
	grep -E '^[0-9]+ +(fsync|fdatasync|syncfs|sync_file_range)\(' \
		"$TRASH/st.$1" |
		sed -E 's/^[0-9]+ +//; s/\([0-9]+<[^>]*\/([^/>]*)>.*/ \1/' |
		sed -e 's/ index$/ folder/' -e "s/ $(basename "$DB")/ file/"
}
# q SQL: SQL on a copy of the index (the sqlite3 shell, closing the
# file, would copy its WAL in and remove it)
q() {
	rm -rf "$TRASH/q" && mkdir "$TRASH/q" &&
		cp "$DB" "$DB-wal" "$TRASH/q/" &&
		sqlite3 "$TRASH/q/$(basename "$DB")" "$1"
}
# deliver N: reply N in new/, as an MDA delivers it, the folder's mtime
# set well in the past (a folder changed within the last 50 ms is listed
# again by the next run)
deliver() {
	mk_msg "$TRASH/late$1" "late$1@example.org" "Mon, 1 Jan 2024 11:00:00 +0000" \
		r@example.org "r@example.org" "Re: [PATCH 1/2] widget: one"
	cp "$TRASH/late$1" "$MD/tmp/late$1" &&
		mv "$MD/tmp/late$1" "$MD/new/late$1.host"
	touch -d "@$((1700000000 + $1))" "$MD/new"
}

run first
is "$(syncs first | grep -c journal)" 0 \
	"the first build: the new file's switch to WAL is not synced"
is "$(syncs first | tr '\n' ' ')" "fdatasync file-wal fdatasync folder " \
	"... its WAL begun (the header synced, as SQLite does), nothing else"
run read
is "$(syncs read)" "" "a run that only reads the index syncs nothing"

deliver 1
run add1
is "$(syncs add1)" "" "a run that adds a delivered mail syncs nothing"
check "... its commit is in the WAL" test -s "$DB-wal"
check "... and the mail is in the thread" \
	grep -q '^Message-ID: <late1@example.org>' "$TRASH/out.add1"

# mails delivered one at a time: a checkpoint now and then, the WAL bounded
ckpt0=$(q "SELECT v FROM state WHERE k = 'checkpoints'")
synced=0 maxwal=0 ck=
for i in $(seq 2 31); do
	deliver "$i"
	run "add$i"
	if [ -n "$(syncs "add$i")" ]; then
		synced=$((synced + 1)) ck=$(syncs "add$i" | tr '\n' ' ')
	fi
	w=$(stat -c %s "$DB-wal" 2>/dev/null) || w=0
	[ "$w" -gt "$maxwal" ] && maxwal=$w
done
ckpt1=$(q "SELECT v FROM state WHERE k = 'checkpoints'")
ck_n=$((ckpt1 - ckpt0))
check "30 mails added one a run: one run in about 20 checkpoints, and only it syncs ($synced syncing, $ck_n checkpoints)" \
	test "$synced" = "$ck_n" -a "$ck_n" -ge 1 -a "$ck_n" -le 2
is "$ck" "fdatasync file-wal fdatasync folder fdatasync file fdatasync file-wal " \
	"... the WAL copied into the file, then begun again"
check "... the WAL stays under 160 pages ($maxwal bytes)" \
	test "$maxwal" -lt $((160 * 4120))

# a power cut: the file and its WAL as written, no -shm
deliver 32
mkdir "$TRASH/before"
cp "$DB" "$DB-wal" "$TRASH/before/"
run add32
mkdir "$TRASH/cut"
cp "$DB" "$DB-wal" "$TRASH/cut/"
is "$(sqlite3 "$TRASH/cut/$(basename "$DB")" 'PRAGMA integrity_check')" ok \
	"the file and its WAL without the -shm: whole"
rm -f "$DB-shm"
cp "$TRASH/cut/"* "$(dirname "$DB")/"
check "... and the run on it gives the plain scan's bytes" \
	idx_cmp "$TRASH/c" /dev/null --thread -m "$MD" r@example.org

# the last commit lost (the WAL as it was before it): the next run reads
# that mail again
rm -f "$DB-shm"
cp "$TRASH/before/"* "$(dirname "$DB")/"
is "$(q "SELECT count(*) FROM msg WHERE msgid = 'late32@example.org'")" 0 \
	"a power cut that takes back the last commit: the mail not in the index"
check "... the next run reads it again: the plain scan's bytes" \
	idx_cmp "$TRASH/l" /dev/null --thread -m "$MD" r@example.org
done_testing
