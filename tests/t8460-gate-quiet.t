#!/bin/bash
# The gate says only what it found. Outside a git tree its note (the
# Fixes:, Cc: stable and .mailmap checks skipped) comes once, and only
# when a tree check had something to look at: a patch with no sign-off
# at all is a ✗ with no note (no .mailmap could find one). Under
# --passthrough, the X-Lore-Am line says what the gate found (gate=warn,
# gate=fail) beside the series' status, which a hardfail leaves as it
# is: the series is complete, not an error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 8

make_repo "$TRASH/repo"
cd "$TRASH/repo" || exit 1
git checkout -q -b topic
fix=$(git rev-parse HEAD)
echo a >a.c && git add a.c && git commit -qm "a: never signed"
git format-patch -q --thread -o "$TRASH/u" base..topic
echo b >b.c && git add b.c && git commit -qm "b: fixes" -m "Fixes: ${fix:0:8} (\"base commit\")
Signed-off-by: Test Maintainer <maintainer@example.org>"
git format-patch -q --thread -o "$TRASH/f" topic~1..topic
cd "$TRASH" || exit 1
uid=$(msgid_of "$TRASH"/u/0001-*.patch)
fid=$(msgid_of "$TRASH"/f/0001-*.patch)

GIT_CEILING_DIRECTORIES=$TRASH "$LORE_AM" -m "$TRASH"/u/0001-*.patch "$uid" >/dev/null 2>"$TRASH/err"
check "outside a tree, an unsigned patch: ✗" grep -qx "    ✗ the author, Test Maintainer <maintainer@example.org>, has not signed off" "$TRASH/err"
! grep -q "NOTE: gate" "$TRASH/err"
ok $? "and no note: no tree check had anything to look at"
GIT_CEILING_DIRECTORIES=$TRASH "$LORE_AM" -m "$TRASH"/f/0001-*.patch "$fid" >/dev/null 2>"$TRASH/err"
is "$(grep -c "^NOTE: gate: not in a git tree" "$TRASH/err")" 1 "a Fixes: to look up: one note"

# the mail filter under hardfail
cd "$TRASH/repo" || exit 1
git config --global lore-am.gate hardfail
"$LORE_AM" --passthrough --status-header -o "$TRASH/o" -m "$TRASH"/u/0001-*.patch <"$TRASH"/u/0001-*.patch >"$TRASH/out" 2>"$TRASH/err"
ok $? "--passthrough under hardfail: exit 0"
check "the header: the series complete, gate=fail" \
	grep -qx "X-Lore-Am: status=complete; revision=1; patches=1/1; series=[a-z0-9_]*; state=complete; reviews=0; attestation=none; gate=fail" \
	<(grep -m1 "^X-Lore-Am:" "$TRASH/out")
grep -v "^X-Lore-Am:" "$TRASH/out" | cmp -s - "$TRASH"/u/0001-*.patch
ok $? "and the mail itself unchanged"
git config --global lore-am.gate warn
"$LORE_AM" --passthrough --status-header -o "$TRASH/o" -m "$TRASH"/f/0001-*.patch <"$TRASH"/f/0001-*.patch >"$TRASH/out" 2>"$TRASH/err"
check "a ! under warn: gate=warn" \
	grep -qx "X-Lore-Am: status=complete; revision=1; patches=1/1; series=[a-z0-9_]*; state=complete; reviews=0; attestation=none; gate=warn" \
	<(grep -m1 "^X-Lore-Am:" "$TRASH/out")
git config --global lore-am.gate off
"$LORE_AM" --passthrough --status-header -o "$TRASH/o" -m "$TRASH"/u/0001-*.patch <"$TRASH"/u/0001-*.patch >"$TRASH/out" 2>"$TRASH/err"
check "the gate off: no gate field" \
	grep -qx "X-Lore-Am: status=complete; revision=1; patches=1/1; series=[a-z0-9_]*; state=complete; reviews=0; attestation=none" \
	<(grep -m1 "^X-Lore-Am:" "$TRASH/out")
