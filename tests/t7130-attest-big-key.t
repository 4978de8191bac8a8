#!/bin/bash
# DKIM keys in large TXT records, served over TCP by a real dnsmasq on
# 127.0.0.1 (a record past 512 bytes does not fit a UDP answer): anyone may
# publish one for their own domain and sign a patch or a reply with it.
# A record of any size DNS carries is read whole, never past the answer;
# one whose key is too large for libopendkim fails that one signature,
# with a note naming the key, and the policy decides the rest.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

dkim_setup
plan 17

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p"

# pad N CHAR: N times CHAR
pad() { head -c "$1" /dev/zero | tr '\0' "$2"; }
KEY=$(cat "$D/rsa.pub")
# big: a 30 000-byte key, more than any DKIM verifier takes;
# notes, notes60: the test's real key after 30 000 and 60 000 bytes of
# notes (n=, which no program reads) and white space between the tags
dns_start \
	"$(dns_txt big._domainkey.example.org "v=DKIM1; k=rsa; p=$(pad 30000 A)")" \
	"$(dns_txt notes._domainkey.example.org "v=DKIM1; n=$(pad 30000 x);$(pad 300 ' ')k=rsa; p=$KEY")" \
	"$(dns_txt notes60._domainkey.example.org "v=DKIM1; k=rsa; n=$(pad 60000 y); p=$KEY")" ||
	exit 1

# signed SELECTOR NAME: the three patches in NAME/, signed with the test's
# RSA key under SELECTOR
signed() {
	mkdir -p "$2"
	cp p/*.patch "$2/"
	dkim_sign "rsa:$1" - "$2"/*.patch
}
good() { grep -c '✓ Signed: DKIM/example.org$' "$1.err"; }
BIG='✗ No key: DKIM/example.org (the key record at big._domainkey.example.org is too large:'

signed big big
am big
is "$rc $(grep -c "^    $BIG" big.err) $(grep -c '^From ' big.out)" "0 3 3" \
	"a 30 KB key record: no crash; softfail writes the series"
# "v=DKIM1; k=rsa; p=" and 30 000 bytes
grep -q "^    $BIG 30018 bytes, libopendkim takes 1024 at most)$" big.err
ok $? "the note names the key record and its size"
grep -q 'query\[TXT\] big._domainkey.example.org' "$D/dns.log"
ok $? "the record was asked for"
git config --global lore-am.attestation-policy hardfail
am big
is "$rc $(wc -c <big.out)" "1 0" "hardfail: exit 1, nothing written"
grep -q "^lore-am: \[PATCH 1/3\] part: add piece 1: $BIG .*: nothing written (attestation-policy hardfail)$" big.err
ok $? "hardfail: the error line names the patch and the key"
git config --global lore-am.attestation-policy check
am big -q
is "$rc $(wc -c <big.err) $(grep -c '^From ' big.out)" "0 0 3" \
	"check, -q: written, nothing said"
git config --global --unset lore-am.attestation-policy

# the mail filter: whatever the key, the mail goes on to the mailbox
mkdir -p pt
for policy in softfail hardfail; do
	git config --global lore-am.attestation-policy $policy
	"$LORE_AM" --passthrough -o pt -m big.mbox <big/0002-*.patch \
		>pt.out 2>pt.err
	rc=$?
	cmp -s pt.out big/0002-*.patch
	is "$rc $?" "0 0" "--passthrough, $policy: the mail is copied whole"
done
git config --global --unset lore-am.attestation-policy

# one signed reply is enough: its trailer is checked too
mkdir -p rev
cp p/*.patch rev/
dkim_sign rsa - rev/*.patch
reply rev/9-reply.patch rev/0002-*.patch "Rita Reviewer <rita@example.org>" \
	"Looks right.

Reviewed-by: Rita Reviewer <rita@example.org>"
sed -i "s/^Date: .*/Date: $(date -R)/" rev/9-reply.patch
dkim_sign rsa:big - rev/9-reply.patch
am rev
is "$rc $(good rev)" "0 3" "a reply signed with the big key: the patches hold"
grep -q '^    + Reviewed-by: Rita Reviewer <rita@example.org> (✗ DKIM/example.org)$' rev.err
ok $? "the reply's trailer is marked ✗"
git config --global lore-am.attestation-policy hardfail
am rev
is "$rc $(wc -c <rev.out)" "1 0" "hardfail: the reply's key writes nothing"
grep -q "^lore-am: \[PATCH 2/3\] part: add piece 2: Reviewed-by: Rita Reviewer <rita@example.org>: $BIG" rev.err
ok $? "hardfail: the error line names the trailer and the key"
git config --global --unset lore-am.attestation-policy

# a record of 30 KB and one of 60 KB, read whole: the key in them holds
signed notes notes
am notes
is "$rc $(good notes) $(failed notes)" "0 3 0" \
	"a 30 KB record with the key after notes and spaces: three ✓"
signed notes60 notes60
am notes60
is "$rc $(good notes60) $(failed notes60)" "0 3 0" \
	"a 60 KB record (near the most DNS carries): three ✓"
git config --global lore-am.attestation-policy hardfail
am notes60
is "$rc $(good notes60)" "0 3" "hardfail: a large record that holds is written"
git config --global --unset lore-am.attestation-policy
is "$(grep -c 'query\[TXT\] notes60._domainkey' "$D/dns.log")" 4 \
	"each key asked for once a run (over UDP, then TCP)"

# the usual record is still asked once, over UDP alone
mkdir small && cp p/*.patch small/ && dkim_sign rsa - small/*.patch
n0=$(grep -c 'query\[TXT\] rsa._domainkey' "$D/dns.log")
am small
is "$rc $(good small) $(( $(grep -c 'query\[TXT\] rsa._domainkey' "$D/dns.log") - n0 ))" \
	"0 3 1" "a small record: one query"
