#!/bin/bash
# --apply=merge's merge commit made with plumbing (commit-tree, read-tree
# -m -u, one ref transaction) is the commit `git merge --no-ff -F FILE
# --no-edit` makes: the same bytes (so the same id), reflog line,
# ORIG_HEAD, index and files, with git's sign-off placement and message
# clean-up, compared with a real git merge of the same tip and message.
# Where git merge would do more (a hook, merge.log) it is git merge that
# runs; either way the user's index is refreshed once, not four times.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 40

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
 echo new >new.c && git add new.c && git commit -qm "new: add new.c")
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
cover_letter "Spell and add" "This series spells two out.   \n\n\nIt adds a file." \
	"$TRASH/p/0000-cover-letter.patch"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000100 +0000"

A=$TRASH/a B=$TRASH/b
# merges PATTERN: how many `git merge` processes the traced run started
merges() { grep -c '"event":"start".*"argv":\[[^]]*"merge","--no-ff"' "$TRASH/trace"; }
# refreshes: how many git processes refreshed the index of $A's work tree
refreshes() {
	perl -ne 'print "$1\n" if /"event":"region_enter","sid":"([^"]*)".*"label":"refresh"/' \
		"$TRASH/trace" | sort -u >"$TRASH/refreshing"
	W=$A perl -ne 'print "$1\n" if /"event":"def_repo","sid":"([^"]*)".*"worktree":"\Q$ENV{W}\E"/' \
		"$TRASH/trace" | sort -u >"$TRASH/in-a"
	comm -12 "$TRASH/refreshing" "$TRASH/in-a" | wc -l
}
# apply_merge REPO: lore-am --apply=merge there, traced
apply_merge() {
	rm -f "$TRASH/trace"
	(cd "$1" && GIT_TRACE2_EVENT=$TRASH/trace "$LORE_AM" -m "$TRASH/thread.mbox" \
		--apply=merge "$id" </dev/null >/dev/null 2>"$TRASH/err")
}
# state REPO: what the two merges must leave alike
state() {
	(cd "$1" && git cat-file commit HEAD && git rev-parse HEAD ORIG_HEAD &&
	 git reflog -1 --format=%gs && git reflog -1 --format=%gs work &&
	 git ls-files -s && git status --porcelain --ignored &&
	 git worktree list --porcelain | grep -c worktree &&
	 find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)
}
# fresh REPO CONFIG...: a clone at base with the settings given
fresh() {
	_r=$1
	shift
	user_clone "$_r" base && while [ $# -gt 0 ]; do
		git -C "$_r" config "$1" "$2" && shift 2
	done
}

# --- against a real git merge of the same tip with the template's text
# case NAME TEMPLATE-TEXT FLAGS CONFIG...: lore-am with that template and
# shazam-merge-flags, then `git merge --no-ff --no-edit FLAGS -F TEMPLATE`
# of lore-am's tip in a second clone with the same settings
case_git() {
	_name=$1 _text=$2 _flags=$3
	shift 3
	printf "$_text" >"$TRASH/tpl"
	fresh "$A" lore-am.shazam-merge-template "$TRASH/tpl" \
		lore-am.shazam-merge-flags "$_flags" "$@"
	apply_merge "$A"
	ok $? "$_name: --apply=merge exits 0"
	is "$(merges)" 0 "$_name: no git merge ran"
	fresh "$B" "$@"
	git -C "$B" fetch -q "$A" work:refs/heads/theirs
	tip=$(git -C "$A" rev-parse HEAD^2)
	# shellcheck disable=SC2086
	git -C "$B" merge -q --no-ff --no-edit $_flags -F "$TRASH/tpl" "$tip" >/dev/null
	git -C "$B" branch -q -D theirs
	state "$A" >"$TRASH/a.state"
	state "$B" >"$TRASH/b.state"
	same_file "$TRASH/a.state" "$TRASH/b.state" "$_name: the same commit, reflog, index and files as git merge's"
}

case_git "a trailer block" 'Merge it\n\nText with blanks after it   \n\n\n\nLink: https://example.org/1\n' --signoff
is "$(git -C "$A" log -1 --format=%B | grep -v "^$" | tail -2 | tr '\n' '|')" \
	"Link: https://example.org/1|Signed-off-by: Test Maintainer <maintainer@example.org>|" \
	"the sign-off joins the trailer block"
case_git "no trailers" 'Merge it\n\nNo trailers here.\n' --signoff
case_git "signed off last already" 'Merge it\n\nBody.\n\nSigned-off-by: Test Maintainer <maintainer@example.org>\n' --signoff
is "$(git -C "$A" log -1 --format=%B | grep -c Signed-off-by)" 1 "a sign-off already last is not added again"
case_git "signed off, not last" 'Merge it\n\nBody.\n\nSigned-off-by: Test Maintainer <maintainer@example.org>\nLink: x\n' --signoff
case_git "a quarter trailers, blank lines after" 'Merge it\n\nBody.\n\nSigned-off-by: Some One <s@example.org>\nnot a trailer\nnor this\n\n\n' --signoff
case_git "a continued trailer, no last newline" 'Merge it\n\nBody\n\nLink: a\n  continued\nAcked-by: X <x@example.org>' --signoff
case_git "a title alone" 'Fixes: a title that looks like a trailer\n' --signoff
case_git "no sign-off, commit.cleanup verbatim" 'Merge it  \n\n\nBody   \n\n' "" commit.cleanup verbatim

# --- b4's default template, against lore-am's own git merge run (a
# pre-merge-commit hook, which git merge runs, keeps it from plumbing)
fresh "$A"
apply_merge "$A"
ok $? "the default template: --apply=merge exits 0"
is "$(merges)" 0 "no git merge ran"
is "$(refreshes)" 1 "the work tree's index is refreshed once (the precheck), not by the merge"
check "the merge message is b4's, signed off" grep -q "^Signed-off-by: Test Maintainer" \
	<(git -C "$A" log -1 --format=%B)
fresh "$B"
printf '#!/bin/sh\nexit 0\n' >"$B/.git/hooks/pre-merge-commit"
chmod +x "$B/.git/hooks/pre-merge-commit"
(A=$B apply_merge "$B")
ok $? "with a pre-merge-commit hook: exits 0"
is "$(merges)" 1 "git merge ran, as a hook was there"
state "$A" >"$TRASH/a.state"
state "$B" >"$TRASH/b.state"
same_file "$TRASH/a.state" "$TRASH/b.state" "the same commit, reflog, index and files as git merge's"

# --- merge.log: git merge adds the shortlog; it is git merge that runs
fresh "$A" merge.log true
apply_merge "$A"
ok $? "merge.log: --apply=merge exits 0"
is "$(merges)" 1 "git merge ran"
check "with the shortlog merge.log asks for" grep -q "^\* theirs\|^\* commit\|^ *new: add new.c" \
	<(git -C "$A" log -1 --format=%B)

# --- a file the series changes, edited while the trial runs: refused,
# the repository as it was (FETCH_HEAD and ORIG_HEAD put back)
fresh "$A"
printf '#!/bin/sh\necho edited >>"%s"\n' "$A/file.c" >"$A/.git/hooks/pre-applypatch"
chmod +x "$A/.git/hooks/pre-applypatch"
(cd "$A" && git rev-parse HEAD && git for-each-ref && ls .git) >"$TRASH/before"
apply_merge "$A"
is $? 1 "a file the series changes, edited meanwhile: exit 1"
check "git's reason is given" grep -q "cannot move the current branch.*file.c" "$TRASH/err"
(cd "$A" && git rev-parse HEAD && git for-each-ref && ls .git) >"$TRASH/after"
same_file "$TRASH/after" "$TRASH/before" "the branch, refs and FETCH_HEAD/ORIG_HEAD are as they were"
is "$(git -C "$A" diff --name-only)" "file.c" "the edit stays, the rest as before"
done_testing
