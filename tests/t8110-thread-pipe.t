#!/bin/bash
# lore-am-pipe's "thread" action, which every client's thread key runs:
# it fills a maildir with the whole thread (the messages as sent),
# empties it first the next time, touches no folder it did not make,
# leaves the folder as it was when lore-am fails, writes for mutt the
# command that opens the folder only when there is something to open,
# and hands lore-am the user's arguments without those --thread refuses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"
plan 23

cd "$TRASH" || exit 1
hooks_path
small_thread w
pipe() { lore-am-pipe "$@" 2>"$TRASH/err"; }
files() { find "$1" -type f ! -name .lore-am-thread | sort; }

# same_msgs DIR ID...: DIR/cur holds exactly the messages ID..., each
# byte for byte the w/NAME.eml that was sent (ID is NAME@example.org)
same_msgs() {
	local d=$1 f id n=0
	shift
	[ "$(ls "$d/cur" | wc -l)" -eq $# ] || return 1
	for f in "$d"/cur/*; do
		id=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$f")
		case " $* " in *" $id "*) ;; *) return 1 ;; esac
		cmp -s "$f" "w/${id%%@*}.eml" || return 1
		n=$((n + 1))
	done
	[ $n -eq $# ]
}

out=$(pipe -a "-l -s -m $TRASH/w/all.mbox" -d th -c th.muttrc thread <w/c.eml)
is "$?" 0 "thread: a message's thread delivered, -l -s left out"
is "$out" "lore-am-pipe: 6 messages of the thread in $TRASH/th" \
	"... it says how many and where, the folder made absolute"
same_msgs th r@example.org a@example.org b@example.org c@example.org \
	d@example.org e@example.org
ok $? "... the maildir holds the 6 messages, each as it was sent"
is "$(cat th.muttrc)" "# written by lore-am-pipe: what the thread key opens
push \"<change-folder-readonly><kill-line>$TRASH/th<enter>\"" \
	"... and -c FILE holds the mutt command that opens it read-only"

pipe -a "-m $TRASH/w/all.mbox" -d th -c th.muttrc thread <w/u2.eml >/dev/null
same_msgs th u@example.org u2@example.org
ok $? "the next thread replaces the last one in the folder"
is "$(ls -a | grep -c '^\.lore-am-thread')" 0 \
	"no temporary folder is left beside it"

# lore-am fails (a mailbox it cannot read: a link to itself): nothing
# changes, and mutt gets nothing to open
ln -s missing.mbox "$TRASH/missing.mbox"
before=$(files th)
pipe -a "-m $TRASH/missing.mbox" -d th -c th.muttrc thread <w/c.eml >/dev/null
is "$?" 1 "a failing lore-am fails the action"
grep -q "^lore-am: cannot read '$TRASH/missing.mbox'" err &&
	grep -q "^lore-am-pipe: nothing fetched; '$TRASH/th' is as it was" err
ok $? "... with lore-am's error and what became of the folder"
is "$(files th)" "$before" "... which is as it was"
is "$(grep -c push th.muttrc)" 0 "... and -c FILE opens nothing"

# a folder it did not make is not emptied
maildir_add mine w/r.eml
before=$(files mine)
pipe -a "-m $TRASH/w/all.mbox" -d mine -c mine.muttrc thread <w/c.eml >/dev/null
is "$?" 1 "a maildir with mail of its own is refused"
grep -q "^lore-am-pipe: '$TRASH/mine' holds mail that lore-am-pipe did not put there" err
ok $? "... saying why"
is "$(files mine) $(grep -c push mine.muttrc)" "$before 0" \
	"... and left as it was, with nothing to open"
mkdir -p empty/cur empty/new empty/tmp
pipe -a "-m $TRASH/w/all.mbox" -d empty thread <w/u.eml >/dev/null
same_msgs empty u@example.org u2@example.org
ok $? "an empty maildir is taken"

# the default folder, and -c FILE in a folder still to make (the mutt
# snippet's first use)
pipe -a "-m $TRASH/w/all.mbox" -c "$TRASH/new/dir/th.muttrc" thread \
	<w/u.eml >/dev/null
same_msgs "$XDG_CACHE_HOME/lore-am/thread" u@example.org u2@example.org
ok $? "without -d: \$XDG_CACHE_HOME/lore-am/thread"
grep -q "<kill-line>$XDG_CACHE_HOME/lore-am/thread<enter>" new/dir/th.muttrc
ok $? "... and -c FILE is written where no folder was"
odd='odd "$x" \n ^G `y`'
pipe -a "-m $TRASH/w/all.mbox" -d "$odd" -c odd.muttrc thread <w/u.eml >/dev/null
q='<quote-char> '
is "$(sed -n 2p odd.muttrc)" \
	"push \"<change-folder-readonly><kill-line>$TRASH/odd$q\\\"\\\$x\\\"$q\\\\n$q\\^G$q\\\`y\\\`<enter>\"" \
	"in mutt's command, \\ \" \$ \` and ^ are escaped, blanks quoted"
pipe -a "-m $TRASH/w/all.mbox" -d "a<enter>b" -c lt.muttrc thread <w/u.eml
is "$? $(grep -c push lt.muttrc)" "1 0" \
	"a folder name with '<', which mutt would take for a key, is refused"

# what reaches lore-am from the user's arguments
cat >"$TRASH/bin/lore-am-args" <<'EOS'
#!/bin/sh
shift 3 # -q --maildir DIR
echo "$*" >"$HOME/args"
exit 1
EOS
chmod +x "$TRASH/bin/lore-am-args"
args_of() {
	LORE_AM=lore-am-args lore-am-pipe -a "$1" -d th thread </dev/null \
		>/dev/null 2>&1
	cat "$HOME/args"
}
is "$(args_of "-ls -v 2 -P 1-3 -N --cc-trailers --add-link --add-my-sob")" \
	"-N" "-s -l -v N -P SPEC and the long forms are left out"
is "$(args_of "--use-version=2 --cherry-pick=1 -o out --outdir out2 -q -T")" \
	"-q -T" "... with their values, and -o DIR too"
is "$(args_of "-lm /x/-ls --mbox /y/-s -Nm /z/-l --source mbox -- -s")" \
	"-m /x/-ls --mbox /y/-s -Nm /z/-l --source mbox -- -s" \
	"option values and words after -- are kept as they are"
# save and apply split ARGS at blanks too, but never glob them: a "*" in
# a path reaches lore-am as written ("all.mbox" would match "al*.mbox")
pipe -a "-m $TRASH/w/al*.mbox" -d saved save <w/c.eml >/dev/null
is "$?" 1 "save: a glob in ARGS is not expanded (no such file)"
grep -q "^NOTE: '$TRASH/w/al\*.mbox' does not exist (yet)" err
ok $? "... lore-am was given the word as written"
done_testing
