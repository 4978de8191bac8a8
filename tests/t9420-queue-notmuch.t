#!/bin/bash
# The queue's state as notmuch tags: notmuch/post-new run by a real
# `notmuch new` as three revisions of a series and their reviews arrive
# tags every message of the series with its revision's state
# (lore-am/complete, lore-am/reviewed, lore-am/superseded), one state tag
# a message, and moves the tags when the state changes: v2 arriving tags
# v1 superseded, v3 (a thread of its own) tags v2 superseded. The names
# come from notmuch config. A mark set by `lore-am queue --set` or by
# --apply moves the tags at once, without waiting for the next mail; a
# database that cannot be written to is one warning, the mark still set.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-queue.sh"

command -v notmuch >/dev/null || skip_all "notmuch not installed"
plan 17

queue_revisions "$TRASH/repo" || { echo "Bail out! cannot build the series"; exit 1; }
hooks_path
mail=$TRASH/mail
mkdir -p "$mail/lists/cur" "$mail/lists/new" "$mail/lists/tmp"
notmuch_hook_setup "$mail"
notmuch config set lore-am.outdir "$TRASH/patches"
notmuch new --quiet

# arrive NN...: those mails into the maildir, then notmuch new (the hook)
arrive() {
	for n in "$@"; do
		set -- "$A/$n"-*
		sed '1{/^From /d}' "$1" >"$mail/lists/cur/$n.eml:2,"
	done
	notmuch tag -new -- tag:new
	notmuch new --quiet 2>>"$TRASH/hook.err"
}
# the state tags of message NN: "NN: tag tag"
tags() {
	for n in "$@"; do
		id=$(msgid_of "$mail/lists/cur/$n.eml:2,")
		printf '%s:%s\n' "$n" "$(notmuch search --output=tags "id:$id" |
			grep -E '^(lore-am/|queue/)' | sed 's/^/ /' | tr -d '\n')"
	done | tr '\n' ';'
}

arrive 01 02 03 04
is "$(notmuch search --output=messages tag:lore-am/complete | wc -l)" 4 \
	"v1 whole: its cover letter and three patches tagged lore-am/complete"
arrive 05
is "$(tags 01 02 05)" "01: lore-am/complete;02: lore-am/complete;05: lore-am/complete;" \
	"a review of one patch: the reply tagged too, still complete"
arrive 06 07 08 09 10
is "$(tags 01 04 05)" "01: lore-am/superseded;04: lore-am/superseded;05: lore-am/superseded;" \
	"v2 and an Acked-by for all of it: v1's messages moved to lore-am/superseded"
is "$(tags 06 09 10)" "06: lore-am/reviewed;09: lore-am/reviewed;10: lore-am/reviewed;" \
	"... and v2's tagged lore-am/reviewed"
arrive 11 12 13 14
is "$(notmuch count tag:lore-am/reviewed) $(notmuch count tag:lore-am/superseded)" "0 10" \
	"v3 as a thread of its own: v2's messages superseded too"
is "$(notmuch search --output=messages tag:lore-am/complete | wc -l)" 4 \
	"... and v3's four tagged lore-am/complete"
v1=$(notmuch search --output=threads "id:$V1C")
v3=$(notmuch search --output=threads "id:$V3C")
check "... in two notmuch threads" test "$v1" != "$v3"

notmuch config set lore-am.tag-reviewed queue/ok
arrive 15 16
is "$(tags 11 14 16)" "11: queue/ok;14: queue/ok;16: queue/ok;" \
	"reviews of v3: reviewed, under the name notmuch config gives"
is "$(notmuch count tag:lore-am/complete)" 0 "... the complete tags moved away"
arrive 17
is "$(tags 03 17)" "03: lore-am/superseded;17: lore-am/superseded;" \
	"a late reply to v1: superseded like its patch"
is "$(grep -c . "$TRASH/hook.err")" 0 "the hook says nothing"

# marks move the tags at once, no mail arriving
"$LORE_AM" queue --set rejected "$V3C" 2>"$TRASH/err"
is "$? $(tags 11 14 16)$(cat "$TRASH/err")" \
	"0 11: lore-am/rejected;14: lore-am/rejected;16: lore-am/rejected;" \
	"--set rejected: the series' messages tagged lore-am/rejected at once"
is "$(tags 01 06)" "01: lore-am/superseded;06: lore-am/superseded;" \
	"... its older revisions' tags as they were"
"$LORE_AM" queue --set new "$V3C"
is "$(tags 11 16)" "11: queue/ok;16: queue/ok;" "--set new: back to reviewed"
to_mbox "$TRASH/v3.mbox" "$A"/1[1-6]-*
user_clone "$TRASH/u" base
(cd "$TRASH/u" && "$LORE_AM" -q --apply -m "$TRASH/v3.mbox" "$V3C") \
	2>"$TRASH/err"
is "$? $(tags 11 14 15)$(cat "$TRASH/err")" \
	"0 11: lore-am/applied;14: lore-am/applied;15: lore-am/applied;" \
	"--apply: tagged lore-am/applied at once"

# a database another writer holds (notmuch tag --batch, waiting for its
# input): one warning, the mark set all the same, no waiting
mkfifo "$TRASH/fifo"
notmuch tag --batch <"$TRASH/fifo" &
holder=$!
exec 7>"$TRASH/fifo"
at_exit "kill $holder 2>/dev/null"
for _ in $(seq 100); do
	python3 -c 'import fcntl, struct, sys
f = open(sys.argv[1], "r+")
r = fcntl.fcntl(f, fcntl.F_GETLK, struct.pack("hhqqi4x", fcntl.F_WRLCK, 0, 0, 0, 0))
sys.exit(struct.unpack("hhqqi4x", r)[0] == fcntl.F_UNLCK)' \
		"$mail/.notmuch/xapian/flintlock" && break
	sleep 0.1
done
"$LORE_AM" queue --set thanked "$V3C" 2>"$TRASH/err"
is "$? $(grep -c . "$TRASH/err") $("$LORE_AM" queue --no-scan | awk '{ print $1 }')" \
	"0 1 thanked" "a database held by another writer: exit 0, the mark set"
grep -q "^lore-am: warning: notmuch tags not moved: the database is being written" "$TRASH/err"
ok $? "... and one warning saying the tags did not move"
exec 7>&-
wait "$holder"
done_testing
