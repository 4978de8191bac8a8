# lib-hooks.sh - what the integration tests (t5NNN) share: two patch series
# in one mailbox, the installed programs on $PATH, maildirs, and a tmux
# driver for terminal mail clients. Source it after lib.sh.
#
#   hooks_series          build $TRASH/src (git repo: tag base, branch v1),
#                         $TRASH/one.mbox (5 patches, cover, replies with
#                         trailers), $TRASH/two.mbox (another 3-patch series,
#                         its ids ending in -OTHER@example.org) and
#                         $TRASH/both.mbox (the two); sets ONE_ID/TWO_ID
#                         (cover letters) and ONE_P2 (patch 2/5)
#   installed PROG...     the PROGs on $PATH in $FOUND, the others in
#                         $MISSING (both space-separated)
#   skip_missing          one skip for each program in $MISSING
#   have_notmuch_emacs    true when notmuch, emacs and notmuch-emacs are
#                         installed; otherwise $WHY_NOT says which is not
#   hooks_path            put lore-am and the shipped wrappers first on $PATH
#   chat_mail FILE        a mail that is no patch at all, to the list
#                         (<lunch@example.net>)
#   to_maildir MBOX DIR   deliver each message of MBOX into maildir DIR/cur
#   notmuch_hook_setup MAILDIR  a notmuch configuration for the database
#                         in MAILDIR ($NOTMUCH_CONFIG, exported; new mail
#                         tagged new and unread) with notmuch/post-new as
#                         its post-new hook, in $TRASH/hooks
#   expect_series ID DIR  run lore-am on $TRASH/both.mbox for ID into DIR
#   hooks_expected        the two series as lore-am writes them (for
#                         ONE_P2 and TWO_ID): $exp_one and $exp_two, the
#                         files; false with a "Bail out!" when it fails
#   only_file DIR GLOB    print the one file of DIR matching GLOB, or fail
#   dirty_tree REPO NAME  REPO reset to base, then a local edit of its
#                         first file ($DIRTY_FILE), staged; its diff
#                         against HEAD in $TRASH/NAME.before
#   dirty_state REPO NAME  REPO's HEAD, then "same" when its diff is still
#                         the one in $TRASH/NAME.before
#   tmux_start NAME CMD   run CMD in a 160x40 tmux session on its own socket;
#                         stopped by PID at exit
#   tmux_keys KEY...      tmux send-keys
#   tmux_wait REGEX [S]   wait (at most S seconds, default 10) until the
#                         screen matches REGEX; prints the screen on failure
#   tmux_gone REGEX [S]   wait until the screen no longer matches REGEX
#   tmux_screen           the screen as text
#   mutt_search PATTERN   in (neo)mutt's index, select the first message
#                         that PATTERN (a mutt search pattern) matches
#   bool_shown VAR        (neo)mutt's answer to ":set ?VAR" for a boolean,
#                         as "yes" or "no"
#   tmux_quit KEY         press KEY (twice at most) until the session ends;
#                         false when it is still there
#   aerc_setup MAILDIR    an aerc account on the maildir root MAILDIR in
#                         $XDG_CONFIG_HOME=$TRASH/xdg (exported), as the
#                         install page says
#   aerc_pipe KEY TEXT [S]  press KEY in aerc; wait for TEXT in the terminal
#                         tab its :pipe opens (at most S seconds, default
#                         10) and the end of the command; the tab's text in
#                         $SCREEN; the tab closed

hooks_series() {
	"$SRC_DIR/bench/gen-thread.sh" -k "$TRASH/src" -o "$TRASH/one.mbox" \
		>"$TRASH/one.id" &&
	"$SRC_DIR/bench/gen-thread.sh" -s 2 -p 3 -R 6 -o "$TRASH/two.raw" \
		>/dev/null &&
	sed 's/-PATCH@example\.org/-OTHER@example.org/g' "$TRASH/two.raw" \
		>"$TRASH/two.mbox" &&
	cat "$TRASH/one.mbox" "$TRASH/two.mbox" >"$TRASH/both.mbox" || return 1
	ONE_ID=$(cat "$TRASH/one.id")
	TWO_ID=20240101120000.0.v1-OTHER@example.org
	ONE_P2=20240101120000.2.v1-PATCH@example.org
}

installed() {
	FOUND= MISSING=
	for _p in "$@"; do
		if command -v "$_p" >/dev/null; then FOUND="$FOUND $_p"; else
			MISSING="$MISSING $_p"; fi
	done
}

skip_missing() {
	for _p in $MISSING; do skip "$_p not installed"; done
}

have_notmuch_emacs() {
	WHY_NOT=
	if ! command -v notmuch >/dev/null; then
		WHY_NOT="notmuch not installed"
	elif ! command -v emacs >/dev/null; then
		WHY_NOT="emacs not installed"
	elif ! emacs -q --batch -l notmuch >/dev/null 2>&1; then
		WHY_NOT="notmuch-emacs (elpa-notmuch) not installed"
	fi
	[ -z "$WHY_NOT" ]
}

hooks_path() {
	mkdir -p "$TRASH/bin"
	ln -sf "$LORE_AM" "$TRASH/bin/lore-am"
	ln -sf "$SRC_DIR/hooks/lore-am-pipe" "$TRASH/bin/lore-am-pipe"
	PATH=$TRASH/bin:$PATH
	export PATH
}

chat_mail() {
	cat >"$1" <<EOM
From: Someone <someone@example.net>
To: list@example.org
Subject: lunch?
Date: Mon, 15 Jan 2024 11:00:00 +0000
Message-ID: <lunch@example.net>

Anyone?
EOM
}

notmuch_hook_setup() {
	export NOTMUCH_CONFIG=$TRASH/notmuch-config
	cat >"$NOTMUCH_CONFIG" <<EOC
[database]
path=$1
hook_dir=$TRASH/hooks
[new]
tags=new;unread
[user]
name=Test Maintainer
primary_email=maintainer@example.org
EOC
	mkdir -p "$TRASH/hooks" &&
		cp "$SRC_DIR/notmuch/post-new" "$TRASH/hooks/post-new"
}

to_maildir() {
	_split=$(mktemp -d "$TRASH/split.XXXXXX")
	mkdir -p "$2/cur" "$2/new" "$2/tmp"
	git mailsplit --mboxrd -o"$_split" "$1" >/dev/null || return 1
	for _f in "$_split"/*; do
		# mailsplit keeps the From_ line; a maildir file has none
		sed 1d "$_f" >"$2/cur/$(basename "$_f").lore:2,S" || return 1
	done
	rm -rf "$_split"
}

expect_series() {
	"$LORE_AM" -q -m "$TRASH/both.mbox" -o "$2" "$1"
}

hooks_expected() {
	expect_series "$ONE_P2" "$TRASH/exp-one" &&
	expect_series "$TWO_ID" "$TRASH/exp-two" || {
		echo "Bail out! lore-am fails on the test threads"; return 1; }
	exp_one=$(only_file "$TRASH/exp-one" '*.mbx')
	exp_two=$(only_file "$TRASH/exp-two" '*.mbx')
}

only_file() {
	set -- "$1"/$2
	[ $# -eq 1 ] && [ -f "$1" ] && printf '%s\n' "$1"
}

dirty_tree() {
	git -C "$1" reset -q --hard base
	DIRTY_FILE=$(git -C "$1" ls-files | head -1)
	echo "local edit" >>"$1/$DIRTY_FILE"
	# staged: --apply keeps an unstaged edit of a file the series does
	# not touch (as git am and git merge do), and refuses a staged one
	git -C "$1" add "$DIRTY_FILE"
	git -C "$1" diff HEAD >"$TRASH/$2.before"
}

dirty_state() {
	git -C "$1" diff HEAD >"$TRASH/$2.after"
	echo "$(git -C "$1" rev-parse HEAD) $(cmp -s "$TRASH/$2.before" "$TRASH/$2.after" && echo same)"
}

_tmux_sock=
tmux_start() {
	_tmux_sock=$TRASH/tmux-$1
	shift
	unset TMUX
	tmux -S "$_tmux_sock" -f /dev/null new-session -d -x 160 -y 40 "$@" ||
		return 1
	_tmux_pids=$(tmux -S "$_tmux_sock" display-message -p \
		'#{pid} #{pane_pid}') || return 1
	at_exit "kill $_tmux_pids 2>/dev/null"
}

tmux_keys() { tmux -S "$_tmux_sock" send-keys "$@"; }
tmux_screen() { tmux -S "$_tmux_sock" capture-pane -p; }

tmux_wait() {
	_end=$(($(date +%s) + ${2:-10}))
	while [ "$(date +%s)" -le "$_end" ]; do
		tmux_screen 2>/dev/null | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "# screen did not show /$1/:"
	tmux_screen 2>/dev/null | grep -v '^ *$' | tail -15 | sed 's/^/#   /'
	return 1
}

tmux_gone() {
	_end=$(($(date +%s) + ${2:-10}))
	while [ "$(date +%s)" -le "$_end" ]; do
		tmux_screen 2>/dev/null | grep -Eq -- "$1" || return 0
		sleep 0.1
	done
	echo "# screen still shows /$1/"
	return 1
}

tmux_quit() {
	for _ in 1 2; do
		tmux_keys "$1"
		for _ in $(seq 50); do
			tmux -S "$_tmux_sock" has-session 2>/dev/null || return 0
			sleep 0.1
		done
	done
	return 1
}

# The account "test" (INBOX first), an empty aerc.conf, and binds.conf as
# the install page says: aerc's default binds, then the snippet.
aerc_setup() {
	export XDG_CONFIG_HOME=$TRASH/xdg
	mkdir -p "$XDG_CONFIG_HOME/aerc" || return 1
	cat >"$XDG_CONFIG_HOME/aerc/accounts.conf" <<EOC
[test]
source = maildir://$1
outgoing = /bin/false
default = INBOX
from = Test Maintainer <maintainer@example.org>
EOC
	chmod 600 "$XDG_CONFIG_HOME/aerc/accounts.conf"
	: >"$XDG_CONFIG_HOME/aerc/aerc.conf"
	cat /usr/share/aerc/binds.conf "$SRC_DIR/hooks/aerc-binds.conf" \
		>"$XDG_CONFIG_HOME/aerc/binds.conf"
}

# A busy aerc may drop a key pressed while it is still closing the last
# tab: when no tab has opened after 5 seconds, the key is pressed once more.
aerc_pipe() {
	for _ in 1 2; do
		tmux_keys "$1"
		tmux_wait "$2|Process complete" 5 >/dev/null && break
	done
	tmux_wait "$2" "${3:-10}" || return 1
	tmux_wait 'Process complete' 5 >/dev/null
	SCREEN=$(tmux_screen)
	tmux_keys Enter
	tmux_gone 'Process complete' 5 >/dev/null
}

mutt_search() {
	tmux_keys /
	tmux_wait 'Search for' 5 >/dev/null
	tmux_keys -l "$1"
	tmux_keys Enter
	tmux_gone 'Search for' 5 >/dev/null
}

bool_shown() {
	tmux_keys ":set ?$1" Enter
	tmux_wait "$1( is |=\")" 5 >/dev/null || return 1
	tmux_screen | grep -Eo "$1( is (un)?set|=\"(yes|no)\")" | tail -1 |
		sed -e 's/is set\|"yes"/yes/' -e 's/is unset\|"no"/no/' |
		sed 's/.*[ =]//'
}
