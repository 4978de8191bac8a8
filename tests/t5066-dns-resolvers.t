#!/bin/bash
# attestation-dns-resolvers (b4's, lore-am.* or b4.*): a list of DNS
# servers for the DKIM keys, tried in order. Two real dnsmasq on
# 127.0.0.1: the first down, the second answers; both up, only the first
# is asked; all down, the run goes on and says so; a bad entry is one line.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

dkim_setup
plan 10

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
mkdir good && cp p/*.patch good/ && dkim_sign rsa - good/*.patch
udp_port() {
	"$DKIM_PY" -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
dns_start || exit 1
unset LORE_AM_NAMESERVER
ONE=127.0.0.1:$DNS_PORT
for _try in 1 2 3 4 5; do
	P2=$(udp_port)
	dns_serve 127.0.0.1 "$P2" "$D/dns2.log" && break
done
kill -0 "$DNS_SERVED" 2>/dev/null || exit 1
TWO_PID=$DNS_SERVED
at_exit "kill $TWO_PID 2>/dev/null; wait $TWO_PID 2>/dev/null"
TWO=127.0.0.1:$P2
DOWN=127.0.0.1:$(udp_port)
q2() { grep -c 'query\[TXT\]' "$D/dns2.log"; }
signed() { grep -c '✓ Signed: DKIM/example.org' "$1.err"; }

git config --global lore-am.attestation-dns-resolvers "$DOWN $TWO"
cp -r good down1 && am down1
is "$rc:$(signed down1):$(q2)" "0:3:1" "the first resolver down: the second answers, every patch checked"

git config --global lore-am.attestation-dns-resolvers "$ONE,$TWO"
n1=$(dns_queries)
cp -r good both && am both
is "$rc:$(signed both):$(q2):$(($(dns_queries) - n1))" "0:3:1:1" \
	"both up: only the first is asked"

git config --global --unset lore-am.attestation-dns-resolvers
git config --global b4.attestation-dns-resolvers "$DOWN, $TWO"
cp -r good b4key && am b4key
is "$rc:$(signed b4key):$(q2)" "0:3:2" "b4.attestation-dns-resolvers: the same list, b4's key"
git config --global --unset b4.attestation-dns-resolvers

git config --global lore-am.attestation-dns-resolvers "$DOWN 127.0.0.1:$(udp_port)"
start=$(date +%s)
cp -r good alldown && am alldown
is "$rc:$(signed alldown)" "0:0" "all resolvers down: the series still written, unsigned"
check "... said" grep -q '✗ No key: DKIM/example.org (DNS did not answer)' "$TRASH/alldown.err"
check "... quickly (within the run's few seconds)" test $(($(date +%s) - start)) -lt 10

git config --global lore-am.nameserver "$TWO"
git config --global lore-am.attestation-dns-resolvers "$DOWN"
cp -r good ns && am ns
is "$rc:$(signed ns)" "0:3" "lore-am.nameserver, when set, comes first"
git config --global --unset lore-am.nameserver

git config --global lore-am.attestation-dns-resolvers "$TWO not-an-address"
cp -r good bad && am bad
is "$rc:$(wc -c <bad.out)" "2:0" "a bad entry: exit 2, nothing written"
check "... one line naming it" grep -qx "lore-am: nameserver 'not-an-address' is not IPV4-ADDRESS\[:PORT\] or \[IPV6-ADDRESS\]:PORT" "$TRASH/bad.err"
git config --global lore-am.attestation-dns-resolvers "1.2.3.4 5.6.7.8 1.1.1.1 2.2.2.2 3.3.3.3 4.4.4.4 5.5.5.5 6.6.6.6 7.7.7.7"
cp -r good many && am many
check "nine resolvers: more than lore-am asks, refused" grep -q "more than 8 nameservers listed" "$TRASH/many.err"
