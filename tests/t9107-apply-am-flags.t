#!/bin/bash
# b4's shazam-am-flags (lore-am. or b4.): more flags for --apply's git am.
# The commits are the ones plain `git am FLAGS` makes in the work tree, in
# every --apply mode; a flag that would not leave the trial a trial (it
# asks, resumes, half-applies, reads a file or moves the patches' paths)
# is refused in one line, before anything is done.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 18

R=$TRASH/repo
series_repo "$R" 3
fmt "$R" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
"$LORE_AM" -m "$TRASH/thread.mbox" -o - "$id" 2>/dev/null >"$TRASH/am.mbox"
export GIT_COMMITTER_DATE="1700000000 +0000"

# user REPO [b4|lore-am FLAGS]: a clone at base, the flags in its config
user() {
	rm -rf "$1" && git clone -q "$R" "$1" &&
		git -C "$1" checkout -q -b work base &&
		git -C "$1" config user.name "Mae Maintainer" &&
		git -C "$1" config user.email mae@example.org &&
		{ [ -z "${2:-}" ] || git -C "$1" config "$2.shazam-am-flags" "$3"; }
}
# plain FLAGS...: the commit plain git am with FLAGS makes in the work tree
plain() {
	user "$TRASH/plain" && (cd "$TRASH/plain" && git am -q "$@" <"$TRASH/am.mbox") &&
		git -C "$TRASH/plain" rev-parse HEAD
}
state() {
	(cd "$1" && git rev-parse HEAD && git for-each-ref && cat .git/config &&
	 sha1sum .git/index && git status --porcelain --ignored &&
	 git worktree list --porcelain && ls -a .git)
}

want=$(plain --signoff)
user "$TRASH/u1" b4 "--signoff"
(cd "$TRASH/u1" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>"$TRASH/err1")
ok $? "--apply with b4.shazam-am-flags=--signoff exits 0"
is "$(git -C "$TRASH/u1" rev-parse HEAD)" "$want" "the commits are plain git am --signoff's, byte for byte"
is "$(git -C "$TRASH/u1" log -1 --format=%b | grep -c 'Signed-off-by: Mae Maintainer <mae@example.org>')" 1 \
	"the maintainer's sign-off is in the commit"

user "$TRASH/u2" b4 "--signoff"
(cd "$TRASH/u2" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=head "$id" >/dev/null 2>&1)
ok $? "--apply=head exits 0"
is "$(git -C "$TRASH/u2" rev-parse FETCH_HEAD)" "$want" "FETCH_HEAD is plain git am --signoff's commits"

user "$TRASH/u3" b4 "--signoff"
(cd "$TRASH/u3" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=merge "$id" >/dev/null 2>&1)
ok $? "--apply=merge exits 0"
is "$(git -C "$TRASH/u3" rev-parse HEAD^2)" "$want" "the merge's second parent is plain git am --signoff's"

# lore-am.'s key wins over b4.'s; flags with values in the same word
want=$(plain --message-id --whitespace=nowarn -C3)
user "$TRASH/u4" b4 "--bogus"
git -C "$TRASH/u4" config lore-am.shazam-am-flags "--message-id  '--whitespace=nowarn' -C3"
(cd "$TRASH/u4" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>&1)
ok $? "lore-am.shazam-am-flags is read before b4.'s"
is "$(git -C "$TRASH/u4" rev-parse HEAD)" "$want" "the commits are plain git am --message-id's"

# refused FLAGS LABEL: exit 2, one line naming the word, nothing changed
refused() {
	user "$TRASH/u5" b4 "$1"
	state "$TRASH/u5" >"$TRASH/before"
	(cd "$TRASH/u5" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" \
		</dev/null >/dev/null 2>"$TRASH/err5")
	is $? 2 "$2: refused, exit 2"
	state "$TRASH/u5" >"$TRASH/after"
	if cmp -s "$TRASH/before" "$TRASH/after" && grep -q "shazam-am-flags.*nothing applied" "$TRASH/err5"; then
		ok 0 "$2: the repository unchanged, and said why"
	else
		ok 1 "$2: the repository unchanged, and said why"
		sed 's/^/# /' "$TRASH/err5"
	fi
}
refused "--signoff --interactive" "--interactive (it asks)"
check "the word is named" grep -q "'--interactive' is not a git am flag" "$TRASH/err5"
refused "--reject" "--reject (half applies)"
refused "-p2" "-p2 (other paths)"
refused "--signoff '" "broken quoting"
done_testing
