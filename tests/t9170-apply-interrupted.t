#!/bin/bash
# Ctrl-C during --apply and --apply=merge: SIGINT sent to the whole process
# group, as a terminal sends it, reaches lore-am and every git it runs.
# The step that moves the user's branch is one step: either it happened
# (exit 0, the summary says so, the tree clean) or it did not (the
# repository exactly as before), and the next --apply works. The signal is
# sent from git's own hooks at the worst moments of that step (the branch's
# ref update prepared, or done, and the post-merge hook after it), then at
# random moments of whole runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

command -v setsid >/dev/null || skip_all "setsid(1) not installed"

TRIES=${LORE_TEST_TRIES:-12}
plan $((2 + 2 * (3 * 4 + 1)))

export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"

# a series that changes file.c, adds new.c and changes README (lib-series.sh)
topic_series || exit 1

# the user's repository, branch "work" at base plus one commit (so that
# --apply=merge makes a real merge), copied afresh for each try
git clone -q "$TRASH/repo" "$TRASH/template"
(cd "$TRASH/template" && git checkout -q -b work base &&
 git commit -q --allow-empty -m "later work")

# a hook that sends SIGINT to its process group (lore-am, git and itself,
# as a terminal would) once, when the transaction on refs/heads/work is in
# state $1 (prepared, committed) or, for "post-merge", after the merge
cat >"$TRASH/interrupt-hook" <<'HOOK'
#!/bin/sh
trap '' INT
[ -e "$INT_MARK" ] && exit 0
case $INT_WHEN in
post-merge) ;;
*) [ "$1" = "$INT_WHEN" ] && grep -q ' refs/heads/work$' || exit 0 ;;
esac
: >"$INT_MARK"
kill -INT 0
exit 0
HOOK
chmod +x "$TRASH/interrupt-hook"

# fresh DIR: the template copied to DIR
fresh() { rm -rf "$1" && cp -a "$TRASH/template" "$1"; }
# state DIR: everything a run that did not happen must leave as it was
state() {
	(cd "$1" && git rev-parse HEAD && git symbolic-ref -q HEAD &&
	 git status --porcelain && git worktree list --porcelain &&
	 git for-each-ref && git stash list &&
	 ls "$(git rev-parse --git-dir)" | grep -v '^hooks$')
}
# start DIR MODE: lore-am --apply$MODE in DIR, in a process group of its
# own (setsid execs it: its pid is the group's id), SIGINT not ignored as
# from a terminal (a script's "&" ignores it); the pid in $pid
start() {
	(cd "$1" && exec setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
		"$LORE_AM" -m "$TRASH/thread.mbox" \
		--apply$2 "$id" </dev/null >/dev/null 2>"$1.err") &
	pid=$!
}
# judge DIR MODE STATUS BEFORE: the outcome is one of the two allowed;
# prints what is wrong, nothing when it is right
judge() {
	local d=$1 mode=$2 st=$3 before=$4 tree
	if [ -n "$(ls "$TMPDIR")" ]; then
		echo "temporary folders left: $(ls "$TMPDIR" | tr '\n' ' ')"
	fi
	if [ "$(git -C "$d" rev-parse HEAD)" = "$(head -1 "$before")" ]; then
		state "$d" | cmp -s - "$before" ||
			{ echo "HEAD unchanged (exit $st), but the repository changed:"
			  state "$d" | diff "$before" - | head -20; }
		[ "$st" != 0 ] || echo "exit 0, but nothing was applied"
		return
	fi
	[ "$st" = 0 ] || echo "the branch moved, but exit $st: $(tail -1 "$d.err")"
	grep -q "^Applied 3 patches" "$d.err" || echo "the branch moved, but no Applied line"
	[ -z "$(git -C "$d" status --porcelain)" ] ||
		echo "the branch moved, but the tree is not clean"
	[ "$(git -C "$d" worktree list | wc -l)" = 1 ] || echo "a worktree is left"
	case $mode in
	"") tree=$(git -C "$d" rev-parse 'HEAD^{tree}') ;;
	*) tree=$(git -C "$d" rev-parse 'HEAD^2^{tree}') ;;
	esac
	[ "$tree" = "$topic_tree" ] || echo "the branch moved to something else"
}
# again DIR MODE: when the try did not happen, a plain --apply now works
again() {
	if [ "$(git -C "$1" rev-parse HEAD)" = "$(git -C "$TRASH/template" rev-parse HEAD)" ]; then
		(cd "$1" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply$2 "$id" \
			</dev/null >/dev/null 2>"$1.again") ||
			{ echo "the next --apply$2 failed: $(tail -1 "$1.again")"; return; }
	fi
	[ -z "$(git -C "$1" status --porcelain)" ] || echo "the tree is not clean afterwards"
}

# a plain run, timed: the random moments fall within one
fresh "$TRASH/u"
t0=$(date +%s%N)
(cd "$TRASH/u" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply "$id" 2>/dev/null)
ok $? "a plain --apply exits 0"
ms=$((($(date +%s%N) - t0) / 1000000 + 20))
is "$(git -C "$TRASH/u" rev-parse 'HEAD^{tree}')" "$topic_tree" "and applies the series"

for mode in "" =merge; do
	name="--apply$mode"
	for when in prepared committed post-merge; do
		fresh "$TRASH/u"
		state "$TRASH/u" >"$TRASH/before"
		if [ $when = post-merge ]; then hook=post-merge; else hook=reference-transaction; fi
		cp "$TRASH/interrupt-hook" "$TRASH/u/.git/hooks/$hook"
		rm -f "$TRASH/mark"
		INT_WHEN=$when INT_MARK=$TRASH/mark start "$TRASH/u" "$mode"
		wait $pid
		st=$?
		ok $([ -e "$TRASH/mark" ]; echo $?) "$name, SIGINT at $when: the signal was sent"
		rm "$TRASH/u/.git/hooks/$hook"
		judge "$TRASH/u" "$mode" $st "$TRASH/before" >"$TRASH/wrong"
		is "$(cat "$TRASH/wrong")" "" "$name, SIGINT at $when: happened whole or not at all (exit $st)"
		if [ "$(git -C "$TRASH/u" rev-parse HEAD)" = "$(head -1 "$TRASH/before")" ]; then
			is "$st" 1 "$name, SIGINT at $when: did not happen, exit 1"
			check "... and said so" grep -q "interrupted.*nothing applied\|current branch is unchanged" "$TRASH/u.err"
		else
			check "$name, SIGINT at $when: happened, and the summary says so" \
				grep -q "^Applied 3 patches" "$TRASH/u.err"
			ok 0 "... (the run went on)"
		fi
	done

	# random moments
	bad=0 moved=0 i=0
	: >"$TRASH/log"
	while [ $i -lt "$TRIES" ]; do
		i=$((i + 1))
		fresh "$TRASH/u"
		state "$TRASH/u" >"$TRASH/before"
		delay=$((RANDOM % ms))
		start "$TRASH/u" "$mode"
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kill -INT -- -"$pid" 2>/dev/null
		wait $pid
		st=$?
		judge "$TRASH/u" "$mode" $st "$TRASH/before" >"$TRASH/wrong"
		[ "$(git -C "$TRASH/u" rev-parse HEAD)" = "$(head -1 "$TRASH/before")" ] ||
			moved=$((moved + 1))
		again "$TRASH/u" "$mode" >>"$TRASH/wrong"
		if [ -s "$TRASH/wrong" ]; then
			bad=$((bad + 1))
			sed "s/^/try $i, ${delay} ms, exit $st: /" "$TRASH/wrong" >>"$TRASH/log"
		fi
	done
	is "$bad" 0 "$name, SIGINT at $TRIES random moments of ${ms} ms: each whole or not at all, the next run works ($moved happened)"
	sed 's/^/# /' "$TRASH/log" | head -20 >&2
done
