#!/bin/bash
# Developer signatures made with an OpenSSH key (patatt's a=openssh-sha256):
# a series signed in the test by Debian's patatt with ed25519, RSA and
# ECDSA keys made by ssh-keygen, checked as patatt checks them (ssh-keygen
# -Y verify, the keyring's key the only allowed signer, namespace patatt);
# real `patatt validate` gives the same verdicts. Tampering, a key that did
# not sign, a key file that is not one, no key, ssh-keygen missing, and
# the attestation policy.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

command -v patatt >/dev/null || skip_all "patatt not installed"
command -v ssh-keygen >/dev/null || skip_all "ssh-keygen (openssh-client) not installed"
plan 16

cd "$TRASH" || exit 1
export XDG_DATA_HOME=$TRASH/data
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
series_repo "$TRASH/repo" 5 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
git config --global user.email pat@example.com

for t in ed25519 rsa ecdsa; do
	ssh-keygen -q -t $t -N '' -C pat -f "$TRASH/k_$t" || echo "# ssh-keygen -t $t failed"
done
KEYDIR=keys/openssh/example.com/pat
mkdir -p "$KEYDIR"
git config --global patatt.keyringsrc "$TRASH/keys"

# series NAME TYPE: the five patches and the cover in NAME/, signed with
# the TYPE key
series() {
	mkdir -p "$1"
	cp p/*.patch "$1/"
	git config --global patatt.signingkey "openssh:$TRASH/k_$2"
	patatt sign "$1"/*.patch >"$1.sign" 2>&1
}
signed() { grep -c '✓ Signed: openssh/pat@example.com$' "$1.err"; }
badsig() { grep -c "✗ BADSIG: openssh/pat@example.com ($2)" "$1.err"; }
key() { cp "$TRASH/k_$1.pub" "$KEYDIR/default"; }

series ed ed25519
grep -q '^X-Developer-Signature: v=1; a=openssh-sha256' ed/0003-*.patch
ok $? "patatt signed the patches with the OpenSSH key"

am ed
is "$rc $(signed ed) $(grep -c '✗ No key: openssh/pat@example.com (no key in the keyring)' ed.err)" \
	"0 0 5" "no key in the keyring: five No key lines, written"

key ed25519
am ed
is "$rc $(signed ed) $(failed ed)" "0 5 0" "an ed25519 key: five ✓ lines"
patatt validate ed/*.patch >ed.val 2>&1
is "$(grep -c '^ *PASS' ed.val)" 6 "... real patatt validate passes them (and the cover)"

for t in rsa ecdsa; do
	series "$t" "$t"
	key "$t"
	am "$t"
	is "$rc $(signed "$t") $(failed "$t")" "0 5 0" "an $t key: five ✓ lines"
done

key ed25519
# a signed header (Subject) changed: the body hash holds, ssh-keygen
# refuses the signature
series hdr ed25519
sed -i 's/^Subject: \[PATCH 4\/5\] part: add piece 4/&, edited/' hdr/0004-*.patch
am hdr
is "$rc $(signed hdr) $(badsig hdr 'the signature does not match')" \
	"0 4 1" "a signed header changed: BADSIG from ssh-keygen"
patatt validate hdr/*.patch >hdr.val 2>&1
is "$(grep -c '^ *BADSIG' hdr.val)" 1 "... real patatt validate says BADSIG for it too"

series body ed25519
sed -i 's/^+content 3 of part$/+content 3 of part, changed/' body/0003-*.patch
am body
is "$rc $(signed body) $(badsig body 'the body changed after signing')" \
	"0 4 1" "the body changed after signing: BADSIG"

# another key at the signer's place
key rsa
am ed
is "$rc $(signed ed) $(badsig ed 'the signature does not match')" "0 0 5" \
	"a key that did not sign: five BADSIG"

# a key file that is not one OpenSSH takes: a second line (an option
# smuggled into the allowed-signers file), a type its blob does not name
{ cat "$TRASH/k_ed25519.pub"; echo 'cert-authority ssh-ed25519 AAAA'; } >"$KEYDIR/default"
am ed
is "$rc $(signed ed) $(badsig ed "the keyring's openssh key is not one")" "0 0 5" \
	"a key file of two lines: not taken"
sed 's/^ssh-ed25519/ssh-rsa/' "$TRASH/k_ed25519.pub" >"$KEYDIR/default"
am ed
is "$(signed ed) $(badsig ed "the keyring's openssh key is not one")" "0 5" \
	"a key whose type is not its blob's: not taken"

# the policy: hardfail refuses a bad signature, nothing written
key ed25519
git config --global lore-am.attestation-policy hardfail
am hdr
is "$rc $(wc -c <hdr.out)" "1 0" "hardfail: a BADSIG refuses the series, nothing written"
git config --global --unset lore-am.attestation-policy

# no ssh-keygen on PATH: not checked, said once
mkdir -p nossh
ln -sf "$(command -v git)" nossh/git
PATH=$TRASH/nossh "$LORE_AM" -m ed.mbox <ed/0002-*.patch >ed.out 2>ed.err
rc=$?
is "$rc $(signed ed) $(grep -c 'ssh-keygen not found on PATH' ed.err)" "0 0 1" \
	"no ssh-keygen: not checked, one warning"
grep -q '^  openssh/pat@example.com not checked: ssh-keygen missing$' ed.err
ok $? "... and the summary says why the signatures were not checked"

is "$(find "$TMPDIR" -mindepth 1 | wc -l)" 0 "no scratch file left in TMPDIR"
done_testing
