# lib-dkim.sh - DKIM for tests: keys made here, mails signed with dkimpy
# (python3-dkim), and a real DNS server (dnsmasq) on 127.0.0.1 serving the
# public keys as TXT records. Source after lib.sh.

# dkim_setup: sets DKIM_PY, makes rsa.pem (selector "rsa", example.org)
# and ed.key (selector "ed", example.net) in $TRASH/dkim.
dkim_setup() {
	DKIM_PY=
	for _p in python3 /usr/bin/python3; do
		if "$_p" -c 'import dkim, nacl' 2>/dev/null; then
			DKIM_PY=$_p; break
		fi
	done
	[ -n "$DKIM_PY" ] || skip_all "python3-dkim (dkimpy) not installed"
	command -v openssl >/dev/null || skip_all "openssl not installed"
	DNSMASQ=$(command -v dnsmasq || echo /usr/sbin/dnsmasq)
	[ -x "$DNSMASQ" ] || skip_all "dnsmasq not installed"
	D=$TRASH/dkim
	mkdir -p "$D"
	openssl genrsa -out "$D/rsa.pem" 2048 2>/dev/null
	openssl rsa -in "$D/rsa.pem" -pubout -outform DER 2>/dev/null |
		base64 -w0 >"$D/rsa.pub"
	"$DKIM_PY" -c '
import sys, base64, nacl.signing
k = nacl.signing.SigningKey.generate()
open(sys.argv[1] + "/ed.key", "wb").write(base64.b64encode(bytes(k)))
open(sys.argv[1] + "/ed.pub", "wb").write(base64.b64encode(bytes(k.verify_key)))
' "$D"
	cat >"$D/sign.py" <<'PYEOF'
import sys, dkim
# sign.py KEY SELECTOR DOMAIN OPTS FILE...: each FILE signed in place; an
# mbox From_ line (git format-patch writes one) stays first
key, sel, dom = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
opts = sys.argv[4].split(',')
key = open(key, 'rb').read()
# "twice": h= names each field twice, which signs a second instance too
hdrs = [b'from', b'to', b'subject', b'date', b'message-id', b'in-reply-to',
        b'references']
for f in sys.argv[5:]:
    raw = open(f, 'rb').read()
    head = b''
    if raw.startswith(b'From '):
        head, raw = raw.split(b'\n', 1)
        head += b'\n'
    msg = raw.replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')
    sig = dkim.sign(msg, sel, dom, key,
                    canonicalize=(b'relaxed', b'simple'),
                    signature_algorithm=b'ed25519-sha256'
                    if 'ed25519' in opts else b'rsa-sha256',
                    length='length' in opts,
                    include_headers=hdrs * (2 if 'twice' in opts else 1))
    open(f, 'wb').write(head + (sig + msg).replace(b'\r\n', b'\n'))
PYEOF
}

# dkim_sign rsa|rsa:SELECTOR|ed|nokey OPTS FILE...: sign the FILEs in
# place (rsa:SELECTOR: the RSA key, under another selector of example.org);
# OPTS is "-", or "length" (an l= tag) and "twice" (h= names each field
# twice) separated by commas
dkim_sign() {
	_k=$1 _o=$2; shift 2
	case $_k in
	rsa) set -- "$D/rsa.pem" rsa example.org "$_o" "$@" ;;
	rsa:*) set -- "$D/rsa.pem" "${_k#rsa:}" example.org "$_o" "$@" ;;
	nokey) set -- "$D/rsa.pem" nokey example.org "$_o" "$@" ;;
	ed) set -- "$D/ed.key" ed example.net "ed25519,$_o" "$@" ;;
	esac
	"$DKIM_PY" "$D/sign.py" "$@"
}

# dns_txt NAME VALUE: the dnsmasq argument serving VALUE as the TXT record
# of NAME, cut into strings of 255 bytes (the most one holds); a record
# past 512 bytes is answered over TCP, as DNS does
dns_txt() {
	"$DKIM_PY" -c 'import sys
n, v = sys.argv[1], sys.argv[2]
assert "," not in v
print("--txt-record=%s,%s" % (n, ",".join(v[i:i + 255]
                                         for i in range(0, len(v), 255))))
' "$1" "$2"
}

# dns_serve ADDR PORT LOG [ARG...]: dnsmasq on ADDR:PORT (UDP and TCP) with
# the test keys and the ARGs (more records: dns_txt), its queries logged
# to LOG and its errors to LOG.err; $DNS_SERVED is its PID once it says it
# started (status 0), else it is stopped (status 1).
dns_serve() {
	_a=$1 _p=$2 _l=$3; shift 3
	: >"$_l"
	"$DNSMASQ" -k --conf-file=/dev/null --no-resolv --no-hosts \
		--bind-interfaces --listen-address="$_a" \
		--port="$_p" --user=root --pid-file= \
		--local=/example.org/ --local=/example.net/ \
		--log-queries --log-facility="$_l" \
		"$(dns_txt rsa._domainkey.example.org "v=DKIM1; k=rsa; p=$(cat "$D/rsa.pub")")" \
		"$(dns_txt ed._domainkey.example.net "v=DKIM1; k=ed25519; p=$(cat "$D/ed.pub")")" \
		"$@" 2>"$_l.err" &
	DNS_SERVED=$!
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		grep -q started "$_l" 2>/dev/null && break
		kill -0 "$DNS_SERVED" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$DNS_SERVED" 2>/dev/null && grep -q started "$_l" && return 0
	kill "$DNS_SERVED" 2>/dev/null; wait "$DNS_SERVED" 2>/dev/null
	return 1
}

# dns_start [ARG...]: dns_serve on a free port of 127.0.0.1 with the ARGs,
# its queries logged to $D/dns.log; sets DNS_PORT, DNS_PID and exports
# LORE_AM_NAMESERVER. Stopped by its PID at exit.
dns_start() {
	for _try in 1 2 3 4 5; do
		DNS_PORT=$("$DKIM_PY" -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		if dns_serve 127.0.0.1 "$DNS_PORT" "$D/dns.log" "$@"; then
			DNS_PID=$DNS_SERVED
			at_exit "kill $DNS_PID 2>/dev/null; wait $DNS_PID 2>/dev/null"
			export LORE_AM_NAMESERVER=127.0.0.1:$DNS_PORT
			return 0
		fi
	done
	echo "# dnsmasq would not start: $(cat "$D/dns.log.err")"
	return 1
}

# dns_stop: stop the server (the DNS-down cases), by its PID.
dns_stop() {
	kill "$DNS_PID" 2>/dev/null; wait "$DNS_PID" 2>/dev/null
}

# dns_queries: how many TXT queries the server has answered so far.
dns_queries() {
	grep -c 'query\[TXT\]' "$D/dns.log"
}

# am NAME [ARGS...]: lore-am -m on NAME's thread (the patches in NAME/,
# made into NAME.mbox; lib-series.sh's to_mbox), the second patch piped in;
# stdout to NAME.out, stderr to NAME.err, exit status in $rc
am() {
	_n=$1; shift
	to_mbox "$_n.mbox" "$_n"/*.patch
	"$LORE_AM" -m "$_n.mbox" "$@" <"$_n"/0002-*.patch \
		>"$_n.out" 2>"$_n.err"
	rc=$?
}

# failed NAME: how many failure lines (✗) NAME's run printed
failed() { grep -c '✗' "$1.err"; }

# status_header NAME VALUE: lore-am --passthrough --status-header on NAME's
# thread (as am, in the folder pt) marks the piped patch attestation=VALUE
status_header() {
	mkdir -p pt
	to_mbox "$1.mbox" "$1"/*.patch
	"$LORE_AM" --passthrough --status-header -o pt -m "$1.mbox" \
		<"$1"/0002-*.patch >pt.out 2>pt.err
	grep -q "^X-Lore-Am: .*; attestation=$2\$" pt.out
}

# policy_checks SIG: six checks of lore-am.attestation-policy check,
# softfail and hardfail on the thread "body" (am), whose patch 3 of 5
# fails with "✗ BADSIG: SIG"; the policy is left at hardfail
policy_checks() {
	git config --global lore-am.attestation-policy check
	am body -q
	is "$rc $(failed body)" "0 0" "check, -q: nothing shown"
	am body
	is "$rc $(failed body)" "0 1" "check: the failure shown in the summary"
	git config --global lore-am.attestation-policy softfail
	am body -q
	is "$rc $(wc -l <body.err)" "0 1" "softfail, -q: one line"
	grep -q "^lore-am: \[PATCH 3/5\] part: add piece 3: ✗ BADSIG: $1" body.err
	ok $? "softfail, -q: the line names the patch"
	git config --global lore-am.attestation-policy hardfail
	am body
	is "$rc $(wc -c <body.out)" "1 0" "hardfail: exit 1, nothing written"
	grep -q "^lore-am: \[PATCH 3/5\] part: add piece 3: ✗ BADSIG: $1.*nothing written (attestation-policy hardfail)" body.err
	ok $? "hardfail: one error line naming the patch"
}
