# lib-keys.sh - one of lore-am's keys pressed in a real mail client on
# $TRASH/thread.mbox, lore-am told to read that mbox (-m) and to work in a
# fresh clone of $TRASH/repo at $TRASH/u: neomutt's pager and aerc under
# tmux, notmuch-emacs in emacs --batch. The test says what the screen or
# the buffer must show. Source after lib.sh, lib-series.sh and
# lib-hooks.sh (and call hooks_path first: the clients run lore-am-pipe).

# keys_neomutt KEY PATTERN [SEARCH]: neomutt on the thread, the message
# SEARCH finds (a neomutt pattern; the first message without one) opened
# in the pager, KEY pressed there; succeeds when PATTERN shows within
# 20 s (the screen is said when it does not). The session stays for the
# caller's next tmux_wait.
keys_neomutt() {
	user_clone "$TRASH/u" || return 1
	cat >"$TRASH/neomutt.rc" <<-RC
	set folder="$TRASH" spoolfile="$TRASH/thread.mbox" record="" postponed=""
	set mbox_type=mbox pipe_decode
	unset wait_key
	source "$SRC_DIR/mutt/lore-am.muttrc"
	set my_lore_am_args="-m $TRASH/thread.mbox"
	set my_lore_am_repo="$TRASH/u"
	RC
	tmux_start neomutt env LORE_AM_PAGER=cat neomutt -n -R \
		-F "$TRASH/neomutt.rc" -f "$TRASH/thread.mbox" || return 1
	tmux_wait 'Msgs:' >/dev/null
	[ -z "${3:-}" ] || mutt_search "$3"
	tmux_keys Enter
	tmux_wait '^Subject: ' 5 >/dev/null
	tmux_keys "$1"
	tmux_wait "$2" 20 >/dev/null
}

# keys_aerc KEY PATTERN LISTED: aerc on a maildir account holding the
# thread, once its list shows LISTED; KEY pressed; succeeds when PATTERN
# shows in its terminal tab within 20 s.
keys_aerc() {
	user_clone "$TRASH/u" || return 1
	to_maildir "$TRASH/thread.mbox" "$TRASH/Maildir/INBOX"
	aerc_setup "$TRASH/Maildir" || return 1
	tmux_start aerc env LORE_AM_PAGER=cat LORE_AM_REPO="$TRASH/u" \
		LORE_AM_ARGS="-m $TRASH/thread.mbox" aerc || return 1
	tmux_wait "$3" 15 >/dev/null
	aerc_pipe "$1" "$2" 20
	_keys_rc=$?
	unset XDG_CONFIG_HOME
	return $_keys_rc
}

# keys_emacs FUNCTION MSGID: notmuch-emacs on a notmuch database of the
# thread, the message MSGID shown, (FUNCTION) called; prints the
# *lore-am* buffer, then "status RC" with what FUNCTION returned.
keys_emacs() {
	user_clone "$TRASH/u" || return 1
	to_maildir "$TRASH/thread.mbox" "$TRASH/mail/lists"
	export NOTMUCH_CONFIG=$TRASH/notmuch-config
	printf '[database]\npath=%s\n[new]\ntags=new\n' "$TRASH/mail" >"$NOTMUCH_CONFIG"
	notmuch new --no-hooks >/dev/null 2>&1
	emacs -q --batch -L "$SRC_DIR/notmuch" --eval "(require (quote lore-am))" --eval "
(progn
  (setq lore-am-repo \"$TRASH/u\" lore-am-args \"-m $TRASH/thread.mbox\")
  (notmuch-show \"id:$2\")
  (let ((rc ($1)))
    (princ (with-current-buffer \"*lore-am*\" (buffer-string)))
    (princ (format \"\\nstatus %s\\n\" rc))))" 2>&1
}
