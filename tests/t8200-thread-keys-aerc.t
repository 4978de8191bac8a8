#!/bin/bash
# The thread key of hooks/aerc-binds.conf (Alt-m) in the real aerc, driven
# under tmux on a maildir account set up as the snippet says: from an
# INBOX that holds one message of a thread, it fills the account's folder
# lore-am with the whole thread and shows it, from the message list and
# from the viewer; another thread replaces the last one there; when
# lore-am fails, its error shows and the folder is as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
command -v aerc >/dev/null || skip_all "aerc not installed"
plan 10

cd "$TRASH" || exit 1
hooks_path
small_thread w
md=$TRASH/Maildir
maildir_add "$md/INBOX" w/c.eml w/u.eml
# the account's root is ~/Mail, the folder made once, as the snippet says
ln -s "$md" "$HOME/Mail"
mkdir -p ~/Mail/lore-am/cur ~/Mail/lore-am/new ~/Mail/lore-am/tmp

aerc_setup "$md"
# oldest first: c (10:10) is the last message of the INBOX
printf '[ui]\nsort = date\n' >"$XDG_CONFIG_HOME/aerc/aerc.conf"
export LORE_AM_ARGS="-l -m $TRASH/w/all.mbox"

grep -q '^<A-m>' /usr/share/aerc/binds.conf
is "$?" 1 "aerc binds nothing to Alt-m by default"

# Press Alt-m; wait for TEXT in the terminal tab, then close it.
thread_key() { aerc_pipe M-m "$1"; }
# Lines of the message list that show one of the small thread's senders.
shown() { tmux_screen | grep -cE 'Person [rabcde] '; }
# wait until the list shows N of them
shown_wait() {
	for _ in $(seq 50); do
		[ "$(shown)" -eq "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

tmux_start aerc aerc
tmux_wait 'another discussion' 15 >/dev/null

# the message list: the last message is c, a reply in the thread
tmux_keys G
thread_key "6 messages of the thread in $HOME/Mail/lore-am"
ok $? "Alt-m on a reply says the thread is in the lore-am folder"
shown_wait 6
ok $? "... and aerc shows that folder, with the thread's 6 messages"
same=0
for f in "$md"/lore-am/cur/*; do
	id=$(sed -n 's/^Message-ID: <\(.*\)@example.org>$/\1/p' "$f")
	cmp -s "$f" "w/$id.eml" || same=1
done
ok $same "... each file the message as sent"

# lore-am fails (a mailbox it cannot read: a link to itself): its error
# shows, the folder stays
before=$(ls "$md/lore-am/cur")
mv w/all.mbox w/all.away
ln -s all.mbox w/all.mbox
thread_key "lore-am: cannot read '$TRASH/w/all.mbox'"
ok $? "a failing Alt-m shows lore-am's error"
is "$(ls "$md/lore-am/cur")" "$before" "... and the folder is as it was"
rm w/all.mbox
mv w/all.away w/all.mbox

# the viewer, on the other thread's first message
tmux_keys ':cf INBOX' Enter
tmux_wait 'another discussion' 5 >/dev/null
tmux_keys g
for _ in 1 2; do
	tmux_keys Enter
	tmux_wait 'Subject: another discussion' 5 >/dev/null && break
done
thread_key "2 messages of the thread in $HOME/Mail/lore-am"
ok $? "Alt-m in the viewer says the other thread is in the folder"
tmux_wait 'Re: another discussion' 5 >/dev/null
ok $? "... the viewer is closed and the folder shows that thread"
is "$(shown) $(ls "$md/lore-am/cur" | wc -l)" "0 2" \
	"... which replaced the last one"

# aerc's own keys still work: q quits
tmux_quit q
ok $? "aerc's own keys still work (q quits)"
done_testing
