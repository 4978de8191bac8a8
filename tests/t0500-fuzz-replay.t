#!/bin/bash
# Every input a fuzzer ever crashed on (fuzz/regress/NAME/) and the seed
# corpus made from the test fixtures go through the fuzz harnesses again,
# built with the normal compiler (fuzz/replay-NAME): the invariants the
# harnesses check must hold, and under make SANITIZE=1 check or make
# valgrind-check no memory error may show up.
. "$(dirname "$0")/lib.sh"

names="message thread subject trailer mboxrd gzip"
plan 12

"$SRC_DIR/fuzz/make-seeds" "$TRASH/seeds" >"$TRASH/seeds.log" 2>&1
for n in $names; do
	replay=$SRC_DIR/fuzz/replay-$n
	set -- "$SRC_DIR"/fuzz/regress/"$n"/*
	[ -e "$1" ] || set --
	if [ $# -gt 0 ]; then
		${LORE_UNIT_WRAP:+"$LORE_UNIT_WRAP"} "$replay" "$@" \
			>"$TRASH/out" 2>&1
		rc=$?
	else
		rc=0; echo "0 inputs run" >"$TRASH/out"
	fi
	ok $rc "$n: $# saved crash inputs replay cleanly"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TRASH/out" | head -20
	${LORE_UNIT_WRAP:+"$LORE_UNIT_WRAP"} "$replay" "$TRASH/seeds/$n"/* \
		>"$TRASH/out" 2>&1
	rc=$?
	ok $rc "$n: seed corpus ($(ls "$TRASH/seeds/$n" | wc -l) inputs) replays cleanly"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TRASH/out" | head -20
done
done_testing
