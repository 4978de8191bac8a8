#!/bin/bash
# DKIM attestation: a series whose patches are signed in the test (dkimpy,
# RSA and ed25519), the keys served by a real dnsmasq on 127.0.0.1. The
# summary shows one line per signature, the policy decides what a failure
# does, and each distinct key is asked for once a run.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

dkim_setup
plan 47

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 5 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
dns_start || exit 1

# series NAME: a copy of the five patches and cover in NAME/, each signed
series() {
	mkdir -p "$1"
	cp p/*.patch "$1/"
	dkim_sign rsa - "$1"/*.patch
}
signed() { grep -c '✓ Signed: DKIM/example.org' "$1.err"; }

series good
am good
is "$rc $(signed good) $(failed good)" "0 5 0" "five good RSA signatures: five ✓ lines"
is "$(dns_queries)" 1 "one DNS query for the one selector of five patches"
apply_into "$TRASH/good.out" "$TRASH/am-good" >/dev/null 2>&1
is "$(git -C am-good rev-list --count base..HEAD)" 5 "the output applies with git am"

# ed25519-sha256 (RFC 8463)
mkdir ed && cp p/*.patch ed/
dkim_sign ed - ed/*.patch
am ed
is "$rc $(grep -c '✓ Signed: DKIM/example.net' ed.err) $(failed ed)" "0 5 0" \
	"ed25519-sha256 signatures hold"

# unsigned: no line at all, and no DNS query
n0=$(dns_queries)
mkdir plain && cp p/*.patch plain/
am plain
is "$rc $(grep -c 'DKIM' plain.err)" "0 0" "an unsigned series: no DKIM line"
is "$(dns_queries)" "$n0" "an unsigned series asks DNS nothing"

# the body of patch 3 changed after signing
series body
sed -i 's/^+content 3 of part$/+content 3 of part, changed/' body/0003-*.patch
grep -q 'changed' body/0003-*.patch || echo "# the tampering did not apply"
am body
is "$rc $(signed body) $(grep -c '✗ BADSIG: DKIM/example.org' body.err)" "0 4 1" \
	"body changed after signing: one BADSIG, softfail goes on"
grep -B3 '✗ BADSIG' body.err | grep -q 'PATCH 3/5'
ok $? "the BADSIG line is under patch 3's subject"
test -s body.out
ok $? "softfail (the default) writes the series"

# a signed header (Subject, in h=) changed
series hdr
sed -i 's/^Subject: \[PATCH 4\/5\] part: add piece 4/Subject: [PATCH 4\/5] part: add piece 4 (edited)/' hdr/0004-*.patch
grep -q 'edited' hdr/0004-*.patch || echo "# the tampering did not apply"
am hdr
is "$rc $(signed hdr) $(grep -c '✗ BADSIG: DKIM/example.org' hdr.err)" "0 4 1" \
	"a signed header changed: BADSIG"

# a key not in DNS
mkdir nokey && cp p/*.patch nokey/
dkim_sign nokey - nokey/*.patch
am nokey
is "$rc $(grep -c '✗ No key: DKIM/example.org (no key in DNS)' nokey.err)" "0 5" \
	"a selector not in DNS: No key, softfail goes on"

# l= covers the body as signed; text appended after it is not signed
mkdir len && cp p/*.patch len/
dkim_sign rsa length len/*.patch
am len
is "$rc $(signed len) $(failed len)" "0 5 0" "l= covering the whole body holds"
printf '\n+appended after signing\n' >>len/0005-*.patch
am len
is "$rc $(signed len)" "0 4" "l= with text appended: no longer a pass"
grep -q '✗ BADSIG: DKIM/example.org (text after the l= length is not signed)' len.err
ok $? "l= with text appended: BADSIG naming why"

# a signature made long after the mail's Date (b4's staleness rule)
mkdir old && cp p/*.patch old/
sed -i 's/^Date: .*/Date: Mon, 1 Jan 2018 10:00:00 +0000/' old/0004-*.patch
dkim_sign rsa - old/*.patch
am old
is "$rc $(signed old) $(grep -c '✗ BADSIG: DKIM/example.org (signed too long before or after its Date)' old.err)" \
	"0 4 1" "signed years after its Date: BADSIG"
git config --global b4.attestation-staleness-days 5000
am old
is "$rc $(signed old)" "0 5" "b4.attestation-staleness-days is read"
git config --global lore-am.attestation-staleness-days 0
am old
is "$rc $(signed old)" "0 5" "attestation-staleness-days 0: the age is not checked"
git config --global lore-am.attestation-staleness-days soon
am old
is "$rc $(wc -c <old.out) $(grep -c "^lore-am: attestation-staleness-days 'soon' is not a number of days$" old.err)" \
	"2 0 1" "a bad attestation-staleness-days: usage error naming it"
git config --global --unset lore-am.attestation-staleness-days
git config --global --unset b4.attestation-staleness-days

# the policies, on one tampered patch of five
policy_checks DKIM/example.org
am body -q
is "$rc $(wc -l <body.err)" "1 1" "hardfail, -q: the one error line"
am good
is "$rc $(signed good)" "0 5" "hardfail: a good series is written"
mkdir -p outd
am body -o outd
is "$rc $(ls outd | wc -l)" "1 0" "hardfail with -o: no file written"
am body --no-attestation
is "$rc $(grep -c DKIM body.err)" "0 0" "--no-attestation: nothing checked, written"
git config --global b4.attestation-check-dkim no
am body
is "$rc $(grep -c DKIM body.err)" "0 0" "b4.attestation-check-dkim = no: DKIM not looked at, written"
git config --global lore-am.attestation-check-dkim yes
am body
is "$rc" 1 "lore-am.attestation-check-dkim = yes wins over b4's: checked"
git config --global --unset lore-am.attestation-check-dkim
git config --global --unset b4.attestation-check-dkim
am plain
is "$rc" 0 "hardfail: an unsigned series is not a failure"
git config --global --unset lore-am.attestation-policy
git config --global b4.attestation-policy hardfail
am body
is "$rc" 1 "b4.attestation-policy is read"
git config --global lore-am.attestation-policy off
am body
is "$rc $(grep -c DKIM body.err)" "0 0" "lore-am.attestation-policy wins over b4's; off"
git config --global lore-am.attestation-policy sometimes
am good
is "$rc $(wc -c <good.out)" "2 0" "an unknown policy: usage error"
grep -q "^lore-am: attestation-policy 'sometimes' is not off, check, softfail or hardfail$" good.err
ok $? "an unknown policy: the error names it"
git config --global --unset lore-am.attestation-policy
git config --global --unset b4.attestation-policy

LORE_AM_NAMESERVER=localhost am good
is "$rc $(wc -c <good.out)" "2 0" "a bad LORE_AM_NAMESERVER: usage error"
grep -q "^lore-am: nameserver 'localhost' is not IPV4-ADDRESS\[:PORT\] or \[IPV6-ADDRESS\]:PORT$" good.err
ok $? "a bad LORE_AM_NAMESERVER: the error names it"

# --offline: no DNS, and it says so
n0=$(dns_queries)
am good --offline
is "$rc $(signed good) $(dns_queries)" "0 0 $n0" "--offline: no DNS query, no ✓"
grep -q 'DKIM not checked: --offline does no DNS' good.err
ok $? "--offline says DKIM was not checked"
git config --global lore-am.attestation-policy hardfail
am good --offline
is "$rc $(wc -c <good.out) $(grep -c 'DKIM not checked (--offline does no DNS): nothing written' good.err)" \
	"1 0 1" "hardfail, --offline: a signed series is not written"
git config --global --unset lore-am.attestation-policy

# the mail filter's status header
status_header good pass
ok $? "--status-header: attestation=pass"
status_header body fail
ok $? "--status-header: attestation=fail"
status_header plain none
ok $? "--status-header: attestation=none"

# the DNS server down: softfail goes on, in bounded time. Times are
# compared with the same run while the server answers (valgrind slows
# every run down; only the wait for DNS may be added).
now() { date +%s%N | cut -c1-13; } # milliseconds
series down
t0=$(now); am down; t1=$(now)
base=$((t1 - t0)) full=$(wc -c <down.out | tr -d ' ')
dns_stop
t0=$(now); am down; t1=$(now)
is "$rc $(grep -c '✗ No key: DKIM/example.org (DNS did not answer)' down.err)" "0 5" \
	"DNS down: No key, softfail writes the series"
ok $(( t1 - t0 - base > 3000 )) "DNS down: $((t1 - t0)) ms, $base ms with DNS up"

# a server that takes the queries and never answers: one wait, not five
"$DKIM_PY" -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1], flush=True)
time.sleep(120)' >mute.port &
MUTE_PID=$!
at_exit "kill $MUTE_PID 2>/dev/null"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s mute.port ] && break; sleep 0.2; done
t0=$(now)
LORE_AM_NAMESERVER=127.0.0.1:$(cat mute.port) am down
t1=$(now)
is "$rc $(grep -c '✗ No key' down.err) $(wc -c <down.out | tr -d ' ')" \
	"0 5 $full" "a silent server: softfail writes the series"
# one wait of 2 s, not five: under 4.5 s more than with the server up
ok $(( t1 - t0 - base > 4500 )) \
	"a silent server costs one wait: $((t1 - t0)) ms for five patches, $base ms with DNS up"
kill "$MUTE_PID"
