#!/bin/bash
# The keys for what follows the mbox: lore-am-pipe's range-diff,
# apply-head and apply-merge actions, neomutt's Esc D in the pager (the
# range-diff shown on its screen) and Esc H (b4 shazam -H), aerc's Alt-d
# and Alt-j (b4 shazam -M), and notmuch-emacs' lore-am-range-diff, all on
# a real two-revision thread and real repositories.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-keys.sh"
plan 17

R=$TRASH/repo
two_revisions "$R" || exit 1
cover_letter "Add a and c" "Two small files." "$TRASH/p2/v2-0000-cover-letter.patch"
revisions_mbox "$TRASH/thread.mbox"
P1=$TRASH/p2/v2-0001-c-add-c.patch
hooks_path
pipe() { lore-am-pipe -r "$TRASH/u" -a "-m $TRASH/thread.mbox" "$@" <"$P1"; }

user_clone "$TRASH/u"
pipe range-diff >"$TRASH/out" 2>"$TRASH/err"
ok $? "lore-am-pipe range-diff exits 0"
check "its output holds the range-diff" grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$" "$TRASH/out"
check "after the summary" grep -q "^Comparing v1 (3 patches) with v2 (2 patches)" "$TRASH/out"

pipe apply-head >/dev/null 2>&1
ok $? "lore-am-pipe apply-head exits 0"
is "$(git -C "$TRASH/u" rev-parse 'FETCH_HEAD^{tree}')" "$(git -C "$R" rev-parse 'v2^{tree}')" \
	"the series is in FETCH_HEAD"
pipe apply-merge >/dev/null 2>&1
ok $? "lore-am-pipe apply-merge exits 0"
is "$(git -C "$TRASH/u" log -1 --format=%s)" 'Merge patch series "Add a and c"' \
	"the current branch has the merge"
echo dirty >>"$TRASH/u/file.c" && git -C "$TRASH/u" add file.c
pipe apply-merge >/dev/null 2>"$TRASH/err"
is $? 1 "a dirty repository: lore-am-pipe apply-merge fails"
check "with lore-am's reason" grep -q "uncommitted changes" "$TRASH/err"

# neomutt: Esc D in the pager
if command -v neomutt >/dev/null && command -v tmux >/dev/null; then
	keys_neomutt M-D '! 1: +[0-9a-f]+ c: add c' '~s "v2 1/2"'
	ok $? "neomutt: Esc D in the pager shows the range-diff"
	tmux_wait 'Press any key to continue' 5 >/dev/null
	ok $? "neomutt: and waits for a key before the pager comes back"
	keys_neomutt M-H 'left as FETCH_HEAD' '~s "v2 1/2"'
	ok $? "neomutt: Esc H says the series is left as FETCH_HEAD"
	is "$(git -C "$TRASH/u" rev-parse 'FETCH_HEAD^{tree}'):$(git -C "$TRASH/u" rev-parse HEAD)" \
		"$(git -C "$R" rev-parse 'v2^{tree}'):$(git -C "$R" rev-parse main)" \
		"neomutt: ... the series in FETCH_HEAD, the branch not moved"
else
	skip "neomutt or tmux not installed"
	skip "neomutt or tmux not installed"
	skip "neomutt or tmux not installed"
	skip "neomutt or tmux not installed"
fi

# aerc: Alt-d on a maildir account holding the thread
if command -v aerc >/dev/null && command -v tmux >/dev/null; then
	keys_aerc M-d '! 1: +[0-9a-f]+ c: add c' 'PATCH'
	ok $? "aerc: Alt-d shows the range-diff in its terminal tab"
	keys_aerc M-j 'merged them into the current branch' 'PATCH'
	ok $? "aerc: Alt-j applies the series and merges it"
	is "$(git -C "$TRASH/u" log -1 --format=%s)" 'Merge patch series "Add a and c"' \
		"aerc: ... the current branch has the merge"
else
	skip "aerc or tmux not installed"
	skip "aerc or tmux not installed"
	skip "aerc or tmux not installed"
fi

# notmuch-emacs: lore-am-range-diff
if have_notmuch_emacs; then
	keys_emacs lore-am-range-diff "$(msgid_of "$P1")" |
		grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$"
	ok $? "notmuch-emacs: lore-am-range-diff shows the range-diff in *lore-am*"
else
	skip "notmuch-emacs not installed"
fi
done_testing
