#!/bin/bash
# A real neomutt, driven under tmux, reads what --append and --maildir
# wrote: it counts every message (a body line that is a perfect From_ line
# splits none), and a message it pipes from the maildir is byte for byte
# the one that was sent, DKIM-Signature header and "From " lines included.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-thread.sh"

command -v neomutt >/dev/null || skip_all "neomutt not installed"
command -v tmux >/dev/null || skip_all "tmux not installed"

plan 8

cd "$TRASH" || exit 1
small_thread w
mk_msg s.eml s@example.org "Mon, 1 Jan 2024 10:30:00 +0000" \
	r@example.org "r@example.org" "Re: [PATCH 0/2] widget: cover" \
	"Hello,

From the look of it this is fine.
From me Mon Jan  1 12:00:00 2024
>From the archive, quoted.
"
# a signature header as a mailing list adds it (its value is not checked
# here; t8001 verifies real signatures)
{ printf 'DKIM-Signature: v=1; a=rsa-sha256; c=simple/simple; d=example.org;\n'
  printf ' s=sel; h=from:to:subject:date:message-id; bh=x; b=y\n'
  cat s.eml; } >signed.eml
maildir_add extra signed.eml
id=$("$SRC_DIR/bench/gen-thread.sh" --preset small -s 7 -o gen.mbox)

rm -f box
mboxrd_add box w/u.eml w/u2.eml w/r.eml
"$LORE_AM" -q --append box -m w/all.mbox -m extra r@example.org &&
	"$LORE_AM" -q --append box -m gen.mbox "$id"
is "$?" 0 "two threads appended to an mbox holding three messages"
"$LORE_AM" -q --maildir md -m w/all.mbox -m extra r@example.org
is "$?" 0 "the thread delivered into a maildir"

SOCK=$TRASH/tmux.sock
muttrc() {
	cat <<EOF
set folder="$TRASH"
set spoolfile="$TRASH/$1"
set record=""
set postponed=""
set header_cache=""
set message_cachedir=""
set mail_check=0
set sort=threads
set pipe_decode=no
set wait_key=no
set quit=yes
set status_format="LOREAM-COUNT=%m"
EOF
}

# screen_wait PATTERN: wait (at most 10 s) until the screen shows PATTERN
screen_wait() {
	for _i in $(seq 100); do
		tmux -S "$SOCK" capture-pane -p 2>/dev/null | grep -q "$1" && return 0
		sleep 0.1
	done
	tmux -S "$SOCK" capture-pane -p 2>/dev/null | sed 's/^/# /' | tail -5
	return 1
}

# neomutt_open MAILBOX: start neomutt read-only on MAILBOX under tmux
neomutt_open() {
	muttrc "$1" >muttrc
	tmux -S "$SOCK" -f /dev/null new-session -d -x 160 -y 50 \
		"neomutt -n -F '$TRASH/muttrc' -R -f '$TRASH/$1'"
	tmux_pid=$(tmux -S "$SOCK" display -p '#{pid}')
	at_exit "kill $tmux_pid 2>/dev/null"
}

neomutt_close() {
	tmux -S "$SOCK" kill-server 2>/dev/null
	kill "$tmux_pid" 2>/dev/null
	sleep 0.2
}

neomutt_open box
screen_wait 'LOREAM-COUNT=[0-9]'
ok $? "neomutt opens the appended mbox"
is "$(tmux -S "$SOCK" capture-pane -p | grep -o 'LOREAM-COUNT=[0-9]*')" \
	"LOREAM-COUNT=35" "neomutt counts 3 + 6 new + 26 messages"
neomutt_close

neomutt_open md
screen_wait 'LOREAM-COUNT=[0-9]'
is "$(tmux -S "$SOCK" capture-pane -p | grep -o 'LOREAM-COUNT=[0-9]*')" \
	"LOREAM-COUNT=7" "neomutt counts the maildir's 7 messages"
tmux -S "$SOCK" send-keys l '~i s@example\.org' Enter
screen_wait 'LOREAM-COUNT=7' && sleep 0.3
tmux -S "$SOCK" send-keys '|' "cat > '$TRASH/piped.eml'" Enter
for _i in $(seq 50); do [ -s piped.eml ] && break; sleep 0.1; done
sleep 0.2
same_file piped.eml signed.eml \
	"the message neomutt pipes from the maildir is the one sent, byte for byte"
tmux -S "$SOCK" send-keys q
neomutt_close

# and neomutt's own view of the appended message: one message, whole body
neomutt_open box
screen_wait 'LOREAM-COUNT=[0-9]'
tmux -S "$SOCK" send-keys l '~i s@example\.org' Enter
sleep 0.3
tmux -S "$SOCK" send-keys Enter
screen_wait 'From the archive, quoted'
ok $? "neomutt shows the message's last body line"
tmux -S "$SOCK" capture-pane -p | grep -q '^From me Mon Jan  1 12:00:00 2024\|^>From me Mon Jan  1 12:00:00 2024'
ok $? "... and the From_-like line stays inside the message"
neomutt_close
done_testing
