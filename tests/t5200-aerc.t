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
hooks_expected || exit 1
# one series in the folder: whichever message is selected belongs to it
to_maildir "$TRASH/one.mbox" "$TRASH/Maildir/INBOX"

aerc_setup "$TRASH/Maildir"

repo=$TRASH/repo
git clone -q "$TRASH/src" "$repo" && git -C "$repo" checkout -q -b work base
export LORE_AM_ARGS="-m $TRASH/both.mbox" LORE_AM_REPO=$repo
trailers() { grep -cE '^(Reviewed|Acked|Tested)-by:'; }

tmux_start aerc aerc
tmux_wait 'PATCH [0-9]/5' 15 >/dev/null

aerc_pipe M-a "saved in $HOME/patches"
ok $? "Alt-a says where the series went"
check "Alt-a wrote the am-ready series" \
	cmp "$(only_file "$HOME/patches" '*.mbx')" "$exp_one"

aerc_pipe M-g "applied 5 patches to '$repo'" 20
ok $? "Alt-g says the series was applied"
check "Alt-g gives the series' tree" git -C "$repo" diff --quiet origin/v1
is "$(git -C "$repo" log --format=%B base..HEAD | trailers)" \
	"$(trailers <"$exp_one")" "the commits carry the review trailers"

head=$(git -C "$repo" rev-parse HEAD)
aerc_pipe M-g "nothing applied; '$repo' is as it was" 20
ok $? "a failing Alt-g says the repository is as it was"
is "$(git -C "$repo" rev-parse HEAD) $(git -C "$repo" status --porcelain | wc -l)" \
	"$head 0" "... and it is: same HEAD, clean"
printf '%s\n' "$SCREEN" | grep -q '^lore-am: git am failed at patch 0001 '
ok $? "... and lore-am's line names the patch that failed"

# a dirty work tree: lore-am --apply refuses it before anything
dirty_tree "$repo" dirty
aerc_pipe M-g "lore-am: --apply: the work tree has uncommitted changes" 20
ok $? "Alt-g in a dirty work tree: lore-am refuses it"
is "$(dirty_state "$repo" dirty)" \
	"$(git -C "$repo" rev-parse base) same" "... the branch and the edit are as they were"
git -C "$repo" checkout -q HEAD -- "$DIRTY_FILE"

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
tmux_quit q
ok $? "aerc's own keys still work (q, q quits)"
done_testing
