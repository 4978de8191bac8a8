#!/bin/bash
# The queue fed by the mail filter: real procmail delivers the three
# revisions of a series and the reviews between them mail by mail, in
# arrival order, through hooks/procmailrc with the X-Lore-Am header, and
# each mail's header says the state of its own revision, its revision and
# the reviews per patch. Eight deliveries at once lose no state; a corrupt
# queue file costs one log line, never the mail.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-queue.sh"

command -v procmail >/dev/null || skip_all "procmail not installed"
plan 13

queue_revisions "$TRASH/repo" || { echo "Bail out! cannot build the series"; exit 1; }
hooks_path
DATA=$TRASH/data
QFILE=$DATA/lore-am/queue.sqlite

# rc NAME BOX: a procmail rc file filtering through lore-am into BOX
rc() {
	mkdir -p "$2/cur" "$2/new" "$2/tmp"
	{
		echo "SHELL=/bin/sh"
		echo "PATH=$PATH"
		echo "LOGFILE=$TRASH/$1.log"
		for v in LORE_AM_REAL LORE_TOOL_LOGS; do
			[ -z "${!v:-}" ] || echo "$v=\"${!v}\""
		done
		# procmail sets HOME from the password file: the queue here
		echo "XDG_DATA_HOME=$DATA"
		echo "LORE_AM_ARGS=\"-m $2\""
		echo "LORE_AM_DIR=$TRASH/$1-patches"
		echo "LORE_AM_HEADER=yes"
		echo "INCLUDERC=$SRC_DIR/hooks/procmailrc"
		echo ":0"
		echo "$2/"
	} >"$TRASH/$1.rc"
	chmod 600 "$TRASH/$1.rc"
}

# the X-Lore-Am header of each mail as delivered, its state, revision
# and reviews only: "NN state revision reviews"
rc lists "$TRASH/lists"
fails=0 same=0 n=0
: >"$TRASH/states"
for f in "$A"/*; do
	n=$((n + 1))
	procmail -m "$TRASH/lists.rc" <"$f" || fails=$((fails + 1))
	set -- "$TRASH"/lists/new/*
	got=$1
	# (git format-patch's From_ line is no part of the mail)
	sed 1d "$got" | cmp -s - <(sed '1{/^From /d}' "$f") &&
		same=$((same + 1))
	name=${f##*/}
	sed -n '1s/^X-Lore-Am: //p' "$got" | tr -d ' ' | tr ';' '\n' |
		awk -v n="${name%%-*}" -F= '
		{ v[$1] = $2 }
		END { print n, v["state"], v["revision"], v["reviews"] }' \
		>>"$TRASH/states"
	mv "$got" "$TRASH/lists/cur/"
done
is "$fails.$same" "0.$n" "procmail delivers the $n mails, each the same but for X-Lore-Am"
# a cover letter alone is no series yet (01, and 11: v3's, a thread of
# its own); v2's (06) in v1's thread is v1's series, but its own revision
# is not known yet; the job writes the latest revision, the state is the
# mail's own (17: a reply to v1, superseded)
cat >"$TRASH/want" <<'EOW'
01   
02 new 1 0,0,0
03 new 1 0,0,0
04 complete 1 0,0,0
05 complete 1 1,0,0
06  1 
07 new 2 0,0,0
08 new 2 0,0,0
09 complete 2 0,0,0
10 reviewed 2 1,1,1
11   
12 new 3 0,0,0
13 new 3 0,0,0
14 complete 3 0,0,0
15 complete 3 0,1,0
16 reviewed 3 1,2,1
17 superseded 2 1,0,0
EOW
check "each mail's header: the state of its revision, the reviews per patch" \
	diff -u "$TRASH/want" "$TRASH/states"
"$LORE_AM" queue >/dev/null 2>&1
XDG_DATA_HOME=$DATA "$LORE_AM" queue | awk '{ print $1, $2, $3, $4 }' >"$TRASH/q"
is "$(cat "$TRASH/q")" "reviewed v3 3/3 3/3" "the queue holds one series, v3 reviewed"
grep '^lore-am' "$TRASH/lists.log" >"$TRASH/lines"
is "$(grep -c queue "$TRASH/lines")" 0 "the log says nothing of the queue"

# eight deliveries at once: eight series of one patch each, then the
# eight patches of one series, every delivery at the same time
one_patch() {
	cat <<EOM
From: Dev $1 <dev$1@example.net>
To: list@example.org
Subject: [PATCH] part$1: fix the thing
Date: Mon, 15 Jan 2024 11:00:0$(( $1 % 10 )) +0000
Message-ID: <single-$1@example.net>

Fix it.

Signed-off-by: Dev $1 <dev$1@example.net>
---
diff --git a/part$1.c b/part$1.c
--- a/part$1.c
+++ b/part$1.c
@@ -1 +1 @@
-old
+new
EOM
}
rm -rf "$DATA"
rc eight "$TRASH/eight"
pids=
for i in 1 2 3 4 5 6 7 8; do
	one_patch "$i" >"$TRASH/single-$i.eml"
	XDG_DATA_HOME=$DATA "$LORE_AM" --passthrough --status-header \
		-o "$TRASH/eight-out" <"$TRASH/single-$i.eml" \
		>"$TRASH/single-$i.out" 2>"$TRASH/single-$i.err" &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
is "$bad $(cat "$TRASH"/single-*.err | wc -c)" "0 0" \
	"eight mail filters at once: all exit 0, nothing said"
XDG_DATA_HOME=$DATA "$LORE_AM" queue --state=complete | wc -l >"$TRASH/n"
is "$(cat "$TRASH/n")" 8 "... and the queue holds the eight series"
grep -l 'state=complete; reviews=0;' "$TRASH"/single-*.out | wc -l >"$TRASH/n"
is "$(cat "$TRASH/n")" 8 "... each mail's header says complete"

mkdir -p "$TRASH/p8"
(cd "$TRASH/repo" && git checkout -q -b eight base &&
 for i in 1 2 3 4 5 6 7 8; do
	echo "$i" >"e$i.c" && git add "e$i.c" && git commit -qm "e$i: add" || exit 1
 done && git format-patch -q --thread=shallow -o "$TRASH/p8" base..eight)
pids=
for f in "$TRASH"/p8/*.patch; do
	procmail -m "$TRASH/eight.rc" <"$f" &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
is "$bad $(ls "$TRASH"/eight/new | wc -l)" "0 8" \
	"procmail, eight patches of one series at once: eight delivered"
XDG_DATA_HOME=$DATA "$LORE_AM" queue --state=complete | grep -c ' 8/8 ' >"$TRASH/n"
is "$(cat "$TRASH/n")" 1 "... and the queue holds the series whole"

# a corrupt queue file: the mail is delivered, one line in the log
printf 'not a database at all\n%.0s' $(seq 200) >"$QFILE"
rm -f "$DATA/lore-am/queue.sqlite-wal" "$DATA/lore-am/queue.sqlite-shm"
rc bad "$TRASH/bad"
procmail -m "$TRASH/bad.rc" <"$TRASH/single-1.eml"
is "$?" 0 "a corrupt queue file: procmail exits 0"
set -- "$TRASH"/bad/new/*
sed 1d "$1" | cmp -s - "$TRASH/single-1.eml"
ok $? "... the mail delivered, only the header added"
grep '^lore-am' "$TRASH/bad.log" >"$TRASH/lines"
is "$(wc -l <"$TRASH/lines") $(grep -c 'queue file set aside' "$TRASH/lines")" "1 1" \
	"... and one line in the log, about the queue file"
sed -n 1p "$1" | grep -q '^X-Lore-Am: status=complete; revision=1; patches=1/1; series=[^;]*; attestation=none$'
ok $? "... whose header has no state, the rest as ever"
done_testing
