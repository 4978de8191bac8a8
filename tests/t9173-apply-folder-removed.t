#!/bin/bash
# Nothing stuck when a git child cannot end: --apply's temporary folder
# removed while git checkout-index runs in it (a test's scratch folder
# removed after a timeout, a cleaner of the temporary folder) stops that
# git and ends the run with one line and exit 1, the user's repository
# usable; lore-am killed with SIGKILL takes its running git with it. git
# is held at the right moment by a smudge filter (a real filter driver
# that waits, at most 30 s, in the temporary worktree only); every wait
# here is bounded and every process stopped by its pid.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

command -v setsid >/dev/null || skip_all "setsid(1) not installed"

plan 22

export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

# a base with sub/x.c, a series that changes it and file.c
make_repo "$TRASH/repo"
(cd "$TRASH/repo" && mkdir sub && echo x >sub/x.c && git add sub &&
 git commit -qm "sub: add x" && git tag -f base >/dev/null &&
 git checkout -q -b topic &&
 echo y >>sub/x.c && git commit -qam "sub: change x" &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two")
fmt "$TRASH/repo" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-sub-change-x.patch")

# the smudge filter: in lore-am's temporary worktree, the first time,
# writes its pid to $HOLD_MARK and waits for $HOLD_MARK.go while its git
# lives (30 s at most)
cat >"$TRASH/hold-filter" <<'FILTER'
#!/bin/sh
[ -n "${HOLD_MARK:-}" ] || exec cat
case $(pwd) in */lore-am-apply-*) ;; *) exec cat ;; esac
if [ ! -e "$HOLD_MARK" ]; then
	echo $$ >"$HOLD_MARK.tmp" && mv "$HOLD_MARK.tmp" "$HOLD_MARK"
	i=0
	while [ ! -e "$HOLD_MARK.go" ] && kill -0 $PPID 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
fi
exec cat
FILTER
chmod +x "$TRASH/hold-filter"
echo '*.c filter=hold' >"$TRASH/attributes"

user() {
	user_clone "$TRASH/u" base &&
		git -C "$TRASH/u" config core.attributesFile "$TRASH/attributes" &&
		git -C "$TRASH/u" config filter.hold.smudge "$TRASH/hold-filter"
}
# held MARK: lore-am --apply in the user's clone, in a session of its own
# (pid in $pid), until its git is in the filter (the git's pid in $git,
# its command line in $gitcmd); FALSE when it never got there
held() {
	local mark=$1 i=0 f
	rm -f "$mark" "$mark.go"
	(cd "$TRASH/u" && HOLD_MARK=$mark exec setsid "$LORE_AM" \
		-m "$TRASH/thread.mbox" --apply "$id" \
		</dev/null >"$mark.out" 2>"$mark.err") &
	pid=$!
	while [ ! -s "$mark" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	f=$(cat "$mark" 2>/dev/null) && [ -n "$f" ] || return 1
	git=$(ps -o ppid= -p "$f" | tr -d ' ')
	gitcmd=$(tr '\0' ' ' <"/proc/$git/cmdline")
	at_exit "kill -KILL $git $pid 2>/dev/null; touch '$mark.go'"
}
# the gits running in this test's temporary folders (others' tests run
# gits of their own at the same time)
gits_left() { pgrep -f "^git -C $TMPDIR/lore-am-apply-" | wc -l; }

# 1. the temporary folder removed under git checkout-index
user
before=$(git -C "$TRASH/u" rev-parse HEAD)
held "$TRASH/m1"
ok $? "git is held in the temporary worktree"
check "... and it is git checkout-index" grep -q "checkout-index -a -u" <<<"$gitcmd"
t0=$(date +%s)
rm -rf "$TMPDIR"/lore-am-apply-*
if gone_within 15 "$pid"; then
	wait "$pid"
	st=$?
	secs=$(($(date +%s) - t0))
	ok 0 "lore-am ends within 15 s of the removal ($secs s)"
else
	ok 1 "lore-am ends within 15 s of the removal (still waiting: killed)"
	kill -KILL "$pid"
	wait "$pid"
	st=killed
fi
is "$st" 1 "exit 1, as for a git step that failed"
is "$(grep -c '^lore-am: ' "$TRASH/m1.err")" 1 "one line says what happened"
check "... naming the folder and the git stopped" grep -q \
	"^lore-am: the temporary folder '$TMPDIR/lore-am-apply-[^/']*' was removed while git checkout-index ran in it: git checkout-index stopped; nothing applied$" \
	"$TRASH/m1.err"
gone_within 1 "$git"
ok $? "that git is gone"
is "$(gits_left)" 0 "no git is left in the removed folder"
is "$(git -C "$TRASH/u" worktree list | wc -l):$(git -C "$TRASH/u" rev-parse HEAD)" \
	"1:$before" "the repository: no worktree left registered, HEAD where it was"
is "$(find "$TRASH/u/.git" -name '*.lock' | wc -l):$(git -C "$TRASH/u" status --porcelain)" \
	"0:" "no lock left, the tree clean"
touch "$TRASH/m1.go"
(cd "$TRASH/u" && HOLD_MARK=$TRASH/m1 "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" \
	</dev/null >/dev/null 2>"$TRASH/next.err")
ok $? "the next --apply works"
is "$(git -C "$TRASH/u" rev-parse 'HEAD^{tree}')" "$(git -C "$TRASH/repo" rev-parse 'topic^{tree}')" \
	"and applies the series"

# 2. removed while git am waits in its applypatch-msg hook, which then
# fails (at once, or is stopped with git am): git am's failure there is
# not the series' verdict, nothing is tried again in another folder
cat >"$TRASH/am-hook" <<'HOOK'
#!/bin/sh
d=$(pwd)
case $d in */lore-am-apply-*) ;; *) exit 0 ;; esac
echo "$d" >>"$HOOK_LOG"
[ "$(wc -l <"$HOOK_LOG")" -eq 1 ] || exit 0
echo $$ >"$HOOK_LOG.pid"
i=0
while [ -d "$d" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
exit 1
HOOK
chmod +x "$TRASH/am-hook"
user
cp "$TRASH/am-hook" "$TRASH/u/.git/hooks/applypatch-msg"
(cd "$TRASH/u" && HOOK_LOG=$TRASH/hook.log exec setsid "$LORE_AM" \
	-m "$TRASH/thread.mbox" --apply "$id" </dev/null >/dev/null 2>"$TRASH/am.err") &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
i=0
while [ ! -s "$TRASH/hook.log.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
test -s "$TRASH/hook.log.pid"
ok $? "git am is in its hook in the temporary worktree"
rm -rf "$TMPDIR"/lore-am-apply-*
if gone_within 15 "$pid"; then wait "$pid"; st=$?; else kill -KILL "$pid"; wait "$pid"; st=killed; fi
is "$st" 1 "lore-am ends, exit 1"
check "... one line: git am stopped or failed there, nothing applied" grep -q \
	"^lore-am: the temporary folder '$TMPDIR/lore-am-apply-[^/']*' was removed while git am ran in it: git am \(stopped\|failed\); nothing applied$" \
	"$TRASH/am.err"
is "$(wc -l <"$TRASH/hook.log")" 1 "nothing tried again in another folder"
is "$(git -C "$TRASH/u" worktree list | wc -l):$(gits_left)" "1:0" "no worktree registered, no git left"
rm "$TRASH/u/.git/hooks/applypatch-msg"

# 3. lore-am killed with SIGKILL while its git runs: the git goes with it
user
held "$TRASH/m2"
ok $? "git is held in the temporary worktree again"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
gone_within 5 "$git"
ok $? "lore-am SIGKILLed: its git checkout-index ends within 5 s"
is "$(gits_left)" 0 "no git is left running"
touch "$TRASH/m2.go"
(cd "$TRASH/u" && HOLD_MARK=$TRASH/m2 "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" \
	</dev/null >/dev/null 2>"$TRASH/next.err")
ok $? "the next --apply works"
is "$(git -C "$TRASH/u" worktree list | wc -l)" 1 "and removed the killed run's worktree"
