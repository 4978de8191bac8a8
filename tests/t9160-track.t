#!/bin/bash
# lore-am.track: --apply writes the tracking file `b4 ty` reads, with the
# commits applied and their patchwork hashes as b4 computes them; the
# real `b4 ty --auto --dry-run` then finds the series and thanks for it.
# The mail clients' apply key (lore-am-pipe apply) goes through --apply
# and writes it too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-track.sh"
plan 15

track_thread "Hello,"
user() { user_clone "$1" base; }

user "$TRASH/u"
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>&1)
ok $? "--apply without lore-am.track"
[ ! -e "$data" ]
ok $? "writes no tracking file (off by default)"

user "$TRASH/u"
git -C "$TRASH/u" config lore-am.track true
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>"$TRASH/err")
ok $? "--apply with lore-am.track = true"
file=$(ls "$data"/*.am 2>/dev/null)
is "$(basename "$file")" "$(date -u +%Y%m%d)_maintainer_add_the_pieces.am" "one file, named as b4 names it"
check "the summary names it" grep -q "^Tracked for b4 ty: $file" "$TRASH/err"
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$file"; }
is "$(json "d['msgid']")" "$cover_id" "the cover letter's message-id"
is "$(json "d['to'] + ' | ' + d['cc']")" "list@example.org | rev@example.com" "its To and Cc"
is "$(json "' '.join(c[1] for c in d['commits'])")" "$(git -C "$TRASH/u" rev-list --reverse base..HEAD | tr '\n' ' ' | sed 's/ $//')" \
	"the exact commits applied"
if /usr/bin/python3 -c "import b4" 2>/dev/null; then
	want=$(b4_hashes "$TRASH/u" base..HEAD)
	is "$(json "' '.join(p[1] for p in d['patches'])") " "$want" "each patch's hash is b4's patchwork hash of its commit"
else
	skip "b4's Python module is not installed"
fi

if command -v b4 >/dev/null; then
	thanks=$(b4_ty "$TRASH/u" "$TRASH/ty")
	check "b4 ty --auto finds the series" grep -q "Located: \[PATCH 0/3\] Add the pieces" "$TRASH/ty.out"
	check "and thanks for each applied commit" grep -q "commit: $(git -C "$TRASH/u" rev-parse HEAD)" "$thanks"
	check "addressed to the series' author and list" grep -qx "To: list@example.org, Test Maintainer <maintainer@example.org>" "$thanks"
else
	skip "b4 is not installed"; skip "b4 is not installed"; skip "b4 is not installed"
fi

# the mail clients' apply key: lore-am-pipe apply runs lore-am --apply
rm -rf "$data"
user "$TRASH/k"
git -C "$TRASH/k" config lore-am.track true
mkdir -p "$TRASH/bin" && ln -sf "$LORE_AM" "$TRASH/bin/lore-am"
PATH=$TRASH/bin:$PATH "$SRC_DIR/hooks/lore-am-pipe" -d "$TRASH/kept" -r "$TRASH/k" \
	-a "-m $TRASH/thread.mbox" apply <"$TRASH/p/0001-part-add-piece-1.patch" >"$TRASH/kout" 2>&1
ok $? "lore-am-pipe apply with lore-am.track = true"
file=$(ls "$data"/*.am 2>/dev/null)
is "$(basename "$file")" "$(date -u +%Y%m%d)_maintainer_add_the_pieces.am" "writes the tracking file"
is "$(json "' '.join(c[1] for c in d['commits'])")" "$(git -C "$TRASH/k" rev-list --reverse base..HEAD | tr '\n' ' ' | sed 's/ $//')" \
	"with the exact commits the key applied"
done_testing
