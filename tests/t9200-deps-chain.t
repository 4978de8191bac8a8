#!/bin/bash
# A chain of three series, each made with real `git format-patch --base`,
# whose prerequisite-patch-id: lines name the patches below it: C stands
# on B, B on A. The archive (a real public-inbox-httpd with a Xapian
# index) resolves each patch-id through its patchid: search. A is merged
# in the maintainer's tree already: lore-am says so (its patch-id, as
# lore-am computes it from the mail, is the one `git patch-id --stable`
# gives for the commit git am made) and applies B, then C, in one trial.
# b4 0.12 has no dependency support; b4 0.14's shazam would apply A again.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-deps.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
plan 26

R=$TRASH/repo
make_repo "$R" || exit 1
git -C "$R" checkout -q -b topic
deps_commit "$R" a.c "a one" "a: add a" && git -C "$R" tag A
deps_commit "$R" b.c "b one" "b: add b" &&
	deps_commit "$R" b.c "b two" "b: grow b" && git -C "$R" tag B
deps_commit "$R" c.c "c one" "c: add c" && git -C "$R" tag C
deps_series "$R" sa base A "a: the first" &&
	deps_series "$R" sb A B "b: the second" &&
	deps_series "$R" sc B C "c: the third" || exit 1
check "git wrote one prerequisite-patch-id for B, three for C" eval '
	test "$(grep -c "^prerequisite-patch-id: " "$(deps_cover sb)")" = 1 &&
	test "$(grep -c "^prerequisite-patch-id: " "$(deps_cover sc)")" = 3'
cat "$TRASH"/sa/*.patch "$TRASH"/sb/*.patch "$TRASH"/sc/*.patch \
	>"$TRASH/list.mbox"
pi_serve list "$TRASH/list.mbox" || exit 1
C_ID=$(deps_id sc)

# the maintainer's tree: A merged (applied from its mails), B and C not
U=$TRASH/u
user_clone "$U" base "$R" || exit 1
git -C "$U" am -q "$TRASH"/sa/0001-*.patch || exit 1
check "lore-am's patch-id of A's mail is git's of the commit git am made" \
	eval 'test "$(git -C "$U" show HEAD | git patch-id --stable | cut -c1-40)" = \
		"$(sed -n "s/^prerequisite-patch-id: //p" "$(deps_cover sb)")"'

# ------------------------------------------------------- plain: a report
(cd "$U" && lore plain "$C_ID")
is "$(cat "$TRASH/plain.rc")" 0 "plain run: exit 0"
A_PID=$(sed -n "s/^prerequisite-patch-id: //p" "$(deps_cover sb)")
check "the Depends on block names A's patch: already in the tree" grep -qx \
	"  prerequisite-patch-id: $A_PID: already in the tree (commit $(git -C "$U" rev-parse --short=12 HEAD))" \
	"$TRASH/plain.err"
check "and B: not in the tree" grep -q \
	"^  \[PATCH 0/2\] b: the second <$(deps_id sb)> (lore): not in the tree$" \
	"$TRASH/plain.err"
check "A, in the tree, was not searched for (one git pass told)" eval \
	'! grep -q "patchid%3A$A_PID" "$PI_ACCESS_LOG"'
check "standard output holds the series alone" eval '
	test "$(grep -c "^Subject: \[PATCH" "$TRASH/plain.out")" = 1 &&
	grep -q "^Subject: \[PATCH 1/1\] c: add c" "$TRASH/plain.out"'
check "the archive's patchid: search was asked" \
	grep -q '"POST /list/?x=m&q=patchid%3A' "$PI_ACCESS_LOG"

# --------------------------------------------- --with-deps: one mbox
(cd "$U" && lore with --with-deps "$C_ID")
is "$(cat "$TRASH/with.rc")" 0 "--with-deps: exit 0"
check "one mbox: B's two patches, then C's (not A's)" eval '
	test "$(grep "^Subject: \[PATCH" "$TRASH/with.out" | tr "\n" "|")" = \
	"Subject: [PATCH 1/2] b: add b|Subject: [PATCH 2/2] b: grow b|Subject: [PATCH 1/1] c: add c|"'
check "git am applies it on the maintainer's tree" eval '
	user_clone "$TRASH/w" base "$R" && git -C "$TRASH/w" am -q "$TRASH"/sa/0001-*.patch &&
	git -C "$TRASH/w" am -q "$TRASH/with.out" &&
	test "$(git -C "$TRASH/w" rev-parse HEAD^{tree})" = "$(git -C "$R" rev-parse C^{tree})"'

# -------------------------------------- -o DIR: each its own file
(cd "$U" && lore dir -o "$TRASH/outdir" "$C_ID")
is "$(cat "$TRASH/dir.rc")" 0 "-o DIR: exit 0"
check "B is written beside the series, A is not" eval '
	ls "$TRASH/outdir" | grep -q "^v1_.*b_the_second.mbx$\|b_the_second.mbx$" &&
	! ls "$TRASH/outdir" | grep -q "a_the_first" &&
	ls "$TRASH/outdir" | grep -q "c_the_third.mbx$"'
check "the summary says where" grep -q \
	"b: the second .*: written to $TRASH/outdir/.*b_the_second.mbx$" \
	"$TRASH/dir.err"

# ------------------------------------------------ --apply: B, then C
before=$(git -C "$U" rev-parse HEAD)
(cd "$U" && lore apply --apply "$C_ID")
is "$(cat "$TRASH/apply.rc")" 0 "--apply: exit 0"
check "the block says B is applied first" grep -q \
	"b: the second <.*> (lore): applied first$" "$TRASH/apply.err"
check "the branch gained B's two commits and C's, A's not again" eval '
	test "$(git -C "$U" log --format=%s "$before..HEAD" | tr "\n" "|")" = \
		"c: add c|b: grow b|b: add b|"'
check "the tree is C's" eval \
	'test "$(git -C "$U" rev-parse HEAD^{tree})" = "$(git -C "$R" rev-parse C^{tree})"'
check "3 patches applied in one trial" grep -q \
	"^Applied 3 patches onto the current branch" "$TRASH/apply.err"

# once all is in, nothing is applied first
(cd "$U" && lore again "$C_ID")
check "after it: B's patches are in the tree too, nothing searched" eval '
	test "$(grep -c "^  prerequisite-patch-id: .*: already in the tree (commit " "$TRASH/again.err")" = 3 &&
	! grep -q "not in the tree" "$TRASH/again.err"'

# -------------------------------------------- --no-deps: none of it
posts=$(grep -c '"POST ' "$PI_ACCESS_LOG")
(cd "$U" && lore nodeps --no-deps "$C_ID")
is "$(cat "$TRASH/nodeps.rc")" 0 "--no-deps: exit 0"
check "no Depends on block" eval '! grep -q "^Depends on:" "$TRASH/nodeps.err"'
is "$(grep -c '"POST ' "$PI_ACCESS_LOG")" "$posts" "and no search"

# -------------------------- a series without prerequisites: no search
A_ID=$(deps_id sa)
(cd "$U" && lore nothing "$A_ID")
is "$(cat "$TRASH/nothing.rc") $(grep -c '"POST ' "$PI_ACCESS_LOG")" \
	"0 $posts" "a series with none: exit 0, no search"
check "and no block" eval '! grep -q "^Depends on:" "$TRASH/nothing.err"'

# --with-deps and --no-deps contradict
(cd "$U" && lore both --with-deps --no-deps "$C_ID")
is "$(cat "$TRASH/both.rc")" 2 "--with-deps --no-deps: exit 2"
done_testing
