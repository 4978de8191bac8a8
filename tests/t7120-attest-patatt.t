#!/bin/bash
# Developer signatures (patatt): a series signed in the test with Debian's
# patatt, an ed25519 key made with `patatt genkey` and an OpenPGP key made
# in a GnuPG home of the test; the public keys in the keyrings patatt reads
# (a folder named by patatt.keyringsrc, a ref: keyring of a git repository,
# patatt's own data folder). The summary shows one line per signature and
# the attestation policy decides what a failure does.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

command -v patatt >/dev/null || skip_all "patatt not installed"
command -v gpg >/dev/null || skip_all "gpg (gnupg) not installed"
dkim_setup
plan 48

cd "$TRASH" || exit 1
export XDG_DATA_HOME=$TRASH/data
# lore-am's scratch folders go here: the test checks none is left behind
export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
series_repo "$TRASH/repo" 5 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter

# the sender's ed25519 key; patatt genkey also puts the public key in its
# own keyring ($XDG_DATA_HOME/patatt/public), set aside here so that each
# case says where the key is
git config --global user.email pat@example.com
patatt genkey -n k1 >genkey.out 2>&1
PUB=$XDG_DATA_HOME/patatt/public
test -s "$PUB/k1.pub"
ok $? "patatt genkey made a key"
mv "$PUB/ed25519" "$TRASH/genkey-ring"
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
KEYPATH=ed25519/example.com/pat/k1

# series NAME: a copy of the five patches and the cover in NAME/, signed
series() {
	mkdir -p "$1"
	cp p/*.patch "$1/"
	patatt sign "$1"/*.patch >"$1.sign" 2>&1
}
signed() { grep -c '✓ Signed: ed25519/pat@example.com$' "$1.err"; }

series good
grep -q '^X-Developer-Signature: v=1; a=ed25519-sha256' good/0003-*.patch
ok $? "patatt signed the patches"

# no key anywhere: b4's rule, a missing developer key is shown, not fatal
am good
is "$rc $(signed good) $(grep -c '✗ No key: ed25519/pat@example.com (no key in the keyring)' good.err)" \
	"0 0 5" "no key in any keyring: five No key lines, written"
git config --global lore-am.attestation-policy hardfail
am good
is "$rc $(grep -c '✗ No key' good.err) $(test -s good.out && echo written)" \
	"0 5 written" "hardfail: a key missing is not a failure (as in b4)"
git config --global --unset lore-am.attestation-policy

# patatt's own keyring, where genkey puts the key
mkdir -p "$PUB" && cp -a "$TRASH/genkey-ring" "$PUB/ed25519"
am good
is "$rc $(signed good) $(failed good)" "0 5 0" \
	"the key in \$XDG_DATA_HOME/patatt/public: five ✓ lines"
apply_into "$TRASH/good.out" "$TRASH/am-good" >/dev/null 2>&1
is "$(git -C am-good rev-list --count base..HEAD)" 5 "the output applies with git am"
rm -rf "$PUB/ed25519"

# a folder named by patatt.keyringsrc
mkdir -p "keys/${KEYPATH%/*}"
cp "$PUB/k1.pub" "keys/$KEYPATH"
git config --global patatt.keyringsrc "$TRASH/keys"
am good
is "$rc $(signed good) $(failed good)" "0 5 0" "a keyringsrc folder: five ✓ lines"
git config --global --unset patatt.keyringsrc
git config --global patatt.keyringsrc '$HOME/../keys'
am good
is "$rc $(signed good)" "0 5" "a keyringsrc folder with \$HOME in it"
git config --global --unset patatt.keyringsrc

# the current repository's .keys tree (patatt's default ref:::.keys)
git init -q kr && mkdir -p "kr/.keys/${KEYPATH%/*}"
cp "$PUB/k1.pub" "kr/.keys/$KEYPATH"
git -C kr add .keys && git -C kr commit -q -m keys
(cd kr && to_mbox ../good.mbox ../good/*.patch &&
 "$LORE_AM" -m ../good.mbox <../good/0002-*.patch >../kr.out 2>../kr.err)
is "$? $(signed kr)" "0 5" "ref:::.keys of the current repository: five ✓ lines"
am good
is "$(signed good)" 0 "outside that repository its .keys is not read"
# a named repository and branch: ref:REPO:REF:SUBPATH
git -C kr checkout -q -b keyring && git -C kr mv .keys pub &&
	git -C kr commit -q -m moved && git -C kr checkout -q -
git config --global patatt.keyringsrc "ref:$TRASH/kr:refs/heads/keyring:pub"
am good
is "$rc $(signed good)" "0 5" "ref:REPO:REF:SUBPATH keyring: five ✓ lines"
git config --global --unset patatt.keyringsrc
git config --global patatt.keyringsrc "$TRASH/keys"

# the body of patch 3 changed after signing
series body
sed -i 's/^+content 3 of part$/+content 3 of part, changed/' body/0003-*.patch
grep -q 'changed' body/0003-*.patch || echo "# the tampering did not apply"
am body
is "$rc $(signed body) $(grep -c '✗ BADSIG: ed25519/pat@example.com (the body changed after signing)' body.err)" \
	"0 4 1" "body changed after signing: one BADSIG, softfail goes on"
grep -B3 '✗ BADSIG' body.err | grep -q 'PATCH 3/5'
ok $? "the BADSIG line is under patch 3's subject"

# a scissors line: git am (and lore-am's own reading) drop the text above
# it, patatt signs it all (git mailinfo --no-scissors): asked again on
# git's reading, the signature holds
mkdir scis && cp p/*.patch scis/
sed -i '0,/^This adds piece 2/s//Notes for the list.\n-- >8 --\nThis adds piece 2/' scis/0002-*.patch
grep -q '^-- >8 --$' scis/0002-*.patch || echo "# the scissors line is missing"
patatt sign scis/*.patch >scis.sign 2>&1
am scis
is "$rc $(signed scis) $(failed scis)" "0 5 0" \
	"a scissors line in a signed patch: the signature holds"

# a signed header (Subject) changed
series hdr
sed -i 's/^Subject: \[PATCH 4\/5\] part: add piece 4/&, edited/' hdr/0004-*.patch
grep -q 'edited' hdr/0004-*.patch || echo "# the tampering did not apply"
am hdr
is "$rc $(signed hdr) $(grep -c '✗ BADSIG: ed25519/pat@example.com (the signature does not match)' hdr.err)" \
	"0 4 1" "a signed header changed: BADSIG"

# another key at the signer's place in the keyring
patatt genkey -n k2 >>genkey.out 2>&1
cp "$PUB/k2.pub" "keys/$KEYPATH"
am good
is "$rc $(signed good) $(grep -c '✗ BADSIG: ed25519/pat@example.com' good.err)" \
	"0 0 5" "a key that did not sign: BADSIG"
cp "$PUB/k1.pub" "keys/$KEYPATH"

# l= covers the body as signed; text appended after it is not signed
series len
printf '+appended after signing\n' >>len/0005-*.patch
am len
is "$rc $(signed len) $(grep -c '✗ BADSIG: ed25519/pat@example.com (text after the l= length is not signed)' len.err)" \
	"0 4 1" "text appended after l=: BADSIG naming why"

# the policies, on one tampered patch of five
policy_checks ed25519/pat@example.com
mkdir -p outd
am body -o outd
is "$rc $(ls outd | wc -l)" "1 0" "hardfail with -o: no file written"
am good
is "$rc $(signed good)" "0 5" "hardfail: a good series is written"

# no DKIM signature: the nameserver is never asked, a bad one is no error
LORE_AM_NAMESERVER=localhost am good
is "$rc $(signed good)" "0 5" "a bad LORE_AM_NAMESERVER, no DKIM signature: no error"

# --offline: a developer signature needs no network, it is still checked
am good --offline
is "$rc $(signed good) $(grep -c 'not checked' good.err)" "0 5 0" \
	"--offline: patatt signatures still checked"
git config --global --unset lore-am.attestation-policy

# a reviewer's signed reply: its trailer is added with the reply's mark,
# and a reply whose signature fails is a failure like a patch's (b4)
rev_reply() {
	mkdir -p "$1"
	cp good/*.patch "$1/"
	reply "$1/9-reply.patch" good/0002-*.patch "Rita Reviewer <rita@example.com>" \
		"Looks right.

Reviewed-by: Rita Reviewer <rita@example.com>"
	# dated now: a signature long after the Date would be stale
	sed -i "s/^Date: .*/Date: $(date -R)/" "$1/9-reply.patch"
	patatt sign "$1/9-reply.patch" >/dev/null 2>&1
}
git config --global user.email rita@example.com
patatt genkey -n r1 >>genkey.out 2>&1
git config --global patatt.signingkey ed25519:r1
git config --global patatt.selector r1
mkdir -p keys/ed25519/example.com/rita
cp "$PUB/r1.pub" keys/ed25519/example.com/rita/r1
rev_reply rev
git config --global user.email pat@example.com
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
am rev
grep -q '^    + Reviewed-by: Rita Reviewer <rita@example.com> (✓ ed25519/rita@example.com)$' rev.err
ok $? "a trailer from a signed reply: the reply's ✓ on its line"
sed -i 's/^Looks right\.$/Looks wrong./' rev/9-reply.patch
am rev
is "$rc $(grep -c '^    + Reviewed-by: Rita Reviewer <rita@example.com> (✗ ed25519/rita@example.com)$' rev.err)" \
	"0 1" "a reply changed after signing: ✗ on the trailer's line, softfail goes on"
mv keys/ed25519/example.com/rita/r1 rita.pub
XDG_DATA_HOME=$TRASH/nowhere am rev
is "$rc $(grep -c '^    + Reviewed-by: Rita Reviewer <rita@example.com>$' rev.err)" \
	"0 1" "a reply whose key no keyring has: no mark"
mv rita.pub keys/ed25519/example.com/rita/r1
git config --global lore-am.attestation-policy hardfail
am rev
is "$rc $(wc -c <rev.out)" "1 0" "hardfail: a reply's bad signature writes nothing"
grep -q '^lore-am: \[PATCH 2/5\] part: add piece 2: Reviewed-by: Rita Reviewer <rita@example.com>: ✗ BADSIG: ed25519/rita@example.com (the body changed after signing): nothing written' rev.err
ok $? "hardfail: the error line names the patch and the trailer"
git config --global --unset lore-am.attestation-policy

# patatt and DKIM on one mail: both shown
dns_start || exit 1
series both
dkim_sign rsa - both/*.patch
am both
is "$rc $(signed both) $(grep -c '✓ Signed: DKIM/example.org$' both.err) $(failed both)" \
	"0 5 5 0" "patatt and DKIM on one mail: both ✓"
am both --offline
is "$rc $(signed both) $(grep -c 'DKIM not checked: --offline does no DNS' both.err)" \
	"0 5 1" "--offline: patatt checked, DKIM said not checked"
# the DKIM keys from a server on IPv6 loopback: LORE_AM_NAMESERVER=[::1]:PORT
P6=$("$DKIM_PY" -c 'import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("::1", 0)); print(s.getsockname()[1])' 2>/dev/null)
if [ -z "$P6" ]; then
	skip "no IPv6 loopback here"
	skip "no IPv6 loopback here"
else
	dns_serve ::1 "$P6" "$D/dns6.log" ||
		echo "# dnsmasq on ::1 would not start: $(cat "$D/dns6.log.err")"
	DNS6_PID=$DNS_SERVED
	at_exit "kill $DNS6_PID 2>/dev/null; wait $DNS6_PID 2>/dev/null"
	LORE_AM_NAMESERVER="[::1]:$P6" am both
	is "$rc $(grep -c '✓ Signed: DKIM/example.org$' both.err)" "0 5" \
		"a nameserver on IPv6, [::1]:PORT: five DKIM ✓"
	is "$(grep -c 'query\[TXT\]' "$D/dns6.log")" 1 \
		"the IPv6 server was asked, once"
	kill "$DNS6_PID"; wait "$DNS6_PID" 2>/dev/null
fi
LORE_AM_NAMESERVER='[::1' am both
is "$rc $(wc -c <both.out) $(grep -c "^lore-am: nameserver '\[::1' is not IPV4-ADDRESS\[:PORT\] or \[IPV6-ADDRESS\]:PORT$" both.err)" \
	"2 0 1" "a bad IPv6 nameserver with a DKIM signature: usage error naming it"

status_header both pass
ok $? "--status-header: attestation=pass"
status_header body fail
ok $? "--status-header: a BADSIG is attestation=fail"

# OpenPGP: a key without passphrase in a GnuPG home of the test
export GNUPGHOME=$TRASH/gnupg
mkdir -m 700 "$GNUPGHOME"
at_exit "GNUPGHOME=$GNUPGHOME gpgconf --kill all 2>/dev/null"
gpg --batch --passphrase '' --quick-gen-key 'Pat Contributor <pat@example.com>' \
	ed25519 sign never >gpg.out 2>&1
FPR=$(gpg --batch --with-colons --list-keys pat@example.com | awk -F: '/^fpr/ {print $10; exit}')
test -n "$FPR"
ok $? "gpg made a key"
git config --global patatt.signingkey "openpgp:$FPR"
git config --global --unset patatt.selector
series pgp
grep -q 'a=openpgp-sha256' pgp/0003-*.patch
ok $? "patatt signed with OpenPGP"
pgp_signed() { grep -c '✓ Signed: openpgp/pat@example.com$' "$1.err"; }
am pgp
is "$rc $(pgp_signed pgp) $(failed pgp)" "0 5 0" \
	"OpenPGP, the key in GNUPGHOME: five ✓ lines"
series pgpbody
sed -i 's/^+content 3 of part$/+content 3 of part, changed/' pgpbody/0003-*.patch
am pgpbody
is "$rc $(pgp_signed pgpbody) $(grep -c '✗ BADSIG: openpgp/pat@example.com' pgpbody.err)" \
	"0 4 1" "OpenPGP, body changed: BADSIG"
mkdir -p "keys/openpgp/example.com/pat"
gpg --batch --armor --export "$FPR" >keys/openpgp/example.com/pat/default
mkdir -m 700 "$TRASH/gnupg-empty"
GNUPGHOME=$TRASH/gnupg-empty am pgp
is "$rc $(pgp_signed pgp) $(failed pgp)" "0 5 0" \
	"OpenPGP, the key from the keyring folder: five ✓ lines"
rm keys/openpgp/example.com/pat/default
GNUPGHOME=$TRASH/gnupg-empty am pgp
is "$rc $(grep -c '✗ No key: openpgp/pat@example.com' pgp.err)" "0 5" \
	"OpenPGP, no key anywhere: No key"
# a different OpenPGP key in the keyring at the signer's place
mkdir -m 700 "$TRASH/gnupg-other"
GNUPGHOME=$TRASH/gnupg-other gpg --batch --passphrase '' \
	--quick-gen-key 'Other <pat@example.com>' ed25519 sign never >gpg.out 2>&1
at_exit "GNUPGHOME=$TRASH/gnupg-other gpgconf --kill all 2>/dev/null"
GNUPGHOME=$TRASH/gnupg-other gpg --batch --armor --export pat@example.com \
	>keys/openpgp/example.com/pat/default
GNUPGHOME=$TRASH/gnupg-empty am pgp
is "$rc $(pgp_signed pgp) $(grep -c '✗ BADSIG: openpgp/pat@example.com' pgp.err)" \
	"0 0 5" "OpenPGP, another key in the keyring: BADSIG"

# nothing left behind: mailinfo's files, the GnuPG homes
is "$(find "$TMPDIR" -mindepth 1 | wc -l)" 0 "no scratch file left in TMPDIR"

# a mail whose signature field is garbage: a BADSIG, never a crash
rm keys/openpgp/example.com/pat/default
series junk
sed -i 's/^ b=.*/ b=!!!not-base64/' junk/0003-*.patch
am junk
is "$rc $(grep -c '✗ BADSIG: openpgp/pat@example.com' junk.err)" "0 1" \
	"a signature b= that is not base64: BADSIG"

done_testing
