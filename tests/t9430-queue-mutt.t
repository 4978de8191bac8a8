#!/bin/bash
# mutt/lore-am.muttrc's Esc q in the real neomutt (and mutt), under tmux:
# on any message of a series, even a late reply to its first revision,
# the queue's state of the series shows in the pager (less): the state,
# each revision, the reviews of each patch; and the user's pipe settings
# come back afterwards. hooks/aerc-binds.conf's Alt-q in the real aerc.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-queue.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
installed neomutt mutt aerc
set -- $FOUND
plan $((3 * $# + $(echo $MISSING | wc -w)))
skip_missing

queue_revisions "$TRASH/repo" || { echo "Bail out! cannot build the series"; exit 1; }
hooks_path
to_mbox "$TRASH/all.mbox" "$A"/*
# the queue as the mail filter leaves it: both threads seen
for id in "$V1C" "$V3C"; do
	"$LORE_AM" -q -o "$TRASH/out" -m "$TRASH/all.mbox" "$id" 2>/dev/null
done
late=$(msgid_of "$A"/17-late.eml)
unset PAGER

for c in "$@"; do
	if [ "$c" = aerc ]; then
		mkdir -p "$TRASH/Mail/INBOX"
		to_maildir "$TRASH/all.mbox" "$TRASH/Mail/INBOX"
		aerc_setup "$TRASH/Mail"
		tmux_start aerc aerc
		tmux_wait 'A late thought|widget' 15 >/dev/null
		tmux_keys :
		tmux_keys -l "search -H Message-Id $late"
		tmux_keys Enter
		sleep 1
		aerc_pipe M-q 'State:' 15
		ok $? "aerc, Alt-q: the queue's state shows"
		printf '%s\n' "$SCREEN" | grep -q 'State:   reviewed (v3, 3/3 patches, 3/3 reviewed)'
		ok $? "aerc: ... reviewed, v3"
		printf '%s\n' "$SCREEN" | grep -c 'superseded 3/3 patches' |
			grep -qx 2
		ok $? "aerc: ... v1 and v2 superseded"
		tmux_quit ":quit!"$'\r' >/dev/null
		continue
	fi
	{
		echo "set folder=\"$TRASH\""
		echo "set spoolfile=\"$TRASH/all.mbox\""
		echo "set record=\"\" postponed=\"\" mbox_type=mbox"
		echo "set pipe_decode"
		echo "unset wait_key"
		echo "source \"$SRC_DIR/mutt/lore-am.muttrc\""
	} >"$TRASH/$c.rc"
	tmux_start "$c" "$c" -n -R -F "$TRASH/$c.rc" -f "$TRASH/all.mbox"
	tmux_wait 'Msgs:|all.mbox' >/dev/null
	mutt_search "~i $late"
	tmux_keys M-q
	tmux_wait 'State:   reviewed \(v3, 3/3 patches, 3/3 reviewed\)' 15
	ok $? "$c, Esc q on a late reply to v1: the series is reviewed, at v3"
	SCREEN=$(tmux_screen)
	printf '%s\n' "$SCREEN" | grep -c ' superseded 3/3 patches' | grep -qx 2 &&
		printf '%s\n' "$SCREEN" | grep -q 'Tested-by: 1'
	ok $? "$c: ... v1 and v2 superseded, each patch's reviews"
	tmux_keys q
	tmux_gone 'State:' 5 >/dev/null
	pd=$(bool_shown pipe_decode) wk=$(bool_shown wait_key)
	is "$pd $wk" "yes no" "$c: pipe_decode and wait_key as they were"
	tmux_quit q >/dev/null || tmux_quit q
done
done_testing
