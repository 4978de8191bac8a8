#!/bin/bash
# lore-am.track on a run that only writes the series (`lore-am ... >
# s.mbx && git am s.mbx`, b4 am's habit): the tracking file b4 ty reads is
# written as b4 am writes it (the same fields as the real `b4 am` writes
# for the same thread), with each patch's patchwork hash taken from its
# diff, so that after git am the real `b4 ty --auto --dry-run` finds the
# series by those hashes and thanks for each commit. Off without the
# setting; never for a refused series, a part of one (--allow-incomplete,
# which the notmuch hook runs) or a --passthrough mail.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 17

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter --to=list@example.org --cc=rev@example.com
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/Add the pieces/; s/\*\*\* BLURB HERE \*\*\*/Hello,\n\nThis adds three pieces./' \
	"$TRASH/p/0000-cover-letter.patch"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
to_mbox "$TRASH/half.mbox" "$TRASH"/p/0000-* "$TRASH"/p/0001-* "$TRASH"/p/0003-*
id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
cover_id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")
data=$HOME/.local/share/b4
name="$(date -u +%Y%m%d)_maintainer_add_the_pieces.am"
user() { rm -rf "$1" && git clone -q "$TRASH/repo" "$1" && git -C "$1" checkout -q -b work base; }

user "$TRASH/u"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" "$id" >s.mbx 2>/dev/null)
ok $? "lore-am ID > s.mbx without lore-am.track"
check "writes no tracking file (off by default)" test ! -e "$data"

git config --global lore-am.track true
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" "$id" >s.mbx 2>"$TRASH/err")
ok $? "lore-am ID > s.mbx with lore-am.track = true"
file=$(ls "$data"/*.am 2>/dev/null)
is "$(basename "$file")" "$name" "one file, named as b4 names it"
check "the summary names it" grep -qF "Tracked for b4 ty: $file" "$TRASH/err"
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$file"; }
is "$(json "d['msgid'] + ' ' + str('commits' in d)")" "$cover_id False" \
	"the cover letter's message-id, no commits (not applied yet)"
(cd "$TRASH/u" && git am -q s.mbx)
ok $? "git am s.mbx"
if /usr/bin/python3 -c "import b4" 2>/dev/null; then
	want=$(b4_hashes "$TRASH/u" base..HEAD)
	is "$(json "' '.join(p[1] for p in d['patches'])") " "$want" \
		"each patch's hash is b4's patchwork hash of the commit git am made"
else
	skip "b4's Python module is not installed"
fi

if command -v b4 >/dev/null; then
	thanks=$(b4_ty "$TRASH/u" "$TRASH/ty")
	check "b4 ty --auto finds the series" grep -q "Located: \[PATCH 0/3\] Add the pieces" "$TRASH/ty.out"
	is "$(grep -c '^ *commit: ' "$thanks" 2>/dev/null)" 3 "and thanks for each of the three commits"
	check "the last one is HEAD" grep -q "commit: $(git -C "$TRASH/u" rev-parse HEAD)" "$thanks"
	# the real b4 am on the same thread writes the same record
	mkdir "$TRASH/b4data" "$TRASH/b4out"
	(cd "$TRASH/u" && XDG_DATA_HOME=$TRASH/b4data b4 -q am -m "$TRASH/thread.mbox" \
		-o "$TRASH/b4out" "$id" >/dev/null 2>&1)
	b4file=$TRASH/b4data/b4/$name
	fields="' | '.join(str(d[k]) for k in ('msgid', 'subject', 'fromname', 'fromemail', 'to', 'cc', 'references', 'sentdate', 'quote', 'cherrypick'))"
	mine=$(json "$fields + ' | ' + str([(p[0], p[2], p[3]) for p in d['patches']])")
	file=$b4file
	is "$mine" "$(json "$fields + ' | ' + str([(p[0], p[2], p[3]) for p in d['patches']])")" \
		"the same record as b4 am's (but for the hashes, taken from the diff alone)"
	file=$(ls "$data"/*.am)
else
	skip "b4 is not installed"; skip "b4 is not installed"
	skip "b4 is not installed"; skip "b4 is not installed"
fi

# not for a refused series, nor for a mail filter's run
rm -rf "$data"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/half.mbox" "$id" >/dev/null 2>&1)
is "$?" 1 "an incomplete series is refused"
check "and not tracked" test ! -e "$data"
(cd "$TRASH/u" && "$LORE_AM" --allow-incomplete -m "$TRASH/half.mbox" "$id" >/dev/null 2>&1)
is "$?" 0 "--allow-incomplete writes the part (as the notmuch hook does)"
check "but does not track a part of a series" test ! -e "$data"
"$LORE_AM" --passthrough -o "$TRASH/pt" -m "$TRASH/thread.mbox" \
	<"$TRASH/p/0001-part-add-piece-1.patch" >/dev/null 2>&1
check "--passthrough tracks nothing" test ! -e "$data"
