#!/bin/bash
# The -m index under concurrency: eight lore-am runs at once on one
# maildir (and on one mbox) while mail is delivered into it, as when
# several mails arrive together. Every run answers, none loses or
# corrupts an entry, and afterwards the index agrees with the folder.
# Every process is started here and waited for by its PID; each run is
# capped by timeout(1), so the test stops by itself.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
plan 10

MD=$TRASH/md MB=$TRASH/box
idx_small_thread "$MD"
cp "$TRASH/s/all.mbox" "$MB"
# other list mail around it, so that building the index takes a while
perl -e 'open my $mb, ">>", $ARGV[1] or die;
for my $i (1..400) {
	my $m = "From: F <f\@example.org>\nSubject: filler $i\n" .
		"Date: Mon, 1 Jan 2024 09:00:00 +0000\n" .
		"Message-ID: <fill$i\@example.org>\n" .
		($i > 1 ? "In-Reply-To: <fill" . ($i - 1) . "\@example.org>\n" : "") .
		"\n" . "text\n" x 20;
	open my $f, ">", "$ARGV[0]/cur/fill$i.host:2,S" or die;
	print $f $m;
	print $mb "From f\@example.org Mon Jan  1 00:00:00 2024\n$m\n";
}' "$MD" "$MB"

# replies to the thread, delivered as an MDA does (tmp/, then new/)
for i in $(seq 1 12); do
	mk_msg "$TRASH/late$i" "late$i@example.org" "Mon, 1 Jan 2024 11:$i:00 +0000" \
		e@example.org "r@example.org a@example.org c@example.org e@example.org" \
		"Re: [PATCH 1/2] widget: one"
done
deliver() {
	for i in $(seq 1 12); do
		cp "$TRASH/late$i" "$MD/tmp/late$i" &&
		mv "$MD/tmp/late$i" "$MD/new/late$i.host"
		mboxrd_add "$MB" "$TRASH/late$i"
		sleep 0.05
	done
}

wave() { # wave NAME BOX: eight runs at once, their statuses in NAME.rc
	pids=""
	for i in 1 2 3 4 5 6 7 8; do
		( timeout 300 "$LORE_AM" --thread -m "$2" r@example.org \
			>"$TRASH/$1.$i.out" 2>"$TRASH/$1.$i.err"
		  echo $? >"$TRASH/$1.$i.rc" ) &
		pids="$pids $!"
	done
	for p in $pids; do wait "$p"; done
}

deliver & dpid=$!
wave md1 "$MD"
wave mb1 "$MB"
wave md2 "$MD"
wait "$dpid"
wave md3 "$MD"
wave mb3 "$MB"

rcs=$(cat "$TRASH"/*.rc | sort | uniq -c | tr -s ' ' | tr '\n' ';')
is "$rcs" " 40 0;" "all forty runs exit 0"
# each answer is the thread at some moment: the six messages of the
# thread, some of the replies delivered so far, nothing else, no twice
bad=0
for o in "$TRASH"/*.out; do
	ids=$(entry_ids "$o" | sort)
	[ "$(printf '%s\n' "$ids" | uniq -d)" = "" ] || bad=$((bad + 1))
	for want in r a b c d e; do
		printf '%s\n' "$ids" | grep -qx "$want@example.org" || bad=$((bad + 1))
	done
	[ -z "$(printf '%s\n' "$ids" | grep -v -e '^[abcder]@example.org$' -e '^late[0-9]*@example.org$')" ] ||
		bad=$((bad + 1))
done
is "$bad" 0 "every answer is the thread as it was at some moment"
if [ -z "$LORE_AM_TOOL" ]; then
	n=$(cat "$TRASH"/*.err | grep -c NOTE)
	is "$n" 0 "no run had to do without the index"
	# each such run said why: a log of a failure elsewhere names the cause
	[ "$n" = 0 ] || grep -H NOTE "$TRASH"/*.err | sed "s|^$TRASH/|#   |"
else
	# under a tool one build may outlast the others' wait: they read the
	# whole folder then, and say so
	check "a run without the index says why" \
		sh -c "! grep NOTE '$TRASH'/*.err | grep -v 'was not used'"
fi
is "$(entry_ids "$TRASH/md3.1.out" | grep -c '^late')" 12 \
   "the runs after the deliveries see all twelve replies"
is "$(entry_ids "$TRASH/mb3.1.out" | grep -c '^late')" 12 \
   "in the mbox too"

idx_cmp "$TRASH/o" /dev/null --thread -m "$MD" r@example.org
ok $? "afterwards the maildir's indexed run = --no-index"
idx_cmp "$TRASH/o" /dev/null --thread -m "$MB" r@example.org
ok $? "and the mbox's"
is "$(sqlite3 "$(idx_db "$MD")" 'PRAGMA integrity_check')" ok "the maildir's index is sound"
is "$(idx_sql "$MD" 'SELECT count(*) FROM msg')" "$(ls "$MD/cur" "$MD/new" | grep -c host)" \
   "no entry lost: a row per file"
is "$(idx_sql "$MB" 'SELECT count(*) FROM msg')" "$(grep -c '^From ' "$MB")" \
   "a row per mbox message"

done_testing
