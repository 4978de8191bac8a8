#!/bin/bash
# Every input a fuzzer ever crashed on (fuzz/regress/NAME/), the small
# hand-made inputs kept for each harness (fuzz/seeds/NAME/) and the seed
# corpus made from the test fixtures go through the fuzz harnesses again,
# built with the normal compiler (fuzz/replay-NAME): the invariants the
# harnesses check must hold, and under make SANITIZE=1 check or make
# valgrind-check no memory error may show up. A harness with nothing to
# replay fails: a check that runs nothing proves nothing.
. "$(dirname "$0")/lib.sh"

names="message thread subject trailer mboxrd gzip dnstxt appendlog pullreq gate"
names="$names tyjson prereq url maintainers pullsig mergemsg sshkey indexline gitalt"
plan 38

# replay NAME FILE...: the harness over the files, 1 when there are none
replay() {
	_r=$SRC_DIR/fuzz/replay-$1
	shift
	if [ $# -eq 0 ] || [ ! -e "$1" ]; then
		echo "nothing to replay" >"$TRASH/out"
		return 1
	fi
	${LORE_UNIT_WRAP:+"$LORE_UNIT_WRAP"} "$_r" "$@" >"$TRASH/out" 2>&1
}

"$SRC_DIR/fuzz/make-seeds" "$TRASH/seeds" >"$TRASH/seeds.log" 2>&1
for n in $names; do
	set --
	for f in "$SRC_DIR"/fuzz/regress/"$n"/* "$SRC_DIR"/fuzz/seeds/"$n"/*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	replay "$n" "$@"
	rc=$?
	ok $rc "$n: $# saved inputs (fuzz/regress, fuzz/seeds) replay cleanly"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TRASH/out" | head -20
	set -- "$TRASH/seeds/$n"/*
	replay "$n" "$@"
	rc=$?
	ok $rc "$n: seed corpus ($(ls "$TRASH/seeds/$n" | wc -l) inputs) replays cleanly"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TRASH/out" | head -20
done
done_testing
