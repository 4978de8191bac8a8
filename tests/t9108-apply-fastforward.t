#!/bin/bash
# --apply's fast-forward: the current branch moved to the applied series
# as `git merge --ff-only` moves it (the same commits, reflog line and
# ORIG_HEAD, the post-merge hook run), without a second look at every
# file of the work tree after the precheck's (one index refresh in the
# user's tree, not two) and without a walk of its whole index (the two
# trees' difference given to git apply --index). What git merge refuses
# is still refused (by read-tree -m -u when git apply refuses), the
# repository as it was: an untracked file where the series adds one, a
# file the series changes edited while the trial ran.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 17

R=$TRASH/repo
spell_series "$R"
export GIT_COMMITTER_DATE="1700000000 +0000"

user() {
	rm -rf "$1" && git clone -q "$R" "$1" &&
		git -C "$1" checkout -q -b work base &&
		sleep 1 && git -C "$1" status --porcelain >/dev/null
}
state() {
	(cd "$1" && git rev-parse HEAD && git for-each-ref && cat .git/config &&
	 sha1sum .git/index && git status --porcelain --ignored &&
	 git worktree list --porcelain && ls -a .git && cat .git/ORIG_HEAD 2>/dev/null &&
	 git reflog -3 --format=%gs && find . -path ./.git -prune -o -type f -print0 |
		sort -z | xargs -0 sha1sum)
}
apply() { (cd "$1" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" </dev/null >/dev/null 2>"$1.err"); }

# what plain git merge --ff-only leaves, from the same commits
user "$TRASH/u1"
mkdir -p "$TRASH/u1/.git/hooks"
printf '#!/bin/sh\necho "post-merge $*" >>"%s"\necho from the hook\n' "$TRASH/hook1" \
	>"$TRASH/u1/.git/hooks/post-merge"
chmod +x "$TRASH/u1/.git/hooks/post-merge"
before=$(git -C "$TRASH/u1" rev-parse HEAD)
GIT_TRACE2_EVENT=$TRASH/trace1 apply "$TRASH/u1"
ok $? "--apply exits 0"
tip=$(git -C "$TRASH/u1" rev-parse HEAD)
is "$(git -C "$TRASH/u1" rev-parse 'HEAD^{tree}')" "$(git -C "$R" rev-parse 'topic^{tree}')" "the series is applied"
is "$(git -C "$TRASH/u1" status --porcelain)" "" "the work tree and index are clean"
is "$(git -C "$TRASH/u1" reflog -1 --format=%gs)" "merge $tip: Fast-forward" "HEAD's reflog says what git merge --ff-only says"
is "$(git -C "$TRASH/u1" reflog -1 --format=%gs work)" "merge $tip: Fast-forward" "and so does the branch's"
is "$(git -C "$TRASH/u1" rev-parse ORIG_HEAD)" "$before" "ORIG_HEAD is where the branch was"
is "$(cat "$TRASH/hook1")" "post-merge 0" "the post-merge hook ran once, as git merge runs it"
check "its words go to stderr" grep -q "from the hook" "$TRASH/u1.err"
# the work tree's index is refreshed once, by the precheck: the git
# processes that refresh an index, and of them those of the work tree
# (not of the temporary worktree)
perl -ne 'print "$1\n" if /"event":"region_enter","sid":"([^"]*)".*"label":"refresh"/' \
	"$TRASH/trace1" | sort -u >"$TRASH/refreshing"
W=$TRASH/u1 perl -ne 'print "$1\n" if /"event":"def_repo","sid":"([^"]*)".*"worktree":"\Q$ENV{W}\E"/' \
	"$TRASH/trace1" | sort -u >"$TRASH/in-u1"
refreshes=$(comm -12 "$TRASH/refreshing" "$TRASH/in-u1" | wc -l)
is "$refreshes" 1 "the work tree's files are looked at once, not once more to fast-forward"
# nor is every entry of its index walked: the trees' difference is applied
is "$(grep -c '"event":"start".*"argv":\[[^]]*"read-tree"' "$TRASH/trace1")" 0 \
	"no read-tree walks the whole index (git apply --index of the difference)"

# an untracked file where the series adds new.c: refused, as git merge does
user "$TRASH/u2"
echo mine >"$TRASH/u2/new.c"
state "$TRASH/u2" >"$TRASH/before2"
apply "$TRASH/u2"
is $? 1 "an untracked file in the way: exit 1"
check "git's reason is given" grep -q "cannot move the current branch.*new.c" "$TRASH/u2.err"
state "$TRASH/u2" >"$TRASH/after2"
same_file "$TRASH/after2" "$TRASH/before2" "the repository and the untracked file are as they were"

# file.c edited while the trial runs (git am's hook in the temporary
# worktree edits the user's copy): the branch does not move, the edit stays
user "$TRASH/u3"
printf '#!/bin/sh\necho edited >>"%s"\n' "$TRASH/u3/file.c" >"$TRASH/u3/.git/hooks/pre-applypatch"
chmod +x "$TRASH/u3/.git/hooks/pre-applypatch"
apply "$TRASH/u3"
is $? 1 "a file the series changes, edited meanwhile: exit 1"
is "$(git -C "$TRASH/u3" rev-parse HEAD)" "$(git -C "$R" rev-parse base)" "the branch has not moved"
is "$(tail -1 "$TRASH/u3/file.c")" "edited" "the edit is kept"
is "$(git -C "$TRASH/u3" status --porcelain)" " M file.c" "only that edit is there"
done_testing
