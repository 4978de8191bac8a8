#!/bin/bash
# The keys for what follows the mbox: lore-am-pipe's range-diff,
# apply-head and apply-merge actions, neomutt's Esc D in the pager (the
# range-diff shown on its screen) and notmuch-emacs' lore-am-range-diff,
# all on a real two-revision thread and real repositories.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
plan 13

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
echo dirty >>"$TRASH/u/file.c"
pipe apply-merge >/dev/null 2>"$TRASH/err"
is $? 1 "a dirty repository: lore-am-pipe apply-merge fails"
check "with lore-am's reason" grep -q "uncommitted changes" "$TRASH/err"

# neomutt: Esc D in the pager
if command -v neomutt >/dev/null && command -v tmux >/dev/null; then
	user_clone "$TRASH/u"
	cat >"$TRASH/neomutt.rc" <<-RC
	set folder="$TRASH" spoolfile="$TRASH/thread.mbox" record="" postponed=""
	set mbox_type=mbox pipe_decode
	unset wait_key
	source "$SRC_DIR/mutt/lore-am.muttrc"
	set my_lore_am_args="-m $TRASH/thread.mbox"
	set my_lore_am_repo="$TRASH/u"
	RC
	tmux_start neomutt env LORE_AM_PAGER=cat neomutt -n -R \
		-F "$TRASH/neomutt.rc" -f "$TRASH/thread.mbox"
	tmux_wait 'Msgs:' >/dev/null
	mutt_search '~s "v2 1/2"'
	tmux_keys Enter
	tmux_wait '^Subject: ' 5 >/dev/null
	tmux_keys M-D
	tmux_wait '! 1: +[0-9a-f]+ c: add c' 20 >/dev/null
	ok $? "neomutt: Esc D in the pager shows the range-diff"
	tmux_wait 'Press any key to continue' 5 >/dev/null
	ok $? "neomutt: and waits for a key before the pager comes back"
else
	skip "neomutt or tmux not installed"
	skip "neomutt or tmux not installed"
fi

# aerc: Alt-d on a maildir account holding the thread
if command -v aerc >/dev/null && command -v tmux >/dev/null; then
	user_clone "$TRASH/u"
	to_maildir "$TRASH/thread.mbox" "$TRASH/Maildir/INBOX"
	aerc_setup "$TRASH/Maildir"
	tmux_start aerc env LORE_AM_PAGER=cat LORE_AM_REPO="$TRASH/u" \
		LORE_AM_ARGS="-m $TRASH/thread.mbox" aerc
	tmux_wait 'PATCH' 15 >/dev/null
	aerc_pipe M-d '! 1: +[0-9a-f]+ c: add c' 20
	ok $? "aerc: Alt-d shows the range-diff in its terminal tab"
	unset XDG_CONFIG_HOME
else
	skip "aerc or tmux not installed"
fi

# notmuch-emacs: lore-am-range-diff
if have_notmuch_emacs; then
	user_clone "$TRASH/u"
	to_maildir "$TRASH/thread.mbox" "$TRASH/mail/lists"
	export NOTMUCH_CONFIG=$TRASH/notmuch-config
	printf '[database]\npath=%s\n[new]\ntags=new\n' "$TRASH/mail" >"$NOTMUCH_CONFIG"
	notmuch new --no-hooks >/dev/null 2>&1
	out=$(emacs -q --batch -L "$SRC_DIR/notmuch" --eval "(require (quote lore-am))" --eval "
(progn
  (setq lore-am-repo \"$TRASH/u\" lore-am-args \"-m $TRASH/thread.mbox\")
  (notmuch-show \"id:$(msgid_of "$P1")\")
  (let ((rc (lore-am-range-diff)))
    (princ (with-current-buffer \"*lore-am*\" (buffer-string)))
    (princ (format \"\\nstatus %s\\n\" rc))))" 2>&1)
	printf '%s\n' "$out" | grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$"
	ok $? "notmuch-emacs: lore-am-range-diff shows the range-diff in *lore-am*"
else
	skip "notmuch-emacs not installed"
fi
done_testing
