#!/bin/bash
# The summary's "pre-image blobs differ in N of M files" counts the files
# whose first change the mbox needs from HEAD: a file a patch creates and
# a later patch changes needs nothing (it is not in HEAD, and that is
# right). With --with-deps the prerequisites' patches are in the mbox and
# counted with the series', and the line says so. Real git format-patch
# series, the prerequisite named by its cover letter's Message-ID and
# found in the -m mailbox.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-deps.sh"
plan 7

R=$TRASH/repo
make_repo "$R" || exit 1
git -C "$R" checkout -q -b topic
# A: changes README, creates new.c, then changes it; B (on A): changes
# new.c and file.c
deps_commit "$R" README "more" "readme: one more line" &&
	deps_commit "$R" new.c "new one" "new: add new" &&
	deps_commit "$R" new.c "new two" "new: grow new" && git -C "$R" tag A
deps_commit "$R" new.c "new three" "new: grow new again" &&
	deps_commit "$R" file.c "line 11" "file: one more line" && git -C "$R" tag B
deps_series "$R" sa base A "new: the first" &&
	deps_series "$R" sb A B "new: the second" --base=A || exit 1
deps_needs sb "prerequisite-message-id: <$(deps_id sa)>"
cat "$TRASH"/sa/*.patch "$TRASH"/sb/*.patch >"$TRASH/list.mbox"
U=$TRASH/u
user_clone "$U" base "$R" || exit 1
cd "$U" || exit 1

# A alone: README from HEAD; new.c made by a patch and changed by the next
"$LORE_AM" -m "$TRASH/list.mbox" -o - "$(deps_id sa)" >"$TRASH/a.mbox" 2>"$TRASH/a.err"
ok $? "A alone: exit 0"
check "A applies clean to HEAD: said so" \
	grep -qx "       applies clean to the current tree (HEAD)" "$TRASH/a.err"
check "new.c, made by the series, not said to differ" sh -c "! grep -q 'pre-image blobs differ' '$TRASH/a.err'"

# B with its prerequisite A in the mbox: all of it applies clean
"$LORE_AM" -m "$TRASH/list.mbox" --with-deps -o - "$(deps_id sb)" >"$TRASH/b.mbox" 2>"$TRASH/b.err"
ok $? "B --with-deps: exit 0"
check "git am applies the mbox to HEAD" git am -q "$TRASH/b.mbox"
git reset -q --hard base
check "B and A: applies clean, the prerequisites' files counted" \
	grep -qx "       applies clean to the current tree (HEAD), the prerequisites' patches included" "$TRASH/b.err"

# B with file.c changed in HEAD: one of the two files (A's README, B's
# file.c) differs, and the line says the count holds A's
echo "line 0" >>file.c && git commit -qam "file: a line of ours"
"$LORE_AM" -m "$TRASH/list.mbox" --with-deps -o - "$(deps_id sb)" >/dev/null 2>"$TRASH/c.err"
check "one of the two files differs, the prerequisites' included" \
	grep -qx "       pre-image blobs differ in 1 of 2 files (the prerequisites' patches included); git am may still apply" "$TRASH/c.err"
