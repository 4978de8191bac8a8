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
#   hooks_path            put lore-am and the shipped wrappers first on $PATH
#   to_maildir MBOX DIR   deliver each message of MBOX into maildir DIR/cur
#   expect_series ID DIR  run lore-am on $TRASH/both.mbox for ID into DIR
#   only_file DIR GLOB    print the one file of DIR matching GLOB, or fail
#   tmux_start NAME CMD   run CMD in a 160x40 tmux session on its own socket;
#                         stopped by PID at exit
#   tmux_keys KEY...      tmux send-keys
#   tmux_wait REGEX [S]   wait (at most S seconds, default 10) until the
#                         screen matches REGEX; prints the screen on failure
#   tmux_gone REGEX [S]   wait until the screen no longer matches REGEX
#   tmux_screen           the screen as text

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

hooks_path() {
	mkdir -p "$TRASH/bin"
	ln -sf "$LORE_AM" "$TRASH/bin/lore-am"
	ln -sf "$SRC_DIR/hooks/lore-am-pipe" "$TRASH/bin/lore-am-pipe"
	PATH=$TRASH/bin:$PATH
	export PATH
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

only_file() {
	set -- "$1"/$2
	[ $# -eq 1 ] && [ -f "$1" ] && printf '%s\n' "$1"
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
