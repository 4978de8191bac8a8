#!/bin/bash
# lore-am queue: "applied" found in the tree, not only recorded. The am job
# stores each patch's patch-id (git patch-id --stable, as git computes it);
# `lore-am queue` run in a git work tree looks the series not yet applied
# up among the last lore-am.deps-lookback commits, in one pass: a series
# the maintainer applied with plain `git am` is found applied, with its
# commits; one whose patch was changed on the way is not; a scan is not
# done again for the same HEAD and series. --no-scan,
# lore-am.queue-scan = false, a lookback too short and a folder outside git
# find nothing. The queue file's schema: an older file gains the patch-ids
# table, a newer one is refused and left where it is.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-queue.sh"

plan 15

queue_revisions "$TRASH/repo" || { echo "Bail out! cannot build the series"; exit 1; }
QFILE=$HOME/.local/share/lore-am/queue.sqlite
sql() { sqlite3 "$QFILE" "$1"; }

# a second series, "gadget: two parts", in a thread of its own
(cd "$TRASH/repo" && git checkout -q -b gadget base &&
 for g in g1 g2; do
	printf 'int %s;\n' "$g" >"$g.c" && git add "$g.c" &&
	git commit -q -m "gadget: add $g" \
		-m "Signed-off-by: Test Maintainer <maintainer@example.org>" ||
		exit 1
 done &&
 # git names a cover letter <cover.SECONDS.git.COMMITTER-EMAIL>: made in
 # v3's second, the gadget's would be v3's; another committer keeps it apart
 GIT_COMMITTER_EMAIL=gadget@example.org \
	git format-patch -q --thread=shallow --cover-letter --base=base \
	-o "$TRASH/g" base..gadget) || { echo "Bail out! no gadget"; exit 1; }
[ "$(msgid_of "$TRASH"/g/0000-cover-letter.patch)" != "$V3C" ] ||
	{ echo "Bail out! the gadget's cover has v3's Message-ID"; exit 1; }
cover_letter "gadget: two parts" "The gadget." "$TRASH"/g/0000-cover-letter.patch
GC=$(msgid_of "$TRASH"/g/0000-cover-letter.patch)

to_mbox "$TRASH/box" "$TRASH"/q3/*.patch "$TRASH"/g/*.patch
"$LORE_AM" -q -o "$TRASH/out" -m "$TRASH/box" "$V3C" 2>"$TRASH/err" &&
	"$LORE_AM" -q -o "$TRASH/out" -m "$TRASH/box" "$GC" 2>>"$TRASH/err"
is "$? $(cat "$TRASH/err")" "0 " "the am job on both series"

want=$(git -C "$TRASH/repo" log -p --reverse base..v3 | git patch-id --stable |
	cut -d' ' -f1 | tr '\n' ' ')
got=$(sql "SELECT p.patchid FROM patches p JOIN revisions r ON r.series =
	p.series AND r.revision = p.revision WHERE r.root = '$V3C' ORDER BY
	p.number" | tr '\n' ' ')
is "$got" "$want" "each patch's patch-id stored, git's own"

# the maintainer's tree: v3 applied with plain git am, the gadget's 1/2 as
# sent and its 2/2 changed, then more work on top
user_clone "$TRASH/u" base
(cd "$TRASH/u" && git am -q "$TRASH"/q3/v3-000[123]-*.patch &&
 git am -q "$TRASH"/g/0001-*.patch &&
 sed 's/int g2;/int g2 = 2;/' "$TRASH"/g/0002-*.patch >"$TRASH/changed.patch" &&
 git am -q "$TRASH/changed.patch" &&
 for n in 1 2 3; do
	echo "$n" >>README && git commit -qam "more work $n" || exit 1
 done) || { echo "Bail out! cannot apply"; exit 1; }
first=$(git -C "$TRASH/u" rev-parse --short=12 HEAD~7)
last=$(git -C "$TRASH/u" rev-parse --short=12 HEAD~5)

# the state and where, of the series whose subject has WORD
st() {
	(cd "${2:-$TRASH/u}" && "$LORE_AM" queue --format=json ${3:-}) |
		python3 -c 'import json, sys
for s in json.load(sys.stdin):
	if sys.argv[1] in s["subject"]:
		print(s["state"], s["applied"])' "$1"
}

is "$(st widget "$TRASH/u" --no-scan)" "complete None" \
	"--no-scan: v3 not looked for"
is "$(st widget "$TRASH")" "complete None" "outside a git tree: not looked for"
git config --global lore-am.queue-scan false
is "$(st widget)" "complete None" "lore-am.queue-scan = false: not looked for"
git config --global --unset lore-am.queue-scan
git config --global lore-am.deps-lookback 3
is "$(st widget)" "complete None" \
	"a lookback of 3 commits: v3's are further back, not found"
git config --global --unset lore-am.deps-lookback

is "$(st widget)" "applied $first^..$last" \
	"applied by plain git am: found applied, with its commits"
is "$(st gadget)" "complete None" "a series with one patch changed: not applied"
# the scan remembers the HEAD and the series it looked for
(cd "$TRASH/u" && GIT_TRACE=$TRASH/trace "$LORE_AM" queue >/dev/null)
is "$(grep -c 'patch-id' "$TRASH/trace")" 0 \
	"the same HEAD and series again: no second scan"
rm -f "$TRASH/trace"
(cd "$TRASH/u" && echo 4 >>README && git commit -qam "more work 4" &&
 GIT_TRACE=$TRASH/trace "$LORE_AM" queue >/dev/null)
grep -q 'patch-id' "$TRASH/trace"
ok $? "a new commit: scanned again"
"$LORE_AM" queue --set new "$V3C"
is "$(cd "$TRASH/u" && "$LORE_AM" queue --state applied | awk '{ print $1, $2 }')" \
	"applied v3" "found again after its mark was cleared, by --state too"

# the schema: a file of schema 1 (no patch-ids) gains them, kept
sql "DROP TABLE patches; PRAGMA user_version = 1"
"$LORE_AM" -q -o "$TRASH/out" -m "$TRASH/box" "$V3C" 2>"$TRASH/err"
is "$? $(sql 'PRAGMA user_version') $(sql 'SELECT count(*) FROM patches')" \
	"0 2 3" "a schema 1 file: brought to schema 2, the patch-ids stored"
is "$(st widget "$TRASH")" "applied $first^..$last" "... its series kept, marks too"

# a file of a newer lore-am: refused in one line, not set aside
sql "PRAGMA user_version = 9"
"$LORE_AM" queue >/dev/null 2>"$TRASH/err"
is "$? $(cat "$TRASH/err")" \
	"74 lore-am: cannot use the queue file $QFILE: is from a newer version of lore-am (schema 9)" \
	"a newer schema: exit 74, one line"
test -f "$QFILE" && ! test -e "$QFILE.corrupt"
ok $? "... and the file left where it is"
done_testing
