#!/bin/bash
# A patatt signature whose key is in no keyring ("No key") is no failure,
# not even under attestation-policy = hardfail (b4's rule, as most
# developers publish no key), for a prerequisite series as for the series
# itself: B stands on A (prerequisite-message-id:), both signed with
# patatt, the key then out of reach. --apply applies A then B (exit 0);
# the summary shows B's "✗ No key", the block A's "✗ attestation:
# signed, not verified", and the JSON says the same of both. With the
# key, both are verified: the no-key path is the one taken above.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-deps.sh"

command -v patatt >/dev/null || skip_all "patatt not installed"
plan 8

R=$TRASH/repo
make_repo "$R" || exit 1
git -C "$R" checkout -q -b topic
deps_commit "$R" a.c "a one" "a: add a" && git -C "$R" tag A
deps_commit "$R" b.c "b one" "b: add b" && git -C "$R" tag B
deps_series "$R" sa base A "a: the first" &&
	deps_series "$R" sb A B "b: the second" || exit 1
sed -i '/^prerequisite-patch-id:/d' "$(deps_cover sb)"
deps_needs sb "prerequisite-message-id: <$(deps_id sa)>"
B_ID=$(deps_id sb) A_ID=$(deps_id sa)
# both signed by pat with an ed25519 key in patatt's own keyring
export XDG_DATA_HOME=$TRASH/data
git config --global user.email pat@example.com
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
patatt genkey -n k1 >"$TRASH/genkey.out" 2>&1 &&
	patatt sign "$TRASH"/sa/*.patch "$TRASH"/sb/*.patch \
		>"$TRASH/sign.out" 2>&1 || exit 1
git config --global user.email maintainer@example.org
to_mbox "$TRASH/list.mbox" "$TRASH"/sa/*.patch "$TRASH"/sb/*.patch
free_port DEAD || exit 1
ARCH="http://127.0.0.1:$DEAD/all/%s"
U=$TRASH/u
git config --global lore-am.attestation-policy hardfail
# run NAME DATA ARGS...: lore-am in the clone, patatt's keys under DATA
run() {
	_n=$1 _d=$2
	shift 2
	user_clone "$U" base "$R" || return 1
	(cd "$U" && XDG_DATA_HOME=$_d lore "$_n" -m "$TRASH/list.mbox" \
		-L "$ARCH" "$@" "$B_ID")
}

run nokey "$TRASH/nodata" --apply
is "$(cat "$TRASH/nokey.rc")" 0 "no key, hardfail: exit 0"
is "$(git -C "$U" log --format=%s base..HEAD | tr "\n" "|")" \
	"b: add b|a: add a|" "A applied first, then B"
check "the series' patch: ✗ No key, said and not refused" grep -q \
	"^    ✗ No key: ed25519/pat@example.com" "$TRASH/nokey.err"
check "the prerequisite's: not verified, under A's line" eval '
	grep -A1 "a: the first <$A_ID> (.*): applied first$" "$TRASH/nokey.err" |
	tail -1 | grep -qx "    ✗ attestation: signed, not verified"'
check "no refusal line" eval '! grep -q "nothing written\|is refused" "$TRASH/nokey.err"'

run nokeyj "$TRASH/nodata" --with-deps --format=json
tail -1 "$TRASH/nokeyj.err" >"$TRASH/nokeyj.doc"
check "--format=json: exit 0, the prerequisite's patch told as the series' is" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit"] == 0, d
a = [x["attestation"] for x in d["prerequisites"][0]["patches"]]
b = [x["attestation"] for x in d["patches"]]
assert a == b == ["fail"], (a, b)
' "$TRASH/nokeyj.doc"

run key "$TRASH/data" --apply
is "$(cat "$TRASH/key.rc")" 0 "with the key: exit 0"
check "both verified" eval '
	grep -q "^    ✓ Signed: ed25519/pat@example.com" "$TRASH/key.err" &&
	grep -qx "    ✓ attestation: signed, verified" "$TRASH/key.err"'
git config --global --unset lore-am.attestation-policy
done_testing
