#!/bin/bash
# lore-am queue: the state of a series as its mails arrive one by one and
# the am job runs on each (new, complete, reviewed with the counts per
# patch, superseded by a v2 in its thread and by a v3 sent as a thread of
# its own), the filters (--state, --ready, --since, --mine), JSON, --show,
# the marks (--set, --apply in a real repository, b4 ty's NAME.am.sent), a
# corrupt queue file (one line, the series still written, rebuilt on the
# next run) and lore-am.queue = false.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-queue.sh"

plan 33

queue_revisions "$TRASH/repo" || { echo "Bail out! cannot build the series"; exit 1; }
QFILE=$HOME/.local/share/lore-am/queue.sqlite
box=$TRASH/box.mbox

# arrive N...: the mails NN-* into the mailbox, then the am job on the
# last of them, as a mail client's key would run it
arrive() {
	for n in "$@"; do
		set -- "$A/$n"-*
		cat "$1" >>"$TRASH/arrived.list"
		to_mbox "$box" $(cat "$TRASH/arrived-files" 2>/dev/null) "$1"
		echo "$1" >>"$TRASH/arrived-files"
		last=$1
	done
	"$LORE_AM" -q --allow-incomplete -o "$TRASH/out" -m "$box" \
		"$(msgid_of "$last")" 2>"$TRASH/am.err"
}
# the first four columns of the queue's lines: state, revision, patches,
# patches reviewed
q() { "$LORE_AM" queue "$@" | awk '{ print $1, $2, $3, $4 }'; }
# the JSON of the one series, field by field (python's json reads it)
qjson() {
	"$LORE_AM" queue --format=json |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
print(len(d), *[eval(a, {"s": d[0]}) for a in sys.argv[1:]])' "$@"
}

arrive 01 02
is "$(q)" "new v1 1/3 0/3" "one patch of three: new"
arrive 03 04
is "$(q)" "complete v1 3/3 0/3" "all three: complete"
arrive 05
is "$(qjson 's["state"]' 's["revisions"][0]["reviews"]')" \
	"1 complete [[1, 0, 0], [0, 0, 0], [0, 0, 0]]" \
	"a Reviewed-by on 1/3: counted on that patch, still complete"
arrive 06 07
is "$(qjson 's["state"]' 's["revision"]' 's["revisions"][0]["state"]')" \
	"1 new 2 superseded" "v2's first patch in the thread: v1 superseded"
arrive 08 09
is "$(q)" "complete v2 3/3 0/3" "v2 whole: complete"
arrive 10
is "$(qjson 's["state"]' 's["reviewed_patches"]' 's["revisions"][1]["reviews"]')" \
	"1 reviewed 3 [[0, 1, 0], [0, 1, 0], [0, 1, 0]]" \
	"an Acked-by on v2's cover letter reviews every patch"
arrive 11 12 13 14
is "$(q)" "complete v3 3/3 0/3" \
	"v3 sent as a thread of its own: the same series, complete"
is "$(qjson 's["revisions"][1]["state"]' 's["key"]')" \
	"1 superseded msgid:$V1C" "... v2 superseded, the series keyed by v1's cover letter"
arrive 15
is "$(qjson 's["state"]' 's["revisions"][2]["reviews"]')" \
	"1 complete [[0, 0, 0], [0, 0, 1], [0, 0, 0]]" "a Tested-by on v3 2/3"
arrive 16
is "$(q)" "reviewed v3 3/3 3/3" "a Reviewed-by on v3's cover letter: reviewed"
arrive 17
is "$(q)" "reviewed v3 3/3 3/3" "a late reply to v1 changes nothing"
"$LORE_AM" queue |
	grep -qE '^reviewed   v3   3/3     3/3     +[0-9]+m  \[PATCH v3 0/3\] widget: three parts$'
ok $? "the line: state, revision, patches, reviewed, age, subject"

# the filters
is "$(q --ready)" "reviewed v3 3/3 3/3" "--ready lists it"
is "$(q --state=complete,new)" "" "--state=complete,new does not"
is "$(q --state reviewed,applied)" "reviewed v3 3/3 3/3" "--state=reviewed,applied does"
is "$(q --since 2)" "reviewed v3 3/3 3/3" "--since 2 (days) lists it"
is "$(q --since 2099-01-01)" "" "--since a date to come does not"
"$LORE_AM" queue --state=bogus >/dev/null 2>"$TRASH/err"
is "$? $(cat "$TRASH/err")" "2 lore-am: queue --state: 'bogus' is no state (new, complete, reviewed, superseded, applied, thanked, rejected)" \
	"--state with no state: exit 2, one line"

# --show: the series of a message, even of a reply the queue did not keep
"$LORE_AM" queue --show <"$A"/17-late.eml >"$TRASH/show"
is "$? $(sed -n 3p "$TRASH/show")" "0 State:   reviewed (v3, 3/3 patches, 3/3 reviewed)" \
	"--show, the late reply piped in: the series' state"
grep -c ' superseded 3/3 patches' "$TRASH/show" >"$TRASH/n"
is "$(cat "$TRASH/n") $(grep -c 'Tested-by: 1' "$TRASH/show")" "2 1" \
	"... v1 and v2 superseded, each patch's reviews"
"$LORE_AM" queue --show nobody@example.net 2>"$TRASH/err"
is "$? $(cat "$TRASH/err")" "1 lore-am: <nobody@example.net> is in no series the queue knows" \
	"--show of an unknown message: exit 1"

# the marks
"$LORE_AM" queue --set rejected "$V3P2"
is "$?.$(q)" "0.rejected v3 3/3 3/3" "--set rejected, by one of its patches"
"$LORE_AM" queue --set new "<$V3C>"
is "$?.$(q)" "0.reviewed v3 3/3 3/3" "--set new clears the mark"
"$LORE_AM" queue --set merged "$V3C" 2>"$TRASH/err"
is "$?" 2 "--set with a state no series is marked with: exit 2"

user_clone "$TRASH/u" base
(cd "$TRASH/u" && "$LORE_AM" -q --apply -m "$box" "$V3C")
tip=$(git -C "$TRASH/u" rev-parse --short=12 HEAD)
onto=$(git -C "$TRASH/u" rev-parse --short=12 HEAD~3)
is "$(q) $(qjson 's["applied"]')" "applied v3 3/3 3/3 1 $onto..$tip" \
	"--apply in a real repository: applied, and where"

mkdir -p "$HOME/.local/share/b4"
printf '{\n    "msgid": "%s",\n    "subject": "x"\n}\n' "$V3C" \
	>"$HOME/.local/share/b4/widget.am.sent"
is "$(q)" "thanked v3 3/3 3/3" "b4 ty's sent tracking file: thanked"

# --mine: MAINTAINERS gives b.c to user.email, or not
mine() {
	printf 'THE REST\nM:\tSomeone Else <else@example.net>\nF:\t*\n\nWIDGET\nM:\tTest Maintainer <maintainer@example.org>\nF:\t%s\n' \
		"$1" >"$TRASH/u/MAINTAINERS"
	(cd "$TRASH/u" && "$LORE_AM" queue --mine | awk '{ print $1, $2 }')
}
is "$(mine b.c)" "thanked v3" "--mine: a file the series touches is mine"
is "$(mine drivers/)" "" "--mine: a folder it does not touch is not"
(cd "$TRASH" && "$LORE_AM" queue --mine) 2>"$TRASH/err"
is "$?" 2 "--mine outside a git tree: exit 2"

# a corrupt queue file: one line, the series still written, set aside and
# rebuilt by the next run
head -c 4096 /dev/urandom >"$QFILE"
rm -rf "$TRASH/out"
"$LORE_AM" -q -o "$TRASH/out" -m "$box" "$V3C" 2>"$TRASH/err"
is "$? $(wc -l <"$TRASH/err") $(ls "$TRASH"/out/*.mbx | wc -l)" "0 1 1" \
	"a corrupt queue: exit 0, the series written, one line on stderr"
grep -q "^lore-am: queue file set aside, to be rebuilt: $QFILE: " "$TRASH/err"
ok $? "... which names the file"
"$LORE_AM" -q -o "$TRASH/out" -m "$box" "$V3C" 2>"$TRASH/err"
is "$(wc -c <"$TRASH/err") $(q) $(test -f "$QFILE.corrupt" && echo aside)" \
	"0 thanked v3 3/3 3/3 aside" "the next run rebuilds it from what it sees"

# lore-am.queue = false: nothing recorded
rm -f "$QFILE"*
git config --global lore-am.queue false
"$LORE_AM" -q -o "$TRASH/out" -m "$box" "$V3C" 2>/dev/null
test -e "$QFILE"
is "$?" 1 "lore-am.queue = false: no queue file"
git config --global --unset lore-am.queue
done_testing
