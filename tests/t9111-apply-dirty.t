#!/bin/bash
# --apply's look at the user's tree before anything: nothing staged, and
# the work tree's copies of the files the series touches unchanged. Only
# those files are looked at (git's trace2 counts the lstat calls), not
# every file of the tree; a change to another file stays as it is, as git
# merge and git am leave it; --apply=head, which writes only FETCH_HEAD,
# looks at nothing. What is refused leaves the repository as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 20

R=$TRASH/repo
make_repo "$R"
# 200 files the series does not touch
(cd "$R" && mkdir other && for i in $(seq 200); do echo "$i" >"other/f$i.c"; done &&
 git add other && git commit -qm "other files" && git tag -f -a -m base base >/dev/null &&
 git checkout -q -b topic &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
 echo new >new.c && git add new.c && git commit -qm "new: add new.c")
fmt "$R" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
tree=$(git -C "$R" rev-parse 'topic^{tree}')

U=$TRASH/u
la() { (cd "$U" && GIT_TRACE2_EVENT=$TRASH/trace "$LORE_AM" -m "$TRASH/thread.mbox" "$@" "$id" \
	</dev/null >/dev/null 2>"$TRASH/err"); }
fresh() { rm -f "$TRASH/trace" && user_clone "$U" base "$R"; }
state() {
	(cd "$U" && git rev-parse HEAD && git for-each-ref && sha1sum .git/index &&
	 git status --porcelain && ls .git && git worktree list --porcelain)
}
# lstats: the files of the user's tree git looked at (trace2's counts)
lstats() {
	W=$U perl -ne '$w{$1} = 1 if /"event":"def_repo","sid":"([^"]*)".*"worktree":"\Q$ENV{W}\E"/;
		$n{$1} += $2 if /"sid":"([^"]*)".*"key":"(?:preload|refresh)\/sum_lstat","value":"(\d+)"/;
		END { my $s = 0; $s += $n{$_} // 0 for keys %w; print "$s\n" }' "$TRASH/trace"
}

# --- a change to a file the series does not touch stays
fresh
echo mine >>"$U/other/f7.c"
la --apply
ok $? "--apply with another file changed exits 0"
is "$(git -C "$U" rev-parse 'HEAD^{tree}')" "$tree" "the series is applied"
is "$(git -C "$U" status --porcelain)" " M other/f7.c" "the other change stays, unstaged"
is "$(tail -1 "$U/other/f7.c")" "mine" "with its text"
n=$(lstats)
check "only the series' files were looked at ($n lstat calls, the tree has 203 files)" test "$n" -lt 20

fresh
echo mine >>"$U/other/f7.c"
la --apply=merge
ok $? "--apply=merge with another file changed exits 0"
is "$(git -C "$U" rev-parse 'HEAD^2^{tree}')" "$tree" "the series is merged"
is "$(git -C "$U" status --porcelain)" " M other/f7.c" "the other change stays"

# --- --apply=head: the work tree is not looked at
fresh
echo mine >>"$U/file.c"
la --apply=head
ok $? "--apply=head with a file of the series changed exits 0"
is "$(git -C "$U" rev-parse 'FETCH_HEAD^{tree}')" "$tree" "FETCH_HEAD holds the series"
is "$(git -C "$U" status --porcelain)" " M file.c" "the change stays, the branch as it was"
is "$(lstats)" 0 "no file of the work tree was looked at"

# --- refused before the trial: a file of the series changed, a change
# staged anywhere; the repository as it was, no git am run
for how in changed staged; do
	fresh
	if [ $how = changed ]; then
		echo mine >>"$U/file.c"
	else
		echo mine >>"$U/other/f7.c" && git -C "$U" add other/f7.c
	fi
	state >"$TRASH/before"
	la --apply
	is $? 2 "$how: exit 2"
	check "$how: one line says why" grep -qx "lore-am: --apply: the work tree has uncommitted changes; nothing applied" "$TRASH/err"
	state >"$TRASH/after"
	same_file "$TRASH/after" "$TRASH/before" "$how: the repository is as it was"
	is "$(grep -c '"event":"start".*"argv":\[[^]]*"am"' "$TRASH/trace")" 0 "$how: refused before git am ran"
done
done_testing
