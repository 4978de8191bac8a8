#!/bin/bash
# What the Base: lines say when HEAD's files are not the series' pre-image:
# the check compares blob ids, while git am applies with offsets, so the
# line says what was measured ("pre-image blobs differ in 1 of 1 files;
# git am may still apply"), never "does not apply clean" right before a
# series git am applies; with --apply, once git am has run, it says what
# happened. Real git am is the judge.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 10

# the series changes line 9 of file.c; HEAD has two lines more at the top
make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 sed -i 's/^line 9$/line nine/' file.c && git commit -qam "file: spell out nine" \
	-m "Signed-off-by: Pat Contributor <pat@example.com>")
fmt "$TRASH/repo" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*)
git clone -q "$TRASH/repo" "$TRASH/u"
(cd "$TRASH/u" && git checkout -q -b work base &&
 sed -i '1i top 1\ntop 2' file.c && git commit -qam "file: two lines on top")

cd "$TRASH/u" || exit 1
start=$(git rev-parse HEAD)
"$LORE_AM" -m "$TRASH/thread.mbox" "$id" >s.mbx 2>err
is "$?" 0 "lore-am exits 0"
check "it says what it measured" \
	grep -qx "       pre-image blobs differ in 1 of 1 files; git am may still apply" err
check "not that the series does not apply" eval '! grep -q "does not apply" err'
git am -q s.mbx
ok $? "and git am does apply it"
git reset -q --hard "$start"

"$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>aerr
is "$?" 0 "--apply exits 0"
is "$(git log -1 --format=%s)" "file: spell out nine" "the patch is applied"
check "--apply: no line that reads like a failure before it" \
	eval '! grep -q "does not apply\|may still apply" aerr'
check "--apply says what git am made of it" eval \
	'grep -A1 "^Applied 1 patch onto the current branch" aerr |
	 grep -qx "       pre-image blobs differed in 1 of 1 files; git am applied the series all the same"'

# and when git am cannot: the failure, then what was measured
git reset -q --hard "$start"
sed -i 's/^line 9$/line NINE/' file.c && git commit -qam "file: nine in capitals"
head=$(git rev-parse HEAD)
"$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>ferr
ok $((! $?)) "--apply fails when the hunk's line changed"
check "and says the pre-image differs" \
	grep -qx "       pre-image blobs differ in 1 of 1 files in HEAD" ferr
