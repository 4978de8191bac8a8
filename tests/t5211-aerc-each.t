#!/bin/bash
# hooks/aerc-binds.conf's Alt-e in the real aerc under tmux, mutt's Esc T
# counterpart (aerc 0.14 reads a binding <A-T> as <A-t>): one message of each of two series marked in the list (aerc
# pipes them as one mbox), lore-am-pipe each cuts them apart and saves
# the series of each one's thread, one after the other, from the sources
# LORE_AM_ARGS names; with nothing marked, the selected message's. And
# lore-am-pipe each alone: a message with no series among them does not
# stop the others, and the exit status says one failed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
command -v aerc >/dev/null || skip_all "aerc not installed"
plan 9

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
hooks_expected || exit 1
to_maildir "$TRASH/both.mbox" "$TRASH/Maildir/INBOX"
aerc_setup "$TRASH/Maildir"
export LORE_AM_ARGS="-m $TRASH/both.mbox"

# mark_first TERM: mark the first message whose subject has TERM
mark_first() {
	tmux_keys -l ":search $1"
	tmux_keys Enter
	sleep 0.5
	tmux_keys -l ':mark'
	tmux_keys Enter
}

tmux_start aerc aerc
tmux_wait 'PATCH [0-9]/5' 15 >/dev/null
mark_first sensor_core_init_locked
mark_first jig_core_reset_locked
aerc_pipe M-e "series of 2 messages saved in $HOME/patches" 30
ok $? "Alt-e says it saved the series of the 2 marked messages"
a=$(ls "$HOME/patches"/*.mbx 2>/dev/null | sort | tr '\n' ' ')
b=$(printf '%s\n' "$HOME/patches/${exp_one##*/}" \
	"$HOME/patches/${exp_two##*/}" | sort | tr '\n' ' ')
is "$a" "$b" "Alt-e saved the series of each marked message"
check "... the first one the am-ready series" \
	cmp "$HOME/patches/${exp_one##*/}" "$exp_one"
check "... and the second" cmp "$HOME/patches/${exp_two##*/}" "$exp_two"

# aerc clears the marks after a command: now the selected message alone
# (piped with no From_ line), whose series Alt-e saves as Alt-a would
rm -rf "$HOME/patches"
aerc_pipe M-e "series of 1 message saved in $HOME/patches" 20 &&
	cmp -s "$(only_file "$HOME/patches" '*.mbx')" "$exp_one"
ok $? "Alt-e with nothing marked: the selected message's series"
tmux_quit q
ok $? "aerc's own keys still work (q quits)"

# a chat mail first, then patch 2/5 of the first series, as aerc pipes them
chat_mail "$TRASH/chat"
p2=$(grep -lix "message-id: <$ONE_P2>" "$TRASH"/Maildir/INBOX/cur/*)
{
	echo "From chat@z Thu Jan  1 00:00:00 1970" && cat "$TRASH/chat" && echo &&
	echo "From p2@z Thu Jan  1 00:00:00 1970" && cat "$p2"
} >"$TRASH/mixed.mbox"
check "the mbox piped holds the two messages" \
	test "$(grep -c '^From ' "$TRASH/mixed.mbox")" = 2
rm -rf "$HOME/patches"
lore-am-pipe each <"$TRASH/mixed.mbox" >"$TRASH/mixed.out" 2>"$TRASH/mixed.err"
is "$?:$(tail -1 "$TRASH/mixed.err")" \
	"1:lore-am-pipe: the series of 1 of 2 messages saved in $HOME/patches" \
	"one without a series: the other saved all the same, exit 1"
check "... that one the am-ready series" \
	cmp "$(only_file "$HOME/patches" '*.mbx')" "$exp_one"
done_testing
