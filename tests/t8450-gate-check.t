#!/bin/bash
# --check's verdict joins the gate's lines: one line per patch, the
# gate's mark (✓ / ! / ✗) with the check command's verdict beside it,
# said once the checks have run; and in --format=json, each patch's
# "check-command" with its result and the lines the command said.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 10

# a check command speaking checkpatch's --terse words: a line with
# "warn" in it is a warning, one with "bad" an error
cat >"$TRASH/checkpatch" <<'SCRIPT'
#!/bin/sh
awk '/^\+.*bad/ { printf "-:%d: ERROR: bad line\n", NR; e++ }
/^\+.*warn/ { printf "-:%d: WARNING: warned line\n", NR }
END { exit e ? 1 : 0 }'
SCRIPT
chmod +x "$TRASH/checkpatch"
git config --global lore-am.am-perpatch-check-cmd "$TRASH/checkpatch"

make_repo "$TRASH/repo"
cd "$TRASH/repo" || exit 1
git checkout -q -b topic
s="Signed-off-by: Test Maintainer <maintainer@example.org>"
echo fine >a.c && git add a.c && git commit -qm "a: fine" -m "$s"
echo "warn me" >b.c && git add b.c && git commit -qm "b: warned" -m "$s"
echo "bad" >c.c && git add c.c && git commit -qm "c: bad and unsigned"
git format-patch -q --thread=shallow -o "$TRASH/p" base..topic
git checkout -q main
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*.patch)

"$LORE_AM" --check -m "$TRASH/t.mbox" "$id" >/dev/null 2>"$TRASH/err"
ok $? "exit 0"
check "a clean patch: ✓ and the check's clean" grep -qx "  ✓ \[PATCH 1/3\] a: fine \[check: clean\]" "$TRASH/err"
check "a warned one: ✓ and warnings" grep -qx "  ✓ \[PATCH 2/3\] b: warned \[check: warnings\]" "$TRASH/err"
check "an unsigned one with errors: ✗ and errors" grep -qx "  ✗ \[PATCH 3/3\] c: bad and unsigned \[check: errors\]" "$TRASH/err"
is "$(grep -n -m1 '^Gate ' "$TRASH/err" | cut -d: -f1)" \
	"$(( $(grep -n -m1 '^Checked ' "$TRASH/err" | cut -d: -f1) + 2 ))" \
	"the gate's lines come after the checks"
"$LORE_AM" -m "$TRASH/t.mbox" "$id" >/dev/null 2>"$TRASH/err"
check "without --check: no verdict" grep -qx "  ✓ \[PATCH 1/3\] a: fine" "$TRASH/err"

"$LORE_AM" --format=json --check -m "$TRASH/t.mbox" "$id" >/dev/null 2>"$TRASH/err"
tail -n 1 "$TRASH/err" >"$TRASH/json"
check "valid JSON" python3 -m json.tool "$TRASH/json"
q() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$TRASH/json"; }
cc() { q "[c for c in j[\"patches\"][$1][\"checks\"] if c[\"check\"] == \"check-command\"][0][\"$2\"]"; }
is "$(cc 0 result) $(cc 1 result) $(cc 2 result)" "ok warn fail" "each patch's check-command result"
is "$(cc 2 message)" "errors" "its verdict"
is "$(cc 2 output | sed "s/^-:[0-9]*: //")" "ERROR: bad line" "and the lines it said"
