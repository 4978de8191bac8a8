#!/bin/bash
# hooks/aerc-binds.conf in the real aerc, driven under tmux on a maildir
# account: Alt-a saves the am-ready series (message list and viewer),
# Alt-g applies it through lore-am --apply, a failing apply or a dirty
# work tree leaves the repository alone, and aerc's own keys still work with the snippet appended to binds.conf.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
command -v aerc >/dev/null || skip_all "aerc not installed"
plan 12

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
expect_series "$ONE_P2" "$TRASH/exp-one" || {
	echo "Bail out! lore-am fails on the test threads"; exit 1; }
exp_one=$(only_file "$TRASH/exp-one" '*.mbx')
# one series in the folder: whichever message is selected belongs to it
to_maildir "$TRASH/one.mbox" "$TRASH/Maildir/INBOX"

export XDG_CONFIG_HOME=$TRASH/xdg
mkdir -p "$XDG_CONFIG_HOME/aerc"
cat >"$XDG_CONFIG_HOME/aerc/accounts.conf" <<EOC
[test]
source = maildir://$TRASH/Maildir
outgoing = /bin/false
default = INBOX
from = Test Maintainer <maintainer@example.org>
EOC
chmod 600 "$XDG_CONFIG_HOME/aerc/accounts.conf"
: >"$XDG_CONFIG_HOME/aerc/aerc.conf"
# what the install page says: the default binds, then the snippet
cat /usr/share/aerc/binds.conf "$SRC_DIR/hooks/aerc-binds.conf" \
	>"$XDG_CONFIG_HOME/aerc/binds.conf"

repo=$TRASH/repo
git clone -q "$TRASH/src" "$repo" && git -C "$repo" checkout -q -b work base
export LORE_AM_ARGS="-m $TRASH/both.mbox" LORE_AM_REPO=$repo
trailers() { grep -cE '^(Reviewed|Acked|Tested)-by:'; }

# Press KEY in the message list or viewer; wait for TEXT in the terminal
# tab :pipe opens and for the end of the command, keep the tab's text in
# SCREEN, then close the tab. A
# busy aerc may drop a key pressed while it is still closing the last tab:
# when no tab has opened after 5 seconds, the key is pressed once more.
pipe_key() {
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

tmux_start aerc aerc
tmux_wait 'PATCH [0-9]/5' 15 >/dev/null

pipe_key M-a "saved in $HOME/patches"
ok $? "Alt-a says where the series went"
check "Alt-a wrote the am-ready series" \
	cmp "$(only_file "$HOME/patches" '*.mbx')" "$exp_one"

pipe_key M-g "applied 5 patches to '$repo'" 20
ok $? "Alt-g says the series was applied"
check "Alt-g gives the series' tree" git -C "$repo" diff --quiet origin/v1
is "$(git -C "$repo" log --format=%B base..HEAD | trailers)" \
	"$(trailers <"$exp_one")" "the commits carry the review trailers"

head=$(git -C "$repo" rev-parse HEAD)
pipe_key M-g "nothing applied; '$repo' is as it was" 20
ok $? "a failing Alt-g says the repository is as it was"
is "$(git -C "$repo" rev-parse HEAD) $(git -C "$repo" status --porcelain | wc -l)" \
	"$head 0" "... and it is: same HEAD, clean"
printf '%s\n' "$SCREEN" | grep -q '^lore-am: git am failed at patch 0001 '
ok $? "... and lore-am's line names the patch that failed"

# a dirty work tree: lore-am --apply refuses it before anything
git -C "$repo" reset -q --hard base
f=$(git -C "$repo" ls-files | head -1)
echo "local edit" >>"$repo/$f"
git -C "$repo" diff >"$TRASH/dirty.before"
pipe_key M-g "lore-am: --apply: the work tree has uncommitted changes" 20
ok $? "Alt-g in a dirty work tree: lore-am refuses it"
git -C "$repo" diff >"$TRASH/dirty.after"
is "$(git -C "$repo" rev-parse HEAD) $(cmp -s "$TRASH/dirty.before" "$TRASH/dirty.after" && echo same)" \
	"$(git -C "$repo" rev-parse base) same" "... the branch and the edit are as they were"
git -C "$repo" checkout -q -- "$f"

# the viewer (aerc 0.14 sometimes drops the last lines a :pipe command
# prints just before it exits, so here only the file is checked)
rm -rf "$HOME/patches"
# the part is shown last; keys pressed before that may be lost
for _ in 1 2; do
	tmux_keys Enter
	tmux_wait 'What would you like to do' 5 >/dev/null && break
done
for _ in 1 2; do
	tmux_keys M-a
	tmux_wait 'Process complete' 5 >/dev/null && break
done
check "Alt-a in the viewer wrote the am-ready series" \
	cmp "$(only_file "$HOME/patches" '*.mbx')" "$exp_one"
tmux_keys Enter
tmux_gone 'Process complete' 5 >/dev/null

# aerc's own keys survive the appended snippet: q closes the viewer, q quits
tmux_keys q
tmux_gone 'What would you like to do' 5 >/dev/null
gone=1
for _ in 1 2; do
	tmux_keys q
	for _ in $(seq 50); do
		tmux -S "$TRASH/tmux-aerc" has-session 2>/dev/null ||
			{ gone=0; break; }
		sleep 0.1
	done
	[ $gone = 0 ] && break
done
ok $gone "aerc's own keys still work (q, q quits)"
done_testing
