#!/bin/bash
# mutt/lore-am.muttrc in the real neomutt and mutt, driven under tmux: the
# save key writes the am-ready series (index and pager), the apply key
# commits it through lore-am --apply and leaves the repository alone when
# that fails (lore-am's line naming the patch with git's reason, not git's
# advice to --continue, and the series kept where the save key puts it)
# or when the work tree is dirty,
# the tagged variant saves one series per tagged message, and the user's
# pipe settings come back afterwards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
installed neomutt mutt
[ -n "$FOUND" ] || skip_all "neither neomutt nor mutt installed"
set -- $FOUND
# 19 checks for mutt, 18 for neomutt (see the unbound keys below), one
# skip for a client that is not installed
n=0
for c in "$@"; do n=$((n + 18)); [ "$c" = mutt ] && n=$((n + 1)); done
plan $((n + $(echo $MISSING | wc -w)))
skip_missing

hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
hooks_path
hooks_expected || exit 1
trailers() { grep -cE '^(Reviewed|Acked|Tested)-by:'; }

base_rc() {
	cat <<-EOF
	set folder="$TRASH"
	set spoolfile="$TRASH/both.mbox"
	set record="" postponed=""
	set mbox_type=mbox
	set pipe_decode
	unset wait_key
	EOF
}

# Press KEY, a key that pipes, and wait until its output shows TEXT and
# the client asks for a key; then go back. The terminal keeps the output
# of earlier commands, so only TEXT tells this run's output from theirs.
# Fails (after S seconds, default 10) when TEXT does not show.
pipe_key() {
	tmux_keys "$1"
	_end=$(($(date +%s) + ${3:-10}))
	while :; do
		SCREEN=$(tmux_screen)
		if printf '%s\n' "$SCREEN" | grep -qF -- "$2" &&
		   printf '%s\n' "$SCREEN" | grep -v '^ *$' | tail -1 |
			grep -q 'Press any key to continue'; then
			tmux_keys Enter
			tmux_gone 'Press any key to continue' 5 >/dev/null
			return 0
		fi
		if [ "$(date +%s)" -gt "$_end" ]; then
			printf '%s\n' "$SCREEN" | grep -v '^ *$' | tail -8 |
				sed 's/^/#   /'
			tmux_keys Enter
			return 1
		fi
		sleep 0.1
	done
}

for c in "$@"; do
	# Without the snippet the keys are unbound: mutt says so. (neomutt
	# answers an unbound Esc key with silence and then swallows the
	# next key, so its answer cannot be read from the screen: there is
	# no such check for it.)
	if [ "$c" = mutt ]; then
		base_rc >"$TRASH/plain.rc"
		tmux_start "$c-plain" "$c" -n -R -F "$TRASH/plain.rc" \
			-f "$TRASH/both.mbox"
		tmux_wait 'Msgs:' >/dev/null
		unbound=0
		for k in M-a M-g M-T; do
			tmux_keys "$k"
			tmux_wait 'Key is not bound' 5 || unbound=1
			tmux_keys ":set ?sort" Enter
			tmux_wait 'sort=' 5 >/dev/null
		done
		ok $unbound "$c: Esc a, Esc g and Esc T are not bound by default"
	fi

	rc=$TRASH/$c.rc
	{
		base_rc
		echo "source \"$SRC_DIR/mutt/lore-am.muttrc\""
		echo "set my_lore_am_dir=\"~/patches-$c\""
		echo "set my_lore_am_args=\"-m $TRASH/both.mbox\""
		echo "set my_lore_am_repo=\"$TRASH/repo-$c\""
	} >"$rc"
	repo=$TRASH/repo-$c
	git clone -q "$TRASH/src" "$repo" &&
		git -C "$repo" checkout -q -b work base
	tmux_start "$c" "$c" -n -R -F "$rc" -f "$TRASH/both.mbox"
	tmux_wait 'Msgs:' >/dev/null

	# index: go to patch 2/5 and press the save key
	mutt_search '~i 2\.v1-PATCH'
	pipe_key M-a "saved in $HOME/patches-$c"
	ok $? "$c: index Esc a says where the series went"
	got=$(only_file "$HOME/patches-$c" '*.mbx')
	check "$c: index Esc a wrote the am-ready series" cmp "$got" "$exp_one"
	is "$(bool_shown pipe_decode) $(bool_shown wait_key)" "yes no" \
		"$c: pipe_decode and wait_key are restored"

	# pager, with the folder changed at run time
	tmux_keys ":set my_lore_am_dir=\"~/pager-$c\"" Enter
	tmux_keys Enter
	tmux_wait '^Subject: ' 5 >/dev/null
	pipe_key M-a "saved in $HOME/pager-$c"
	ok $? "$c: pager Esc a says where the series went"
	got=$(only_file "$HOME/pager-$c" '*.mbx')
	check "$c: pager Esc a follows my_lore_am_dir set at run time" \
		cmp "$got" "$exp_one"
	tmux_keys q
	tmux_wait 'Msgs:' 5 >/dev/null

	# apply
	pipe_key M-g "applied 5 patches to '$repo'" 20
	ok $? "$c: Esc g says the series was applied"
	is "$(git -C "$repo" rev-list --count base..HEAD)" 5 \
		"$c: Esc g committed the 5 patches"
	check "$c: Esc g gives the series' tree" \
		git -C "$repo" diff --quiet origin/v1
	is "$(git -C "$repo" log --format=%B base..HEAD | trailers)" \
		"$(trailers <"$exp_one")" "$c: the commits carry the review trailers"

	# apply again: git am fails, the repository stays as it was
	head=$(git -C "$repo" rev-parse HEAD)
	tmux_keys ":set my_lore_am_dir=\"~/failed-$c\"" Enter
	pipe_key M-g "nothing applied; '$repo' is as it was" 20
	ok $? "$c: a failing Esc g says the repository is as it was"
	printf '%s\n' "$SCREEN" |
		grep -q '^lore-am: git am failed at patch 0001 ".*": error: ' &&
		! printf '%s\n' "$SCREEN" | grep -q -- '--continue'
	ok $? "$c: ... naming the patch with git's reason, without its advice to --continue"
	check "$c: ... and keeps the series where Esc a saves it" \
		cmp "$HOME/failed-$c/${exp_one##*/}" "$exp_one"
	gd=$(git -C "$repo" rev-parse --absolute-git-dir)
	am=none
	[ -e "$gd/rebase-apply" ] && am=in-progress
	is "$(git -C "$repo" rev-parse HEAD) $(git -C "$repo" status --porcelain | wc -l) $am" \
		"$head 0 none" "$c: ... and it is: same HEAD, clean, no am in progress"

	# a dirty work tree: lore-am --apply refuses it before anything
	dirty_tree "$repo" "dirty-$c"
	pipe_key M-g "the work tree has uncommitted changes" 20 &&
		printf '%s\n' "$SCREEN" | grep -qF "nothing applied; '$repo' is as it was"
	ok $? "$c: Esc g in a dirty work tree applies nothing"
	printf '%s\n' "$SCREEN" | grep -q '^lore-am: --apply: the work tree has uncommitted changes'
	ok $? "$c: ... and lore-am says why"
	is "$(dirty_state "$repo" "dirty-$c")" \
		"$(git -C "$repo" rev-parse base) same" "$c: ... the branch and the edit are as they were"

	# tagged: one message of each series
	tmux_keys ":set my_lore_am_dir=\"~/tagged-$c\"" Enter
	tmux_keys T
	tmux_wait 'Tag messages matching' 5 >/dev/null
	tmux_keys -l "~i '(2\\.v1-PATCH|1\\.v1-OTHER)@'"
	tmux_keys Enter
	tmux_wait 'Tag:2' 5 >/dev/null
	pipe_key M-T "saved in $HOME/tagged-$c" >/dev/null
	# the first series' message is on screen while the second may still
	# be written (slow under valgrind): give it up to 30 s
	for i in $(seq 300); do
		[ "$(ls "$HOME/tagged-$c"/*.mbx 2>/dev/null | wc -l)" -ge 2 ] &&
			break
		sleep 0.1
	done
	a=$(ls "$HOME/tagged-$c"/*.mbx 2>/dev/null | sort | tr '\n' ' ')
	b=$(printf '%s\n' "$HOME/tagged-$c/${exp_one##*/}" \
		"$HOME/tagged-$c/${exp_two##*/}" | sort | tr '\n' ' ')
	is "$a" "$b" "$c: Esc T saved the series of each tagged message"
	check "$c: ... each one the am-ready series" \
		cmp "$HOME/tagged-$c/${exp_two##*/}" "$exp_two"
done
done_testing
