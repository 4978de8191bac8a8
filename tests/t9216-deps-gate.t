#!/bin/bash
# A prerequisite series goes through the gate as the series does: B
# stands on A (prerequisite-message-id:), A's patch names in Fixes: a
# commit this tree does not have, all of it in one local mailbox, real
# git. lore-am.gate=hardfail refuses the whole run (exit 3, the line
# names the prerequisite and A's patch, the repository unchanged) and
# shows A's gate block, headed with A's name, as a refused series shows
# its own (the JSON instead, with --format=json);
# warn applies A then B and the gate's block shows A's patch, marked,
# before B's; --format=json puts A under "prerequisites" and the
# outcome counts it; --check's verdicts stay beside their own patches.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-deps.sh"

plan 20

R=$TRASH/repo
make_repo "$R" || exit 1
git -C "$R" checkout -q -b topic
(cd "$R" && echo "a one" >a.c && git add a.c &&
 GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com \
 git commit -q -m "a: fix the frobnicator" -m "Why this change is needed." \
	-m "Fixes: deadbeefdead (\"a: add the frobnicator\")
Signed-off-by: Pat Contributor <pat@example.com>") && git -C "$R" tag A
deps_commit "$R" b.c "b one" "b: add b" && git -C "$R" tag B
deps_series "$R" sa base A "a: the first" &&
	deps_series "$R" sb A B "b: the second" || exit 1
sed -i '/^prerequisite-patch-id:/d' "$(deps_cover sb)"
deps_needs sb "prerequisite-message-id: <$(deps_id sa)>"
B_ID=$(deps_id sb) A_ID=$(deps_id sa)
to_mbox "$TRASH/list.mbox" "$TRASH"/sa/*.patch "$TRASH"/sb/*.patch
free_port DEAD || exit 1
ARCH="http://127.0.0.1:$DEAD/all/%s"
U=$TRASH/u
user_clone "$U" base "$R" || exit 1
run() {
	_n=$1
	shift
	(cd "$U" && lore "$_n" -m "$TRASH/list.mbox" -L "$ARCH" "$@" "$B_ID")
}

# ------------------------------------------------------------ hardfail
git config --global lore-am.gate hardfail
deps_state "$U" >"$TRASH/before"
run hard --apply
deps_state "$U" >"$TRASH/after"
is "$(cat "$TRASH/hard.rc")" 3 "the gate refuses the prerequisite: exit 3"
check "the repository is unchanged" cmp -s "$TRASH/before" "$TRASH/after"
check "the line names A's patch and the check, after A's Message-ID" grep -q \
	"^lore-am: <$A_ID>: gate: \[PATCH 1/1\] a: fix the frobnicator: .*deadbeefdead.*nothing written or applied (lore-am.gate=hardfail)$" \
	"$TRASH/hard.err"
check "and one line says the prerequisite is refused" grep -qx \
	"lore-am: the prerequisite '\[PATCH 0/1\] a: the first' <$A_ID> is refused: nothing written or applied" \
	"$TRASH/hard.err"
check "A's gate block, headed with A's name: its patch and the check" eval '
	sed -n "/^Gate (lore-am.gate=hardfail)/,\$p" "$TRASH/hard.err" >"$TRASH/hard.gate" &&
	test "$(sed -n "1p;/^  /p" "$TRASH/hard.gate" | tr "\n" "|")" = \
	"Gate (lore-am.gate=hardfail) of the prerequisite '"'"'[PATCH 0/1] a: the first'"'"' <$A_ID>:|  ✗ [PATCH 1/1] a: fix the frobnicator [prerequisite]|    ✗ Fixes: deadbeefdead is not an object in this tree|"'
check "said once, before the line that refuses A" eval '
	test "$(grep -c "^Gate (" "$TRASH/hard.err")" = 1 &&
	tail -1 "$TRASH/hard.err" | grep -q "^lore-am: the prerequisite .* is refused"'
run hardq --apply -q
check "-q: the error lines only, no block" eval '
	test "$(cat "$TRASH/hardq.rc")" = 3 && ! grep -q "^Gate (" "$TRASH/hardq.err" &&
	grep -q "^lore-am: <$A_ID>: gate: " "$TRASH/hardq.err"'
run hardw --with-deps
is "$(cat "$TRASH/hardw.rc") $(wc -c <"$TRASH/hardw.out")" "3 0" \
	"--with-deps: exit 3, nothing on stdout"
run hardj --with-deps --format=json
tail -1 "$TRASH/hardj.err" >"$TRASH/hardj.doc"
check "--format=json: the JSON is said all the same, A refused in it" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit"] == 3, d
p = d["prerequisites"][0]
assert p["cover"] == sys.argv[2] and p["outcome"] == "fail", p
c = p["patches"][0]["checks"]
assert any(x["check"] == "fixes" and x["result"] == "fail" for x in c), c
' "$TRASH/hardj.doc" "$A_ID"
check "and no terminal block beside it" eval '! grep -q "^Gate (" "$TRASH/hardj.err"'

# ---------------------------------------------------------------- warn
git config --global lore-am.gate warn
run warn --apply
is "$(cat "$TRASH/warn.rc")" 0 "warn: exit 0"
is "$(git -C "$U" log --format=%s base..HEAD | tr "\n" "|")" \
	"b: add b|a: fix the frobnicator|" "A applied first, then B"
check "the gate's block: A's patch, marked, then B's" eval '
	sed -n "/^Gate (lore-am.gate=warn):/,\$p" "$TRASH/warn.err" >"$TRASH/warn.gate" &&
	test "$(grep "^  [✓!✗] " "$TRASH/warn.gate" | tr "\n" "|")" = \
	"  ✗ [PATCH 1/1] a: fix the frobnicator [prerequisite]|  ✓ [PATCH 1/1] b: add b|"'
check "with A's finding under it" grep -q "^    ✗ .*deadbeefdead" \
	"$TRASH/warn.gate"

user_clone "$U" base "$R" || exit 1
run json --with-deps --format=json
is "$(cat "$TRASH/json.rc")" 0 "--format=json, warn: exit 0"
tail -1 "$TRASH/json.err" >"$TRASH/json.doc"
check "the JSON: A under prerequisites with its fixes finding, outcome fail" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["outcome"] == "fail", d["outcome"]
p = d["prerequisites"][0]["patches"]
assert [x["result"] for x in p] == ["fail"], p
assert any(c["check"] == "fixes" and c["result"] == "fail" for c in p[0]["checks"])
assert [x["result"] for x in d["patches"]] == ["ok"], d["patches"]
' "$TRASH/json.doc"

# --check: each verdict beside its own patch (A's come first in the mbox)
cat >"$TRASH/chk" <<'EOF'
#!/bin/sh
# a check command that flags only A's patch
if grep -q frobnicator; then echo "WARNING: frob"; exit 1; fi
exit 0
EOF
chmod +x "$TRASH/chk"
git -C "$U" config lore-am.am-perpatch-check-cmd "$TRASH/chk"
run chk --with-deps --check
is "$(cat "$TRASH/chk.rc")" 0 "--check --with-deps: exit 0"
check "A's verdict on A's line, B's on B's" eval '
	grep -q "^  ✗ \[PATCH 1/1\] a: fix the frobnicator \[check: warnings\] \[prerequisite\]$" "$TRASH/chk.err" &&
	grep -q "^  ✓ \[PATCH 1/1\] b: add b \[check: clean\]$" "$TRASH/chk.err"'

run plain
is "$(cat "$TRASH/plain.rc")" 0 "a plain run (A not applied): exit 0"
check "the block names A, the gate still shows it" eval '
	grep -q "a: the first <$A_ID> (.*): not in the tree$" "$TRASH/plain.err" &&
	grep -q "^  ✗ \[PATCH 1/1\] a: fix the frobnicator \[prerequisite\]$" "$TRASH/plain.err"'
git config --global --unset lore-am.gate
done_testing
