#!/bin/bash
# --apply (b4 shazam): the series applied with real git am in a temporary
# worktree, then fast-forwarded onto the current branch, left as
# FETCH_HEAD (=head) or merged with the cover letter (=merge, the message
# compared with the one real `b4 shazam -M` writes). Every refusal and
# failure leaves the repository exactly as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 54

# a series that changes a file the base has, adds one and changes another
make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" \
	-m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 echo new > new.c && git add new.c &&
 git commit -qm "new: add new.c" -m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 echo more >> README && git commit -qam "readme: say more" \
	-m "Signed-off-by: Pat Contributor <pat@example.com>")
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
cover=$TRASH/p/0000-cover-letter.patch
cover_letter "Spell and add" "This series spells two out.\n\nIt also adds a file." "$cover"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
base=$(git -C "$TRASH/repo" rev-parse base)
topic_tree=$(git -C "$TRASH/repo" rev-parse 'topic^{tree}')

# user REPO: a clone with branch "work" at base
user() { user_clone "$1" base; }
# state REPO: everything a failed run must leave as it was
state() {
	(cd "$1" && git rev-parse HEAD && git symbolic-ref -q HEAD
	 git status --porcelain && git worktree list --porcelain &&
	 git for-each-ref && git stash list && git branch -a &&
	 ls "$(git rev-parse --git-dir)")
}
la() { "$LORE_AM" -m "$TRASH/thread.mbox" "$@"; }

# --- know the tree, outside and inside a repository
user "$TRASH/u0"
(cd "$TRASH/u0" && la "$id" >"$TRASH/out0" 2>"$TRASH/err0")
ok $? "lore-am in a repository exits 0"
check "the base-commit is known here" grep -qx " Base: using specified base-commit $base" "$TRASH/err0"
check "the series applies clean to HEAD" grep -q "applies clean to the current tree" "$TRASH/err0"
check "the checkout line is there" grep -q "git checkout -b .* $base" "$TRASH/err0"
check "the mbox goes to stdout" grep -q "^Subject: \[PATCH 1/3\] file: spell out two" "$TRASH/out0"
sed "s/^base-commit: .*/base-commit: 0123456789abcdef0123456789abcdef01234567/" "$TRASH/thread.mbox" >"$TRASH/unknown.mbox"
(cd "$TRASH/u0" && "$LORE_AM" -m "$TRASH/unknown.mbox" "$id" >/dev/null 2>"$TRASH/err1")
check "an unknown base-commit is said so" grep -qx " Base: base-commit 0123456789abcdef0123456789abcdef01234567 not known here" "$TRASH/err1"
! grep -q "git checkout" "$TRASH/err1"
ok $? "no checkout line for a commit the repository lacks"
(cd "$TRASH/u0" && git commit -q --allow-empty -m x && sed -i 's/^line 2$/line deux/' file.c &&
 git commit -qam "file: deux" && la "$id" >/dev/null 2>"$TRASH/err2")
check "a changed file is told: its pre-image blob differs" grep -q "pre-image blobs differ in 1 of 2 files; git am may still apply" "$TRASH/err2"
(cd "$TRASH" && la "$id" >/dev/null 2>"$TRASH/err3")
check "outside a repository the Base line is as before" grep -qx " Base: using specified base-commit $base" "$TRASH/err3"
! grep -q "applies clean" "$TRASH/err3"
ok $? "outside a repository nothing is said about HEAD"

# --- --apply onto the current branch
user "$TRASH/u1"
(cd "$TRASH/u1" && la --apply "$id" >"$TRASH/out1" 2>"$TRASH/err1")
ok $? "--apply exits 0"
is "$(wc -c <"$TRASH/out1")" 0 "--apply writes nothing on stdout"
is "$(git -C "$TRASH/u1" log --format=%s base..work | tr '\n' '|')" \
	"readme: say more|new: add new.c|file: spell out two|" "the three patches are on the current branch"
is "$(git -C "$TRASH/u1" rev-parse 'HEAD^{tree}')" "$topic_tree" "the tree is the series' tree"
is "$(git -C "$TRASH/u1" worktree list | wc -l)" 1 "no temporary worktree is left"
check "the summary says what was applied" grep -q "^Applied 3 patches onto the current branch" "$TRASH/err1"
is "$(git -C "$TRASH/u1" status --porcelain)" "" "the work tree is clean"

# --- --apply=head: on the base, as FETCH_HEAD; the branch untouched
user "$TRASH/u2"
(cd "$TRASH/u2" && git commit -q --allow-empty -m "later work" && git rev-parse HEAD) >"$TRASH/head2"
(cd "$TRASH/u2" && la --apply=head "$id" >/dev/null 2>"$TRASH/err2")
ok $? "--apply=head exits 0"
is "$(git -C "$TRASH/u2" rev-parse HEAD)" "$(cat "$TRASH/head2")" "the current branch is untouched"
is "$(git -C "$TRASH/u2" rev-parse 'FETCH_HEAD^{tree}')" "$topic_tree" "FETCH_HEAD holds the series"
is "$(git -C "$TRASH/u2" rev-parse 'FETCH_HEAD~3')" "$base" "on the series' base-commit"
check "FETCH_HEAD says where the patches came from" grep -q "patches from https://patch.msgid.link/" "$TRASH/u2/.git/FETCH_HEAD"
is "$(git -C "$TRASH/u2" worktree list | wc -l)" 1 "no temporary worktree is left"

# --- --apply=merge: the merge message word for word as b4 shazam -M's
user "$TRASH/u3"
(cd "$TRASH/u3" && git commit -q --allow-empty -m "later work" &&
 la --apply=merge "$id" >/dev/null 2>"$TRASH/err3" </dev/null)
ok $? "--apply=merge exits 0"
is "$(git -C "$TRASH/u3" rev-list --parents -1 HEAD | wc -w)" 3 "HEAD is a merge"
is "$(git -C "$TRASH/u3" rev-parse 'HEAD^2^{tree}')" "$topic_tree" "its second parent is the series"
git -C "$TRASH/u3" log -1 --format=%B >"$TRASH/merge.la"
if command -v b4 >/dev/null; then
	user "$TRASH/b4"
	# b4 0.12's linkmask was lore.kernel.org/r/; b4's since 0.14, and
	# lore-am's, is patch.msgid.link
	git -C "$TRASH/b4" config b4.linkmask 'https://patch.msgid.link/%s'
	(cd "$TRASH/b4" && git commit -q --allow-empty -m "later work" &&
	 printf '\n' | GIT_EDITOR=true b4 --offline-mode shazam -M \
		-m "$TRASH/thread.mbox" "$id" >/dev/null 2>&1)
	git -C "$TRASH/b4" log -1 --format=%B >"$TRASH/merge.b4"
	same_file "$TRASH/merge.la" "$TRASH/merge.b4" "the merge message is b4 shazam -M's"
else
	skip "b4 is not installed"
fi
check "the message starts as b4's template" grep -qx 'Merge patch series "Spell and add"' "$TRASH/merge.la"
check "with the cover letter's text" grep -qx "It also adds a file." "$TRASH/merge.la"
! grep -q "^base-commit:" "$TRASH/merge.la"
ok $? "the cover letter's base-commit trailer is not in the message"

# --- refused before anything: a file the series changes changed in the
# work tree, an operation in progress
user "$TRASH/u4"
echo dirty >>"$TRASH/u4/file.c"
state "$TRASH/u4" >"$TRASH/before4"
(cd "$TRASH/u4" && la --apply "$id" >/dev/null 2>"$TRASH/err4")
is $? 2 "a dirty work tree: exit 2"
is "$(grep "^lore-am:" "$TRASH/err4")" "lore-am: --apply: the work tree has uncommitted changes; nothing applied" "one line says why"
state "$TRASH/u4" >"$TRASH/after4"
same_file "$TRASH/after4" "$TRASH/before4" "the dirty repository is unchanged"

user "$TRASH/u5"
(cd "$TRASH/u5" && git checkout -q -b side base && echo other >file.c && git commit -qam other &&
 git checkout -q work && git format-patch -q -1 side -o "$TRASH/side" &&
 sed -i 's/^line 2$/line zwei/' file.c && git commit -qam zwei &&
 git am -q "$TRASH"/side/*.patch >/dev/null 2>&1)
state "$TRASH/u5" >"$TRASH/before5"
(cd "$TRASH/u5" && la --apply=merge "$id" >/dev/null 2>"$TRASH/err5")
is $? 2 "a git am in progress: exit 2"
check "the operation is named" grep -q "an operation is in progress in this repository (rebase-apply)" "$TRASH/err5"
state "$TRASH/u5" >"$TRASH/after5"
same_file "$TRASH/after5" "$TRASH/before5" "the repository in the middle of git am is unchanged"

# --- a patch that does not apply: nothing changes
for mode in "" =merge; do
	user "$TRASH/u6"
	(cd "$TRASH/u6" && sed -i 's/^line 2$/line deux/' file.c && git commit -qam "file: deux")
	state "$TRASH/u6" >"$TRASH/before6"
	(cd "$TRASH/u6" && la --apply$mode "$id" >/dev/null 2>"$TRASH/err6")
	st=$?
	state "$TRASH/u6" >"$TRASH/after6"
	if [ "$mode" = "" ]; then
		is $st 1 "--apply$mode of a patch that does not apply: exit 1"
		grep "^lore-am:" "$TRASH/err6" >"$TRASH/err6.l"
		is "$(cat "$TRASH/err6.l")" "lore-am: git am failed at patch 0001 \"file: spell out two\": error: patch failed: file.c:1; nothing applied" \
			"one line names the patch and git's reason"
	else
		# on its base-commit the series applies: the merge conflicts
		is $st 1 "--apply$mode whose merge conflicts: exit 1"
	fi
	same_file "$TRASH/after6" "$TRASH/before6" "--apply$mode: the repository is unchanged"
done
check "a failed merge says so and is undone" grep -q "git merge failed: .*the current branch is unchanged" "$TRASH/err6"

# --- --apply -o DIR: what is applied is kept there too (the apply keys)
(cd "$TRASH" && la -o "$TRASH/plain" "$id" >/dev/null 2>&1)
# the temporary worktree holds only the files the series touches (a hook
# of git am lists them), and the commits keep all the others
user "$TRASH/u8"
(cd "$TRASH/u8" && mkdir -p deep/er && echo other >"deep/er/o ther*.c" &&
 git add deep && git commit -qm "other file")
git -C "$TRASH/u8" config --local --list >"$TRASH/config8.before"
printf '#!/bin/sh
find . -name .git -prune -o -type f -print | sort >>"%s"
' \
	"$TRASH/seen8" >"$TRASH/u8/.git/hooks/pre-applypatch"
chmod +x "$TRASH/u8/.git/hooks/pre-applypatch"
(cd "$TRASH/u8/deep" && la --apply -o "$TRASH/kept8" "$id" >/dev/null 2>&1)
ok $? "--apply -o DIR exits 0 (run from a subfolder)"
is "$(git -C "$TRASH/u8" diff --stat HEAD~3 HEAD | tail -1)" \
	"$(git -C "$TRASH/repo" diff --stat base topic | tail -1)" "the series is applied"
is "$(git -C "$TRASH/u8" ls-tree -r --name-only HEAD | tr '\n' ' ')" \
	"README deep/er/o ther*.c file.c new.c " "the files it does not touch are kept"
check "and written into DIR as -o writes it" diff -r "$TRASH/plain" "$TRASH/kept8"
is "$(sort -u "$TRASH/seen8" | tr '\n' ' ')" "./README ./file.c ./new.c " \
	"git am's worktree held only the series' files"
git -C "$TRASH/u8" config --local --list >"$TRASH/config8.after"
same_file "$TRASH/config8.after" "$TRASH/config8.before" "the repository's config is unchanged (no sparse-checkout setting)"
user "$TRASH/u9"
(cd "$TRASH/u9" && sed -i 's/^line 2$/line deux/' file.c && git commit -qam "file: deux")
state "$TRASH/u9" >"$TRASH/before9"
(cd "$TRASH/u9" && la --apply -o "$TRASH/kept9" "$id" >/dev/null 2>&1)
is $? 1 "--apply -o DIR of a patch that does not apply: exit 1"
state "$TRASH/u9" >"$TRASH/after9"
same_file "$TRASH/after9" "$TRASH/before9" "the repository is unchanged"
check "and the series is kept in DIR" diff -r "$TRASH/plain" "$TRASH/kept9"

# --- interrupted: the temporary worktree goes away
user "$TRASH/u7"
mkdir -p "$TRASH/u7/.git/hooks"
printf '#!/bin/sh\ntouch "%s"\nsleep 3\n' "$TRASH/in-hook" >"$TRASH/u7/.git/hooks/applypatch-msg"
chmod +x "$TRASH/u7/.git/hooks/applypatch-msg"
state "$TRASH/u7" >"$TRASH/before7"
(cd "$TRASH/u7" && exec "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" >/dev/null 2>"$TRASH/err7") &
pid=$!
for _ in $(seq 100); do [ -e "$TRASH/in-hook" ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
is $? 1 "SIGTERM during git am: exit 1"
check "it says it was interrupted" grep -q "interrupted; nothing applied" "$TRASH/err7"
state "$TRASH/u7" >"$TRASH/after7"
same_file "$TRASH/after7" "$TRASH/before7" "the interrupted repository is unchanged, no worktree left"
done_testing
