#!/bin/bash
# The thread key of mutt/lore-am.muttrc (Esc m) in the real neomutt and
# mutt, driven under tmux: from an inbox that holds one message of a
# thread, it opens a maildir with the whole thread, read-only; a message
# piped from there is byte for byte the one sent; pressed again in that
# folder it brings the replies that came since, for another thread it
# holds that thread only; when lore-am fails it says why and the client
# stays where it was; the user's pipe settings come back afterwards. One
# client keeps the snippet's folder (its first use makes its parent), the
# other's has a blank, which mutt's folder prompt needs quoted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"

command -v tmux >/dev/null || skip_all "tmux not installed"
installed neomutt mutt
[ -n "$FOUND" ] || skip_all "neither neomutt nor mutt installed"
set -- $FOUND
plan $((13 * $# + $(echo $MISSING | wc -w)))
skip_missing

cd "$TRASH" || exit 1
hooks_path
# the hand-made thread r b d a c e, plus s: a reply whose body holds a
# From_ line and a quoted one, which an mbox would not give back as sent
small_thread w
mk_msg w/s.eml s@example.org "Mon, 1 Jan 2024 10:30:00 +0000" \
	r@example.org "r@example.org" "Re: [PATCH 0/2] widget: cover" \
	"Hello,

From me Mon Jan  1 12:00:00 2024
>From the archive, quoted.
"
mboxrd_add w/all.mbox w/s.eml
# a reply that comes later
mk_msg w/f.eml f@example.org "Mon, 1 Jan 2024 11:00:00 +0000" \
	e@example.org "r@example.org a@example.org c@example.org e@example.org" \
	"Re: [PATCH 1/2] widget: one"

base_rc() {
	cat <<-EOF
	set folder="$TRASH"
	set spoolfile="$TRASH/inbox-$1"
	set record="" postponed="" header_cache="" mail_check=0
	set sort=date
	set status_format="LOREAM f=%f m=%m r=%r"
	set pipe_decode
	unset wait_key
	EOF
}

# The status line's "f=FOLDER m=COUNT r=FLAG".
status() { tmux_screen | grep -o 'LOREAM .*' | tail -1 | sed 's/ *$//'; }

# Select the message whose Message-ID matches REGEX.
select_id() { mutt_search "~i $1"; }

# Change folder back to the client's inbox ($c's), and wait until it shows.
to_inbox() {
	tmux_keys c
	tmux_wait 'Open mailbox' 5 >/dev/null
	tmux_keys C-u
	tmux_keys -l "$TRASH/inbox-$c"
	tmux_keys Enter
	tmux_wait "f=.*inbox-$c m=2" 5 >/dev/null
}

# Lines of the index that show one of the thread's senders.
shown() { tmux_screen | grep -cE 'Person [rabcdesf] '; }

for c in "$@"; do
	# Esc m is bound to nothing in either menu: the help screens, which
	# list every binding of a menu, do not show it
	base_rc "$c" >"$c-plain.rc"
	maildir_add "inbox-$c" w/c.eml w/u.eml
	tmux_start "$c-plain" "$c" -n -F "$TRASH/$c-plain.rc"
	tmux_wait 'LOREAM' >/dev/null
	# a tall window, so that each help screen is whole: "(all)"
	tmux -S "$_tmux_sock" resize-window -x 160 -y 250 2>/dev/null
	tmux_keys '?'
	tmux_wait 'Help for index \(all\)' 5 >/dev/null
	# (Esc t, bound by default, shows that the screen was read)
	bound="$(tmux_screen | grep -c '^<Esc>t ') $(tmux_screen | grep -c '^<Esc>m ')"
	tmux_keys q
	tmux_gone 'Help for' 5 >/dev/null
	tmux_keys Enter
	tmux_wait 'Subject: ' 5 >/dev/null
	tmux_keys '?'
	tmux_wait 'Help for pager \(all\)' 5 >/dev/null
	bound="$bound $(tmux_screen | grep -c '^<Esc>m ')"
	is "$bound" "1 0 0" "$c: Esc m is not bound by default (index, pager)"
	tmux -S "$_tmux_sock" kill-server 2>/dev/null

	{
		base_rc "$c"
		echo "source \"$SRC_DIR/mutt/lore-am.muttrc\""
		echo "set my_lore_am_args=\"-l -m $TRASH/w/all.mbox\""
		# the first client keeps the snippet's folder, the other one
		# has a name with a blank, which mutt's prompt needs quoted
		[ "$c" = "$1" ] || echo "set my_lore_am_thread=\"~/thread of $c\""
	} >"$c.rc"
	if [ "$c" = "$1" ]; then th=.cache/lore-am/thread; else th="thread of $c"; fi
	cp w/all.mbox "$c.mbox"
	tmux_start "$c" "$c" -n -F "$TRASH/$c.rc"
	tmux_wait 'LOREAM .* m=2' >/dev/null

	# index: the reply c is the one message of its thread in the inbox
	select_id 'c@example'
	tmux_keys M-m
	tmux_wait "f=.*$th m=7" 10 >/dev/null
	ok $? "$c: Esc m opens the thread's folder, with its 7 messages"
	is "$(shown)" 7 "$c: ... all of them on screen"
	is "$(status)" "LOREAM f==home/$th m=7 r=%" \
		"$c: ... read-only (status flag %)"
	is "$(bool_shown pipe_decode) $(bool_shown wait_key)" "yes no" \
		"$c: pipe_decode and wait_key are restored"

	# what mutt reads there is what was sent (raw, for once)
	select_id 's@example'
	tmux_keys ":set nopipe_decode" Enter
	tmux_keys '|'
	tmux_wait 'Pipe to' 5 >/dev/null
	tmux_keys -l "cat > '$TRASH/piped-$c.eml'"
	tmux_keys Enter
	for _ in $(seq 50); do
		[ -s "piped-$c.eml" ] && cmp -s "piped-$c.eml" w/s.eml && break
		sleep 0.1
	done
	same_file "piped-$c.eml" w/s.eml \
		"$c: a message piped from the thread's folder is the one sent"
	tmux_keys ":set pipe_decode" Enter

	# pressed in the thread's folder, with a reply come since
	mboxrd_add "$TRASH/w/all.mbox" w/f.eml
	tmux_keys M-m
	tmux_wait "f=.*$th m=8" 10 >/dev/null
	ok $? "$c: Esc m in the thread's folder brings the new reply"
	is "$(shown)" 8 "$c: ... shown with the others"

	# back to the inbox; another thread, from the pager
	to_inbox
	select_id 'u@example'
	tmux_keys Enter
	tmux_wait 'Subject: another discussion' 5 >/dev/null
	tmux_keys M-m
	tmux_wait "f=.*$th m=2" 10 >/dev/null
	ok $? "$c: Esc m in the pager opens the other thread's folder"
	is "$(ls "$HOME/$th/cur" | wc -l) $(grep -l '^Subject:.*widget' "$HOME/$th"/cur/* | wc -l)" \
		"2 0" "$c: ... which holds that thread only"

	# lore-am fails (a mailbox it cannot read: a link to itself): the
	# error shows, the client stays in its folder
	ln -sf missing.mbox "$TRASH/missing.mbox"
	to_inbox
	tmux_keys ":set my_lore_am_args=\"-m $TRASH/missing.mbox\"" Enter
	tmux_keys M-m
	tmux_wait 'Press any key' 10 >/dev/null
	tmux_screen | grep -q "lore-am: cannot read '$TRASH/missing.mbox'"
	ok $? "$c: a failing Esc m shows lore-am's error and waits for a key"
	tmux_keys Enter
	tmux_gone 'Press any key' 5 >/dev/null
	# keys the client pushed itself come before this one
	tmux_keys ":set ?sort" Enter
	tmux_wait 'sort=' 5 >/dev/null
	is "$(status)" "LOREAM f==inbox-$c m=2 r=-" \
		"$c: ... then stays in the folder it was pressed in"
	is "$(ls "$HOME/$th/cur" | wc -l)" 2 \
		"$c: ... and the thread's folder is as it was"
	tmux_keys q
	rm -f w/all.mbox && cp "$c.mbox" w/all.mbox
done
done_testing
