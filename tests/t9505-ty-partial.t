#!/bin/bash
# lore-am ty after `lore-am ID > s.mbx && git am` (lore-am.track = true:
# the tracking file holds each patch's patchwork hash, no commits), with
# only two of the three patches kept: -l says how much of each series the
# branch holds, -a finds the two by their hashes as the real `b4 ty -a`
# does, says that one is missing, and writes b4's mail ("(no commit
# info)" for the third, compared with b4's). A branch that holds none of
# a series thanks for nothing. -b BRANCH looks there instead.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-ty.sh"
. "$(dirname "$0")/lib-track.sh"
plan 13

track_thread "Hi all,"
name="$(date -u +%Y%m%d)_maintainer_add_the_pieces.am"
slug=maintainer_example_org_patch_0_3_add_the_pieces

user_clone "$TRASH/u" base
git config --global lore-am.track true
cd "$TRASH/u" || exit 1
"$LORE_AM" -q -m "$TRASH/thread.mbox" "$id" >s.mbx && git am -q s.mbx &&
	git reset -q --hard HEAD~1
ok $? "lore-am ID > s.mbx && git am s.mbx, the last patch dropped"
check "tracked, by hashes (no commits)" eval \
	"[ -e '$data/$name' ] && ! grep -q commits '$data/$name'"

"$LORE_AM" ty -l 2>"$TRASH/l.err"
is "$?" 0 "ty -l"
check "lists the series as b4 ty -l does" grep -q '^  1: \[PATCH 0/3\] Add the pieces$' "$TRASH/l.err"
check "and says two of its three patches are in the branch" \
	grep -q '^       Applied: 2 of 3 patches in work$' "$TRASH/l.err"

b4 ty -a --dry-run -o "$TRASH/b4" >"$TRASH/b4.out" 2>&1
"$LORE_AM" ty -a -o "$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "ty -a"
check "says which series and that a patch is missing" eval \
	"grep -q '^  Located: \[PATCH 0/3\] Add the pieces' '$TRASH/err' &&
	 grep -q \"^lore-am: '\[PATCH 0/3\] Add the pieces': 2 of 3 patches applied in work\" '$TRASH/err'"
check "b4 ty -a thanks for the same part" grep -q "Could not match 1 of 3 patches" "$TRASH/b4.out"
ty_same "$TRASH/out/$slug.thanks" "$TRASH/b4/$slug.thanks" "the same mail as b4 ty's"
check "the third patch without a commit" eval \
	"grep -A1 '^\[3/3\] part: add piece 3' '$TRASH/out/$slug.thanks' | grep -q '^      (no commit info)'"

# a branch with none of it: nothing thanked, nothing moved
mv "$data/$name.sent" "$data/$name"
git checkout -q -b other base
"$LORE_AM" ty -a -o "$TRASH/none" 2>"$TRASH/none.err"
is "$?.$(ls "$TRASH/none" 2>/dev/null | wc -l)" 0.0 "a branch without the series: nothing written"
check "and it says so; the tracking file stays" eval \
	"grep -q '^  Not applied in other: \[PATCH 0/3\] Add the pieces' '$TRASH/none.err' && [ -e '$data/$name' ]"
"$LORE_AM" ty -a -b work --dry-run >"$TRASH/b.mbx" 2>/dev/null
check "-b work: found there" grep -q "^\[1/3\] part: add piece 1" "$TRASH/b.mbx"
done_testing
