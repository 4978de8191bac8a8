#!/bin/bash
# Ctrl-C (SIGINT to the whole process group) at the two moments of --apply
# that once left the user's repository locked or misreported:
#  1. while a git of lore-am's holds a lock file of the user's repository
#     (.git/index.lock, .git/objects/maintenance.lock) in git's own window
#     between creating it and setting up the handler that removes it: the
#     window is held open by strace, which delays the return of that
#     openat(2) by 1.5 s; the signal is sent once the lock is there. No lock
#     may stay, the run is whole or did nothing, the next --apply works.
#     And git am's auto maintenance, whose lock is the user's repository's
#     too, is not started in the trial.
#  2. while lore-am looks at the work tree's copies of the series' files (a
#     real clean filter that waits, in the user's work tree only, until the
#     test has sent the signal): exit 1, one line "interrupted; nothing
#     applied", nothing changed, no lock left.
#  3. and 4. git am in the trial takes neither objects/maintenance.lock nor
#     packed-refs.lock of the user's repository (auto maintenance off; the
#     trial's REBASE_HEAD locked in its own git folder).
#  5. a packed-refs.lock of the user's own process while lore-am is
#     interrupted in git am: never removed by lore-am.
#  6. nor do the git am runs of --range-diff take packed-refs.lock.
# Every wait is bounded; every process is stopped by its pid.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

command -v strace >/dev/null || skip_all "strace not installed"
# strace must be allowed to trace its own child here
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here"

plan 35
# LeakSanitizer cannot run under ptrace (make SANITIZE=1 check): the runs
# held under strace here are checked for leaks by the other --apply tests
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

# a series that changes file.c, adds new.c and changes README (lib-series.sh)
topic_series || exit 1

# start PIDFILE ERR [WRAPPER...]: lore-am --apply in $TRASH/u, made the
# leader of a new process group by setsid(2) (so that a signal to its group
# reaches it and the git it runs, not this script nor the wrapper), SIGINT
# not ignored as from a terminal; its pid written to PIDFILE; the pid of
# what was started (the wrapper, else lore-am's subshell) in $bg
start() {
	local pidf=$1 err=$2
	shift 2
	rm -f "$pidf"
	(cd "$TRASH/u" && exec "$@" perl -e 'use POSIX ();
		POSIX::setsid() > 0 or die "setsid: $!";
		$SIG{INT} = "DEFAULT";
		open(my $f, ">", shift) or die; print $f "$$\n"; close($f);
		exec @ARGV or die' "$pidf" "$LORE_AM" -m "$TRASH/thread.mbox" \
		--apply "$id" </dev/null >/dev/null 2>"$err") &
	bg=$!
	at_exit "kill -KILL $bg 2>/dev/null"
}
# locks DIR: the lock files in DIR's git folder, one a line
locks() { (cd "$1/.git" && find . -name '*.lock' | sort); }
# next DIR: when nothing was applied, a plain --apply now works; then the
# tree is the series'
next() {
	if [ "$(git -C "$1" rev-parse 'HEAD^{tree}')" != "$topic_tree" ]; then
		(cd "$1" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" \
			</dev/null >/dev/null 2>"$1.next") ||
			{ echo "the next --apply failed: $(tail -1 "$1.next")"; return; }
	fi
	[ "$(git -C "$1" rev-parse 'HEAD^{tree}')" = "$topic_tree" ] ||
		echo "the series is not on the branch"
	[ -z "$(git -C "$1" status --porcelain)" ] || echo "the tree is not clean"
}

# at_lock N LOCK...: lore-am --apply in a fresh clone, under strace delaying
# the openat(2) that creates each LOCK (relative to the clone's .git); once
# one is there, SIGINT to lore-am's group. Sets $held (the locks seen) and
# $st (lore-am's exit status, from the trace: strace's is its own)
at_lock() {
	local n=$1 i=0 l
	local -a watch=()
	shift
	user_clone "$TRASH/u" base
	before=$(git -C "$TRASH/u" rev-parse HEAD)
	u=$(cd "$TRASH/u" && pwd -P)
	for l in "$@"; do watch+=(-P "$u/.git/$l"); done
	start "$TRASH/pid$n" "$TRASH/e$n" strace -f -o "$TRASH/st$n" "${watch[@]}" \
		-e trace=openat -e inject=openat:delay_exit=1500000
	held=
	while [ $i -lt 600 ] && [ -z "$held" ] && kill -0 "$bg" 2>/dev/null; do
		sleep 0.05; i=$((i + 1))
		for l in "$@"; do [ -e "$u/.git/$l" ] && held="$held$l "; done
	done
	lpid=$(cat "$TRASH/pid$n" 2>/dev/null)
	[ -n "$held" ] && [ -n "$lpid" ] && kill -INT -- -"$lpid"
	if gone_within 60 "$bg"; then wait "$bg"; else kill -KILL -- -"$lpid" "$bg"; fi
	st=$(sed -n "s/^$lpid  *+++ exited with \([0-9]*\) +++$/\1/p" "$TRASH/st$n")
}
# outcome N: the run was whole or did nothing, and said which
outcome() {
	if [ "$(git -C "$TRASH/u" rev-parse HEAD)" = "$before" ]; then
		is "$st" 1 "nothing applied: exit 1"
		is "$(grep -c '^lore-am: ' "$TRASH/e$1")" 1 "... and one line"
		check "... which says the run was interrupted" \
			grep -qx "lore-am: interrupted; nothing applied" "$TRASH/e$1"
	else
		is "$st" 0 "applied whole: exit 0"
		check "... the summary says so" grep -q "^Applied 3 patches" "$TRASH/e$1"
		check "... and that an interruption came after it, if one came" \
			eval '[ -z "$held" ] || grep -q "interrupted once the series was applied" "$TRASH/e$1"'
	fi
}

# 1. the signal in git's window after it created a lock of the user's
# repository (any of lore-am's gits may be the one: strace delays them all)
at_lock 1 index.lock objects/maintenance.lock
[ -n "$held" ]
ok $? "a lock of the user's repository was held open ($held) and SIGINT sent"
is "$(locks "$TRASH/u")" "" "no lock file is left in the user's repository"
outcome 1
is "$(next "$TRASH/u")" "" "the series is applied, by this run or the next"

# 3. git am in the temporary worktree starts no `git maintenance run
# --auto`, whose objects/maintenance.lock is the user's repository's
at_lock 3 objects/maintenance.lock
is "$held" "" "the trial's git am takes no maintenance lock in the user's repository"
is "$(locks "$TRASH/u")" "" "no lock file is left in the user's repository"
outcome 3
is "$(next "$TRASH/u")" "" "the series is applied, by this run or the next"

# 2. the signal while lore-am looks at the series' files in the work tree:
# a clean filter on *.c that, in the user's work tree, the first time,
# writes its pid to $HOLD_MARK and waits for $HOLD_MARK.go (30 s at most,
# while its git lives); file.c touched so that git must read it through
# the filter
cat >"$TRASH/hold-filter" <<'FILTER'
#!/bin/sh
[ -n "${HOLD_MARK:-}" ] && [ "$(pwd -P)" = "$HOLD_TOP" ] || exec cat
if [ ! -e "$HOLD_MARK" ]; then
	echo $$ >"$HOLD_MARK.tmp" && mv "$HOLD_MARK.tmp" "$HOLD_MARK"
	i=0
	while [ ! -e "$HOLD_MARK.go" ] && kill -0 $PPID 2>/dev/null &&
		[ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
fi
exec cat
FILTER
chmod +x "$TRASH/hold-filter"
user_clone "$TRASH/u" base
git -C "$TRASH/u" config filter.hold.clean "$TRASH/hold-filter"
echo '*.c filter=hold' >"$TRASH/u/.git/info/attributes"
sleep 1 && touch "$TRASH/u/file.c"
before=$(git -C "$TRASH/u" rev-parse HEAD)
export HOLD_MARK=$TRASH/m2 HOLD_TOP=$(cd "$TRASH/u" && pwd -P)
start "$TRASH/pid2" "$TRASH/e2"
i=0
while [ ! -s "$HOLD_MARK" ] && [ $i -lt 400 ] && kill -0 "$bg" 2>/dev/null; do
	sleep 0.05; i=$((i + 1))
done
lpid=$(cat "$TRASH/pid2" 2>/dev/null)
[ -s "$HOLD_MARK" ] && [ -n "$lpid" ] && kill -INT -- -"$lpid"
ok $? "lore-am's look at the work tree was held (the filter ran there) and SIGINT sent"
touch "$HOLD_MARK.go"
if gone_within 30 "$bg"; then
	wait "$bg"
	st=$?
else
	kill -KILL -- -"$lpid" "$bg"
	st=killed
fi
unset HOLD_MARK
is "$st" 1 "exit 1"
is "$(grep -c '^lore-am: ' "$TRASH/e2")" 1 "one line"
check "... which says the run was interrupted and nothing applied" \
	grep -qx "lore-am: interrupted; nothing applied" "$TRASH/e2"
is "$(locks "$TRASH/u")" "" "no lock file is left in the user's repository"
is "$(git -C "$TRASH/u" rev-parse HEAD):$(git -C "$TRASH/u" worktree list | wc -l)" \
	"$before:1" "HEAD where it was, no worktree left"
is "$(next "$TRASH/u")" "" "the next --apply works"

# 4. git am deletes REBASE_HEAD as it starts and as it ends, and each
# deletion would take the repository's packed-refs.lock, shared by all its
# worktrees, in git's window: a Ctrl-C there would leave it. The trial's
# REBASE_HEAD is kept locked in its own git folder (the deletion fails
# before it reaches packed-refs.lock), so no git of lore-am's takes it.
at_lock 4 packed-refs.lock
is "$held" "" "no git of lore-am's takes the repository's packed-refs.lock"
is "$(locks "$TRASH/u")" "" "no lock file is left in the user's repository"
outcome 4
is "$(next "$TRASH/u")" "" "the series is applied, by this run or the next"

# 5. a packed-refs.lock of the user's own (another terminal's git pack-refs,
# here a process holding it for 3 s) while lore-am's git am is interrupted:
# lore-am leaves it alone, whatever its age. git am is held in the trial by
# a pre-applypatch hook (outside the user's work tree only) that writes its
# pid to $HOLD_MARK and waits for $HOLD_MARK.go (30 s at most).
user_clone "$TRASH/u" base
before=$(git -C "$TRASH/u" rev-parse HEAD)
u=$(cd "$TRASH/u" && pwd -P)
cat >"$u/.git/hooks/pre-applypatch" <<'HOOK'
#!/bin/sh
[ -n "${HOLD_MARK:-}" ] && [ "$(pwd -P)" != "$HOLD_TOP" ] || exit 0
if [ ! -e "$HOLD_MARK" ]; then
	echo $$ >"$HOLD_MARK.tmp" && mv "$HOLD_MARK.tmp" "$HOLD_MARK"
	i=0
	while [ ! -e "$HOLD_MARK.go" ] && kill -0 $PPID 2>/dev/null &&
		[ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
fi
exit 0
HOOK
chmod +x "$u/.git/hooks/pre-applypatch"
export HOLD_MARK=$TRASH/m5 HOLD_TOP=$u
start "$TRASH/pid5" "$TRASH/e5"
i=0
while [ ! -s "$HOLD_MARK" ] && [ $i -lt 400 ] && kill -0 "$bg" 2>/dev/null; do
	sleep 0.05; i=$((i + 1))
done
lpid=$(cat "$TRASH/pid5" 2>/dev/null)
# the user's process: takes the lock as git does (O_EXCL), holds it 3 s,
# then says whether it is still its own file and removes it
perl -e 'use Fcntl;
	my ($lock, $out) = @ARGV;
	sysopen(my $f, $lock, O_WRONLY | O_CREAT | O_EXCL) or die "$lock: $!";
	my $ino = (stat($lock))[1];
	open(my $o, ">", "$out.tmp") or die; print $o "$$\n"; close($o);
	rename("$out.tmp", $out) or die;
	sleep 3;
	my @s = stat($lock);
	my $mine = @s && $s[1] == $ino;
	open($o, ">>", $out) or die; print $o ($mine ? "kept\n" : "removed\n");
	close($o);
	unlink($lock) if $mine' "$u/.git/packed-refs.lock" "$TRASH/holder" &
holder=$!
at_exit "kill -KILL $holder 2>/dev/null"
i=0
while [ ! -s "$TRASH/holder" ] && [ $i -lt 100 ] && kill -0 "$holder" 2>/dev/null; do
	sleep 0.05; i=$((i + 1))
done
[ -s "$HOLD_MARK" ] && [ -s "$TRASH/holder" ] && [ -n "$lpid" ] &&
	kill -INT -- -"$lpid"
ok $? "git am held in the trial, the user's packed-refs.lock taken, SIGINT sent"
if gone_within 60 "$bg"; then
	wait "$bg"
	st=$?
else
	kill -KILL -- -"$lpid" "$bg"
	st=killed
fi
touch "$HOLD_MARK.go"
gone_within 10 "$holder" || kill -KILL "$holder"
unset HOLD_MARK
is "$st" 1 "exit 1"
check "... which says the run was interrupted and nothing applied" \
	grep -qx "lore-am: interrupted; nothing applied" "$TRASH/e5"
is "$(grep -c '^lore-am: ' "$TRASH/e5")" 1 "... in one line"
is "$(sed -n 2p "$TRASH/holder")" kept \
	"the user's packed-refs.lock was never removed while its process held it"
is "$(locks "$TRASH/u")" "" "no lock file is left once the user's process is done"
is "$(git -C "$TRASH/u" rev-parse HEAD):$(git -C "$TRASH/u" worktree list | wc -l)" \
	"$before:1" "HEAD where it was, no worktree left"
is "$(next "$TRASH/u")" "" "the next --apply works"

# 6. --range-diff's two git am runs (each in a git folder of its own whose
# common folder is the user's) take no packed-refs.lock either: strace
# records every openat(2) of that path
two_revisions "$TRASH/repo6" || exit 1
revisions_mbox "$TRASH/thread6.mbox"
user_clone "$TRASH/u6" "" "$TRASH/repo6"
u6=$(cd "$TRASH/u6" && pwd -P)
(cd "$u6" && exec strace -f -qq -o "$TRASH/st6" -P "$u6/.git/packed-refs.lock" \
	-e trace=openat "$LORE_AM" -m "$TRASH/thread6.mbox" --range-diff \
	"$(msgid_of "$TRASH/p2/v2-0001-c-add-c.patch")" >"$TRASH/out6" 2>"$TRASH/e6")
is "$?:$(grep -c '^[0-9]* *openat' "$TRASH/st6")" 0:0 \
	"--range-diff exits 0, and no git of lore-am's opens packed-refs.lock"
check "... the range-diff compares the revisions" grep -q "c: add c" "$TRASH/out6"
