#!/bin/bash
# A prerequisite series is attested as the series is: B stands on A
# (prerequisite-message-id:), A's mails are DKIM-signed with a key a real
# dnsmasq on 127.0.0.1 serves, all of it found in one local mailbox. A
# signed and whole: --apply applies A then B under hardfail, the block
# says A's patches are signed and verified. A copy of A whose patch was
# changed after signing (its diff, or a second Subject: put on top; A
# signed with patatt instead, its diff changed):
# hardfail refuses the whole run (exit 1, one line naming the
# prerequisite, the repository unchanged, nothing on stdout with
# --with-deps), softfail applies with the failure said; a prerequisite
# the tree has already is not judged again. The JSON says each
# prerequisite patch's attestation.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-deps.sh"
. "$TEST_DIR/lib-dkim.sh"

command -v patatt >/dev/null || skip_all "patatt not installed"
dkim_setup
plan 27

R=$TRASH/repo
make_repo "$R" || exit 1
git -C "$R" checkout -q -b topic
deps_commit "$R" a.c "a one" "a: add a" &&
	deps_commit "$R" a.c "a two" "a: grow a" && git -C "$R" tag A
deps_commit "$R" b.c "b one" "b: add b" && git -C "$R" tag B
deps_series "$R" sa base A "a: the first" &&
	deps_series "$R" sb A B "b: the second" || exit 1
# B names A by its Message-ID only (no archive here to search patch-ids)
sed -i '/^prerequisite-patch-id:/d' "$(deps_cover sb)"
deps_needs sb "prerequisite-message-id: <$(deps_id sa)>"
B_ID=$(deps_id sb) A_ID=$(deps_id sa)
# a copy of A for patatt, signed with an ed25519 key in patatt's own
# keyring (where `patatt genkey` puts it), before DKIM signs A
mkdir -p "$TRASH/pt" && cp "$TRASH"/sa/*.patch "$TRASH/pt/"
export XDG_DATA_HOME=$TRASH/data
git config --global user.email pat@example.com
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
patatt genkey -n k1 >"$TRASH/genkey.out" 2>&1 &&
	patatt sign "$TRASH"/pt/*.patch >"$TRASH/pt.sign" 2>&1 || exit 1
git config --global user.email maintainer@example.org
dkim_sign rsa - "$TRASH"/sa/*.patch
dns_start || exit 1
# no archive: a dead port, so that asking one would fail
free_port DEAD || exit 1
ARCH="http://127.0.0.1:$DEAD/all/%s"

# thread NAME DIR: A's mails from DIR and B's, in $TRASH/NAME.mbox (B's
# part made once: to_mbox starts three processes a mail)
to_mbox "$TRASH/sb.part" "$TRASH"/sb/*.patch
thread() {
	to_mbox "$TRASH/$1.mbox" "$TRASH/$2"/*.patch &&
		cat "$TRASH/sb.part" >>"$TRASH/$1.mbox"
}
# run NAME MBOX ARGS...: lore-am in the maintainer's clone
run() {
	_n=$1 _m=$2
	shift 2
	(cd "$U" && lore "$_n" -m "$TRASH/$_m.mbox" -L "$ARCH" "$@" "$B_ID")
}
subjects() { git -C "$U" log --format=%s base..HEAD | tr "\n" "|"; }
U=$TRASH/u
# the maintainer's clone made once; each part starts from a copy of it,
# the same files (no clone, upload-pack and checkout each time)
user_clone "$TRASH/u0" base "$R" || exit 1
fresh() {
	rm -rf "$U" && cp -a "$TRASH/u0" "$U" &&
		git -C "$U" update-index -q --refresh
}
fresh || exit 1

# ------------------------------------------------ signed: applied
thread good sa
git config --global lore-am.attestation-policy hardfail
run good good --apply
is "$(cat "$TRASH/good.rc")" 0 "signed prerequisite, hardfail: exit 0"
is "$(subjects)" "b: add b|a: grow a|a: add a|" "A applied first, then B"
check "the block says A's two patches are signed and verified" grep -qx \
	"    ✓ attestation: signed, verified (all 2 patches)" "$TRASH/good.err"
check "under A's line" eval '
	grep -A1 "a: the first <$A_ID> (.*): applied first$" "$TRASH/good.err" |
	tail -1 | grep -q "✓ attestation"'

check "and the DNS server was asked for the key" test "$(dns_queries)" -ge 1

# --------------------------------------- A's diff changed after signing
mkdir -p "$TRASH/bad" && cp "$TRASH"/sa/*.patch "$TRASH/bad/"
sed -i 's/^+a two$/+a two, and a back door/' "$TRASH"/bad/0002-*.patch
check "the change is in the mail" grep -q "back door" "$TRASH"/bad/0002-*.patch
thread bad bad
fresh || exit 1
deps_state "$U" >"$TRASH/before"
run hard bad --apply
is "$(cat "$TRASH/hard.rc")" 1 "altered prerequisite, hardfail: exit 1"
deps_state "$U" >"$TRASH/after"
check "the repository is unchanged" cmp -s "$TRASH/before" "$TRASH/after"
check "the failure names A's patch, after A's Message-ID" grep -q \
	"^lore-am: <$A_ID>: \[PATCH 2/2\] a: grow a: ✗ BADSIG: DKIM/example.org .*nothing written (attestation-policy hardfail)$" \
	"$TRASH/hard.err"
check "and one line says the prerequisite is refused" grep -qx \
	"lore-am: the prerequisite '\[PATCH 0/2\] a: the first' <$A_ID> is refused: nothing written or applied" \
	"$TRASH/hard.err"
run hardw bad --with-deps
is "$(cat "$TRASH/hardw.rc") $(wc -c <"$TRASH/hardw.out")" "1 0" \
	"--with-deps, hardfail: exit 1, nothing on stdout"
mkdir -p "$TRASH/od"
run hardo bad -o "$TRASH/od"
is "$(cat "$TRASH/hardo.rc") $(ls "$TRASH/od" | wc -l)" "1 0" \
	"-o DIR, hardfail: exit 1, no file written"

git config --global lore-am.attestation-policy softfail
run soft bad --apply
is "$(cat "$TRASH/soft.rc")" 0 "altered prerequisite, softfail: exit 0"
is "$(subjects)" "b: add b|a: grow a|a: add a|" "applied, A first"
check "the failure is said, naming the prerequisite" grep -q \
	"^lore-am: <$A_ID>: \[PATCH 2/2\] a: grow a: ✗ BADSIG: DKIM/example.org" \
	"$TRASH/soft.err"
check "the block says which patch holds and which does not" eval '
	grep -qx "    ✓ attestation: \[PATCH 1/2\] a: add a: signed, verified" "$TRASH/soft.err" &&
	grep -qx "    ✗ attestation: \[PATCH 2/2\] a: grow a: signed, not verified" "$TRASH/soft.err"'

# ------------------------- a second Subject: on top of a signed patch
mkdir -p "$TRASH/dup" && cp "$TRASH"/sa/*.patch "$TRASH/dup/"
f=$(ls "$TRASH"/dup/0001-*.patch)
awk 'NR == 1 { print; print "Subject: [PATCH 1/2] a: harmless"; next } { print }' \
	"$f" >"$f.new" && mv "$f.new" "$f"
thread dup dup
git config --global lore-am.attestation-policy hardfail
fresh || exit 1
deps_state "$U" >"$TRASH/before"
run duph dup --apply
deps_state "$U" >"$TRASH/after"
is "$(cat "$TRASH/duph.rc")" 1 "a forged Subject: on A's patch, hardfail: exit 1"
check "the repository is unchanged" cmp -s "$TRASH/before" "$TRASH/after"
check "the line names the second Subject:" grep -q \
	"^lore-am: <$A_ID>: .*✗ BADSIG: DKIM/example.org (a second Subject: header that the signature does not cover): nothing written" \
	"$TRASH/duph.err"

# ---------------- A in the tree already: not judged again, B applied
mkdir -p "$TRASH/msg" && cp "$TRASH"/sa/*.patch "$TRASH/msg/"
# its commit message changed: the signature breaks, the patch-id not
sed -i '/^Signed-off-by: Pat/i Reviewed-by: Nobody <n@example.org>' \
	"$TRASH"/msg/0001-*.patch
thread msg msg
fresh || exit 1
git -C "$U" am -q "$TRASH"/sa/0001-*.patch "$TRASH"/sa/0002-*.patch || exit 1
run intree msg --with-deps
is "$(cat "$TRASH/intree.rc")" 0 "a changed copy of A, which the tree has: exit 0"
check "A is only named" grep -q "a: the first <$A_ID> (.*): already in the tree" \
	"$TRASH/intree.err"

# ------------------------------------------------- patatt, the same
mkdir -p "$TRASH/ptbad" && cp "$TRASH"/pt/*.patch "$TRASH/ptbad/"
sed -i 's/^+a two$/+a two, and a back door/' "$TRASH"/ptbad/0002-*.patch
thread pt pt
thread ptbad ptbad
git config --global lore-am.attestation-policy hardfail
fresh || exit 1
run ptgood pt --with-deps
is "$(cat "$TRASH/ptgood.rc")" 0 "patatt-signed prerequisite, hardfail: exit 0"
check "the block says A's patches are signed and verified" grep -qx \
	"    ✓ attestation: signed, verified (all 2 patches)" "$TRASH/ptgood.err"
run ptbad ptbad --with-deps
is "$(cat "$TRASH/ptbad.rc") $(wc -c <"$TRASH/ptbad.out")" "1 0" \
	"its body changed after signing, hardfail: exit 1, nothing written"
check "the line names the patatt signature" grep -q \
	"^lore-am: <$A_ID>: \[PATCH 2/2\] a: grow a: ✗ BADSIG: ed25519/pat@example.com (the body changed after signing): nothing written" \
	"$TRASH/ptbad.err"

# ------------------------------------------------------------ JSON
git config --global lore-am.attestation-policy softfail
fresh || exit 1
run json bad --with-deps --format=json
is "$(cat "$TRASH/json.rc")" 0 "--format=json --with-deps: exit 0"
tail -1 "$TRASH/json.err" >"$TRASH/json.doc"
check "the JSON names the prerequisite and each patch's attestation" \
	"$DKIM_PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["prerequisites"]
assert len(p) == 1 and p[0]["cover"] == sys.argv[2], p
a = [x["attestation"] for x in p[0]["patches"]]
assert a == ["pass", "fail"], a
assert [x["subject"] for x in d["patches"]] == ["[PATCH 1/1] b: add b"]
' "$TRASH/json.doc" "$A_ID"
git config --global --unset lore-am.attestation-policy
done_testing
