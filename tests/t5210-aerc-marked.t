#!/bin/bash
# hooks/aerc-binds.conf's Alt-t in the real aerc under tmux: the messages
# marked in the list (aerc pipes them as one mbox) are the series' only
# source (lore-am-pipe marked: lore-am -m -), the sources named in
# LORE_AM_ARGS left out; mutt's Esc T counterpart.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
command -v aerc >/dev/null || skip_all "aerc not installed"
plan 4

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
hooks_expected || exit 1
to_maildir "$TRASH/one.mbox" "$TRASH/Maildir/INBOX"
aerc_setup "$TRASH/Maildir"
# another series in the mailbox ARGS names: were it read, the two would
# mix (two v1 cover letters)
export LORE_AM_ARGS="-m $TRASH/two.mbox"

tmux_start aerc aerc
tmux_wait 'PATCH [0-9]/5' 15 >/dev/null
tmux_keys -l ':mark -a'
tmux_keys Enter
aerc_pipe M-t "saved in $HOME/patches" 20
ok $? "Alt-t says where the series went"
got=$(only_file "$HOME/patches" '*.mbx')
check "Alt-t wrote the series of the marked messages" cmp "$got" "$exp_one"
printf '%s\n' "$SCREEN" | grep -q 'Sources: mbox 26 messages'
ok $? "... read from the 26 marked messages alone, not LORE_AM_ARGS' -m"
tmux_quit q
ok $? "aerc's own keys still work (q quits)"
done_testing
