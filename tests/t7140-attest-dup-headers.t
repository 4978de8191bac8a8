#!/bin/bash
# A field RFC 5322 allows once, added above the signed one (RFC 6376 8.15):
# DKIM and patatt check the last instance, the am-ready patch takes the
# first, so a forged From: or Subject: on top of a real signature would be
# applied as signed. Such a second field fails the signature unless the
# signature covers every instance (h= names the field as many times), for
# patches and for the replies whose trailers are added, under every
# policy. A mail with two Message-ID: fields is still found under its
# first, as git and patchwork take it.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"
. "$TEST_DIR/lib-index.sh"

command -v patatt >/dev/null || skip_all "patatt not installed"
dkim_setup
plan 32

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p"
dns_start || exit 1

# forge FILE FIELD: FIELD added on top of FILE's header (below its From_
# line), where a forger puts it
forge() {
	_f=$1 _h=$2
	awk -v h="$_h" 'NR == 1 && /^From / { print; print h; next }
		NR == 1 { print h } { print }' "$_f" >"$_f.new" && mv "$_f.new" "$_f"
}
dsigned() { grep -c '✓ Signed: DKIM/example.org$' "$1.err"; }
MALLORY='From: Mallory Forger <mallory@example.org>'
EVIL='Subject: [PATCH 2/3] part: add a back door'
p2='\[PATCH 2/3\] part: add piece 2'

# policies NAME WHO WHY: NAME's series (its patch 2 forged) under each
# policy; the signature WHO fails with WHY, the patch named by its own
# subject, the one the am-ready patch takes
policies() {
	_n=$1 _who=$2 _why=$3 _subj=${4:-$p2}
	git config --global lore-am.attestation-policy off
	am "$_n"
	is "$rc $(sed '/^Gate /,/^---$/d' "$_n.err" | grep -c -e '✓' -e '✗') $(grep -c '^From ' "$_n.out")" \
		"0 0 3" "$_n, off: nothing checked, written"
	git config --global lore-am.attestation-policy check
	am "$_n"
	is "$rc $(grep -c "^    ✗ BADSIG: $_who ($_why)$" "$_n.err") $(grep -c "✓ Signed: $_who" "$_n.err") $(grep -c '^From ' "$_n.out")" \
		"0 1 2 3" "$_n, check: BADSIG naming the second field, not ✓"
	git config --global lore-am.attestation-policy softfail
	am "$_n" -q
	is "$rc $(wc -l <"$_n.err") $(grep -c '^From ' "$_n.out")" "0 1 3" \
		"$_n, softfail -q: one line, written"
	grep -q "^lore-am: $_subj: ✗ BADSIG: $_who ($_why)$" "$_n.err"
	ok $? "$_n, softfail -q: the line names the patch and the field"
	git config --global lore-am.attestation-policy hardfail
	am "$_n"
	is "$rc $(wc -c <"$_n.out")" "1 0" "$_n, hardfail: exit 1, nothing written"
	grep -q "^lore-am: $_subj: ✗ BADSIG: $_who ($_why): nothing written (attestation-policy hardfail)$" "$_n.err"
	ok $? "$_n, hardfail: the error line names the patch and the field"
	git config --global --unset lore-am.attestation-policy
}

# DKIM: a forged From: on top of a patch signed by example.org
mkdir dfrom && cp p/*.patch dfrom/ && dkim_sign rsa - dfrom/*.patch
am dfrom
is "$rc $(dsigned dfrom)" "0 3" "the signed series: three ✓"
forge dfrom/0002-*.patch "$MALLORY"
policies dfrom DKIM/example.org "a second From: header that the signature does not cover"

# a forged Subject:
mkdir dsubj && cp p/*.patch dsubj/ && dkim_sign rsa - dsubj/*.patch
forge dsubj/0002-*.patch "$EVIL"
policies dsubj DKIM/example.org "a second Subject: header that the signature does not cover" \
	'\[PATCH 2/3\] part: add a back door'

# signed over both instances (h= names from twice): the signer vouches for
# the two, and the signature holds
mkdir dboth && cp p/*.patch dboth/
forge dboth/0002-*.patch "$MALLORY"
dkim_sign rsa twice dboth/*.patch
git config --global lore-am.attestation-policy hardfail
am dboth
is "$rc $(dsigned dboth) $(grep -c '^From ' dboth.out)" "0 3 3" \
	"a second From: the signature covers: ✓, written under hardfail"
git config --global --unset lore-am.attestation-policy

# a reply's trailer: Mallory's reply, signed by her domain, gives Rita's
# Reviewed-by, and a From: naming Rita is put on top of hers
rev_reply() {
	mkdir -p "$1" && cp p/*.patch "$1/" && dkim_sign rsa - "$1"/*.patch
	reply "$1/9-reply.patch" "$1"/0002-*.patch "$2" "Looks right.

Reviewed-by: Rita Reviewer <rita@example.org>"
	sed -i "s/^Date: .*/Date: $(date -R)/" "$1/9-reply.patch"
	dkim_sign rsa - "$1/9-reply.patch"
}
rev_reply drev "Rita Reviewer <rita@example.org>"
am drev
grep -q '^    + Reviewed-by: Rita Reviewer <rita@example.org> (✓ DKIM/example.org)$' drev.err
ok $? "Rita's own signed reply: its trailer marked ✓"
rev_reply dforged "Mallory Forger <mallory@example.org>"
forge dforged/9-reply.patch "From: Rita Reviewer <rita@example.org>"
am dforged
grep -q '^    + Reviewed-by: Rita Reviewer <rita@example.org> (✗ DKIM/example.org)$' dforged.err
ok $? "Mallory's reply under a forged From: the trailer marked ✗"
git config --global lore-am.attestation-policy hardfail
am dforged
is "$rc $(wc -c <dforged.out)" "1 0" "hardfail: the forged reply writes nothing"
grep -q "^lore-am: $p2: Reviewed-by: Rita Reviewer <rita@example.org>: ✗ BADSIG: DKIM/example.org (a second From: header that the signature does not cover): nothing written" dforged.err
ok $? "hardfail: the error line names the trailer and the field"
git config --global --unset lore-am.attestation-policy

# patatt: an ed25519 developer signature, its key in a keyring folder
export XDG_DATA_HOME=$TRASH/data
git config --global user.email pat@example.com
patatt genkey -n k1 >genkey.out 2>&1
mkdir -p keys/ed25519/example.com/pat
cp "$XDG_DATA_HOME/patatt/public/k1.pub" keys/ed25519/example.com/pat/k1
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
git config --global patatt.keyringsrc "$TRASH/keys"
mkdir pfrom && cp p/*.patch pfrom/ && patatt sign pfrom/*.patch >pfrom.sign 2>&1
am pfrom
is "$rc $(grep -c '✓ Signed: ed25519/pat@example.com$' pfrom.err)" "0 3" \
	"the patatt-signed series: three ✓"
forge pfrom/0002-*.patch "$MALLORY"
policies pfrom ed25519/pat@example.com "a second From: header that the signature does not cover"

# two Message-ID: fields on a signed patch, the first added: a failure too
mkdir dmid && cp p/*.patch dmid/ && dkim_sign rsa - dmid/*.patch
forge dmid/0002-*.patch "Message-ID: <forged@example.org>"
am dmid
grep -q "^    ✗ BADSIG: DKIM/example.org (a second Message-ID: header that the signature does not cover)$" dmid.err
ok $? "a second Message-ID: on a signed patch: BADSIG"

# unsigned mail with two Message-ID: fields, the second garbled: found
# under the first, piped and as an argument, in an mbox and in an indexed
# maildir
mkdir mid2 && cp p/*.patch mid2/
id2=$(msgid_of p/0002-*.patch)
sed -i '/^Message-I[dD]: /a Message-ID: <garbled@@ no end' mid2/0002-*.patch
is "$(grep -ci '^Message-ID:' mid2/0002-*.patch)" 2 "the patch has two Message-ID fields"
to_mbox mid2.mbox mid2/*.patch
mkdir -p md/cur md/new md/tmp
i=0
for f in mid2/*.patch; do
	i=$((i + 1)); sed 1d "$f" >"md/cur/$i.test:2,S"
done
for src in mid2.mbox md; do
	"$LORE_AM" -m "$src" <mid2/0002-*.patch >mid.out 2>mid.err
	is "$? $(grep -c '^From ' mid.out) $(grep -c "^Message-Id: <$id2>$" mid.out)" "0 3 1" \
		"-m $src, piped: the thread is found under the first id"
	"$LORE_AM" -m "$src" "$id2" >mid.out 2>mid.err
	is "$? $(grep -c '^From ' mid.out)" "0 3" "-m $src, the first id as argument: found"
done
test -s "$(idx_db md)"
ok $? "the maildir was looked up through its index"
