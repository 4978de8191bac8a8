#!/bin/bash
# A SIGKILL during --apply, --apply=merge or --apply=head leaves the
# temporary worktree registered and its lore-am-apply-* folder, during
# --range-diff its two folders only (its git folders are its own, nothing
# registered in the repository): nothing can clean up after SIGKILL. The next run removes what such a run
# left, once its process is gone: never a live run's (same pid and start
# time), never another host's; a pid used again by a later process does
# not keep a leftover alive.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

command -v setsid >/dev/null || skip_all "setsid(1) not installed"

plan 35

export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" &&
 echo new >new.c && git add new.c && git commit -qm "new: add new.c")
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-file-spell-out-two.patch")
two_revisions "$TRASH/rd"
revisions_mbox "$TRASH/rd.mbox"
rdid=$v1c

# a hook of git am in the temporary worktree: says it is there (once for
# each of HOLD_RUNS git am: --range-diff runs two at the same time), then
# waits (at most 20 s) for the test to let it go
cat >"$TRASH/hold-hook" <<'HOOK'
#!/bin/sh
case $PWD in */lore-am-apply-*) ;; *) exit 0 ;; esac
[ -e "$HOLD_MARK-am.$PPID" ] && exit 0
[ "$(ls "$HOLD_MARK"-am.* 2>/dev/null | wc -l)" -ge "${HOLD_RUNS:-1}" ] && exit 0
: >"$HOLD_MARK-am.$PPID"
: >"$HOLD_MARK"
i=0
while [ ! -e "$HOLD_MARK.go" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
exit 0
HOOK
chmod +x "$TRASH/hold-hook"

user() {
	user_clone "$1" base "$2" &&
		cp "$TRASH/hold-hook" "$1/.git/hooks/applypatch-msg"
}
# started MARK DIR ARGS...: lore-am ARGS in DIR, in a process group of its
# own; returns once its git am is in the hook (pid in $pid), once both
# are with RUNS=2
started() {
	local mark=$1 dir=$2 i=0
	shift 2
	rm -f "$mark" "$mark".go "$mark"-am.*
	(cd "$dir" && HOLD_MARK=$mark HOLD_RUNS=${RUNS:-1} exec setsid "$LORE_AM" "$@" \
		</dev/null >"$mark.out" 2>"$mark.err") &
	pid=$!
	while [ "$(ls "$mark"-am.* 2>/dev/null | wc -l)" -lt "${RUNS:-1}" ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ -e "$mark" ] && [ "$(ls "$mark"-am.* | wc -l)" -ge "${RUNS:-1}" ]
}
leftovers() { git -C "$1" worktree list --porcelain | grep -c '^worktree .*/lore-am-apply-'; }
folders() { ls "$TMPDIR" | grep -c '^lore-am-'; }

for mode in --apply --apply=merge --apply=head --range-diff; do
	if [ $mode = --range-diff ]; then
		src=$TRASH/rd mbox=$TRASH/rd.mbox msg=$rdid runs=2 wts=0 what=folder
	else
		src=$TRASH/repo mbox=$TRASH/thread.mbox msg=$id runs=1 wts=1 what=worktree
	fi
	user "$TRASH/u" "$src"
	RUNS=$runs started "$TRASH/mark" "$TRASH/u" -m "$mbox" $mode "$msg"
	ok $? "$mode: git am runs in the temporary worktree"
	kill -KILL -- -"$pid"
	wait $pid 2>/dev/null
	is "$(leftovers "$TRASH/u"):$(folders)" "$wts:$runs" "$mode: SIGKILL leaves the folders ($wts worktree registered)"
	(cd "$TRASH/u" && rm .git/hooks/applypatch-msg &&
	 "$LORE_AM" -m "$mbox" $mode "$msg" </dev/null >/dev/null 2>"$TRASH/next.err")
	ok $? "$mode: the next run works"
	is "$(leftovers "$TRASH/u"):$(folders)" "0:0" "$mode: and removed the killed run's worktree and folder"
	check "$mode: saying so" grep -q "^lore-am: note: removed the temporary $what '.*/lore-am-apply-[^/]*\(/worktree\)\{$wts\}' a killed run left" "$TRASH/next.err"
done

# a live run's worktree is left alone by another run in the same repository
user "$TRASH/u" "$TRASH/repo"
git clone -q "$TRASH/repo" "$TRASH/u2" && git -C "$TRASH/u2" checkout -q -b work base
started "$TRASH/live" "$TRASH/u" -m "$TRASH/thread.mbox" --apply=head "$id"
ok $? "a live run is in its git am"
(cd "$TRASH/u" && HOLD_MARK=$TRASH/live "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" \
	</dev/null >/dev/null 2>"$TRASH/other.err")
ok $? "another --apply in the same repository meanwhile works"
is "$(leftovers "$TRASH/u"):$(folders)" "1:1" "the live run's worktree and folder are left alone"
! grep -q "note: removed" "$TRASH/other.err"
ok $? "and nothing is said of them"
: >"$TRASH/live.go"
wait $pid
ok $? "the live run ends well"
is "$(leftovers "$TRASH/u"):$(folders)" "0:0" "and removes its own"

# leftovers made by hand from a killed run: owners that look alive or not
killed_leftover() {
	user "$TRASH/u" "$TRASH/repo"
	started "$TRASH/mark" "$TRASH/u" -m "$TRASH/thread.mbox" --apply=head "$id" || return 1
	kill -KILL -- -"$pid"
	wait $pid 2>/dev/null
	wt=$(git -C "$TRASH/u" worktree list --porcelain | sed -n 's/^worktree \(.*lore-am-apply-.*\)/\1/p')
	rm "$TRASH/u/.git/hooks/applypatch-msg"
	[ -n "$wt" ]
}
# owner WT LINE: the owner file and the lock's reason say LINE
owner() {
	echo "$2" >"$(dirname "$1")/owner" &&
	git -C "$TRASH/u" worktree unlock "$1" &&
	git -C "$TRASH/u" worktree lock --reason "$2" "$1"
}
next() {
	(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=head "$id" \
		</dev/null >/dev/null 2>"$TRASH/next.err")
}
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)
host=$(hostname)
sleep 300 &
live=$!
at_exit "kill $live 2>/dev/null"
start=$(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$live/stat)

killed_leftover
ok $? "a killed run's leftover (for the owner checks)"
owner "$wt" "lore-am $live $start $boot $host"
next
is "$?:$(leftovers "$TRASH/u")" "0:1" "a live pid that started when the owner did: left alone"
owner "$wt" "lore-am $live $((start + 1)) $boot $host"
next
is "$?:$(leftovers "$TRASH/u"):$(folders)" "0:0:0" "the same pid started at another time (used again): removed"

killed_leftover
owner "$wt" "lore-am 999999999 1 $boot elsewhere.example.org"
next
is "$(leftovers "$TRASH/u"):$(folders)" "1:1" "another host's: left alone"
owner "$wt" "lore-am $live $start 00000000-0000-0000-0000-000000000000 $host"
next
is "$(leftovers "$TRASH/u"):$(folders)" "0:0" "from before this host booted: removed"

# the folder gone (a reboot emptied the temporary folder): the record goes
killed_leftover
rm -rf "$TMPDIR"/lore-am-apply-*
next
is "$(leftovers "$TRASH/u")" 0 "a record whose folder is gone: removed"

# a folder alone (killed before git registered it), judged by its name
mkdir "$TMPDIR/lore-am-apply-999999999-abcdef" "$TMPDIR/lore-am-apply-$live-abcdef" \
	"$TMPDIR/lore-am-interdiff-999999999-abcdef"
next
is "$(ls "$TMPDIR" | tr '\n' ' ')" "lore-am-apply-$live-abcdef " \
	"a folder without an owner file: removed when the pid in its name is gone"
rmdir "$TMPDIR/lore-am-apply-$live-abcdef"

# a folder of another naming, and a link of ours, are never touched
mkdir "$TMPDIR/lore-am-applyX" "$TRASH/target"
ln -s "$TRASH/target" "$TMPDIR/lore-am-apply-999999999-linked"
next
is "$(ls "$TMPDIR" | tr '\n' ' ')" "lore-am-apply-999999999-linked lore-am-applyX " "other names and links stay"
test -d "$TRASH/target"
ok $? "and the link's target too"
