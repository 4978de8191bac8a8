#!/bin/bash
# t9449-queue-stream.t - a long stream of mail through the queue: the
# mail filter (--passthrough --status-header) run once a mail over a
# generated thread of 26 mails delivered three times, the first two one
# by one, the third eight at once, 78 runs. Among them are the runs whose
# commit copies the WAL into the file and empties it (queuedb.c's
# wal_full(), once in about 30 mails), the step in which a memory fault of
# the queue was once reported: every run exits 0 and says nothing, every
# mail comes out whole under its X-Lore-Am header, the WAL is emptied on
# the way, a mail seen again gets the same header, and the file is whole.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"

plan 9

"$SRC_DIR/bench/gen-thread.sh" --preset small -o "$TRASH/t.mbox" \
	>/dev/null || exit 1
mkdir -p "$TRASH/split" "$TRASH/out" "$TRASH/err" "$TRASH/rc"
git mailsplit --mboxrd -o"$TRASH/split" "$TRASH/t.mbox" >/dev/null
QFILE=$HOME/.local/share/lore-am/queue.sqlite
mails=$(ls "$TRASH/split")
is "$(echo "$mails" | wc -l)" 26 "the thread: 26 mails"

# deliver ROUND MAIL: the mail through the filter, what it wrote, said
# and exited with kept as ROUND.MAIL
deliver() {
	"$LORE_AM" --passthrough --status-header -q -o "$TRASH/o" \
		-m "$TRASH/t.mbox" <"$TRASH/split/$2" \
		>"$TRASH/out/$1.$2" 2>"$TRASH/err/$1.$2"
	echo $? >"$TRASH/rc/$1.$2"
}
# the WAL's size after each run of the first two rounds
: >"$TRASH/wal"
for r in 1 2; do
	for m in $mails; do
		deliver "$r" "$m"
		echo "$r.$m $(stat -c %s "$QFILE-wal" 2>/dev/null || echo none)" \
			>>"$TRASH/wal"
	done
done
# the third, eight runs at a time
set -- $mails
while [ $# -gt 0 ]; do
	pids=
	for m in "${@:1:8}"; do
		deliver 3 "$m" &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p"; done
	shift $(($# < 8 ? $# : 8))
done

bad() { grep -Lx 0 "$TRASH"/rc/$1.* | sed 's|.*/||'; }
is "$(bad '[12]')" "" "52 mails one by one: every run exits 0"
is "$(bad 3)" "" "26 mails eight at once: every run exits 0"
is "$(find "$TRASH/err" -type f -size +0 | wc -l)" 0 \
	"no run says anything"

# each output is the mail with one X-Lore-Am header after its From_ line
whole=0 headed=0
for f in "$TRASH"/out/*; do
	m=${f##*.}
	sed 2d "$f" | cmp -s - "$TRASH/split/$m" && whole=$((whole + 1))
	sed -n '2{/^X-Lore-Am: .*state=[a-z]/p}' "$f" | grep -q . &&
		headed=$((headed + 1))
done
is "$whole $headed" "78 78" "every mail out whole, under a state header"

# the runs that emptied the WAL, past the two that make the file
check "the WAL emptied on the way" \
	eval "sed 1,2d '$TRASH/wal' | awk '\$2 == 0 { n++ } END { exit !n }'"

# the queue had seen every mail after the first round: the second and the
# third give each mail the same header
differ=0
for m in $mails; do
	[ "$(sed -n 2p "$TRASH/out/2.$m")" = "$(sed -n 2p "$TRASH/out/3.$m")" ] ||
		differ=$((differ + 1))
done
is "$differ" 0 "rounds two and three: the same header for each mail"

is "$(sqlite3 "$QFILE" 'PRAGMA integrity_check')" ok \
	"the queue file is whole"
is "$(sqlite3 "$QFILE" 'SELECT count(*) FROM series;
	SELECT count(*) FROM messages;' | tr '\n' ' ')" "1 26 " \
	"one series, each of its 26 messages recorded once"

done_testing
