#!/bin/bash
# attest-bench.sh - the cost of DKIM attestation: lore-am and `b4 am` on the
# medium and large generated threads with every message DKIM-signed
# (dkimpy), each with its attestation on and off. The keys are served by
# dnsmasq on 127.5.5.5:53; b4 (dkimpy, dnspython) reads /etc/resolv.conf,
# so it runs in a private mount namespace where that file names the same
# server. Needs root (port 53, unshare), dnsmasq, python3-dkim, b4 and
# hyperfine. Prints a Markdown table on stdout.
#   bench/attest-bench.sh [-r RUNS] [-w WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-attest.sh"
attest_start attest-bench "b4 hyperfine unshare git" "$@"

# tests/lib-dkim.sh makes the keys, signs, and runs dnsmasq
TRASH=$work
skip_all() { die "$*"; }
_hooks=:
at_exit() { _hooks="$_hooks; $*"; }
trap 'eval "$_hooks"; [ -n "$keep" ] || rm -rf "$work"' EXIT
. "$here/../tests/lib-dkim.sh"
dkim_setup

# dnsmasq on port 53 of a loopback address nothing else uses
dns_serve 127.5.5.5 53 "$work/dns.log" ||
	die "dnsmasq did not start: $(cat "$work/dns.log.err")"
at_exit "kill $DNS_SERVED 2>/dev/null"
echo "nameserver 127.5.5.5" >"$work/resolv.conf"
export LORE_AM_NAMESERVER=127.5.5.5:53

# b4 sees the test server as the system's resolver
cat >"$work/b4ns" <<EOF2
#!/bin/sh
exec unshare -m sh -c 'mount --bind "$work/resolv.conf" /etc/resolv.conf && exec "\$0" "\$@"' b4 "\$@"
EOF2
chmod +x "$work/b4ns"

git init -q "$work/repo"
cd "$work/repo"
echo "| thread | lore-am off | lore-am on | ratio | b4 off | b4 on | ratio |"
echo "|---|---|---|---|---|---|---|"
for s in medium large; do
	say "generating and signing the $s thread"
	"$here/gen-thread.sh" --preset "$s" -o "$work/$s.raw" >"$work/$s.id"
	rm -rf "$work/$s.d" && mkdir "$work/$s.d"
	git mailsplit -o"$work/$s.d" "$work/$s.raw" >/dev/null
	dkim_sign rsa - "$work/$s.d"/*
	: >"$work/$s.mbox"
	for f in "$work/$s.d"/*; do
		{ echo "From mbox@z Thu Jan  1 00:00:00 1970"; cat "$f"; echo; } \
			>>"$work/$s.mbox"
	done
	id=$(cat "$work/$s.id")
	"$lore" -m "$work/$s.mbox" "$id" </dev/null >/dev/null 2>"$work/$s.err"
	n=$(grep -c '✓ Signed' "$work/$s.err" || true)
	[ "$n" -gt 0 ] || die "lore-am verified nothing on $s: $(tail -3 "$work/$s.err")"
	git config --global b4.attestation-policy softfail
	"$work/b4ns" -n am -m - -o - "$id" <"$work/$s.mbox" >/dev/null 2>"$work/$s.b4err"
	grep -q 'Signed: DKIM/example.org' "$work/$s.b4err" ||
		say "b4 did not show DKIM lines on $s: $(grep -m3 -i 'dkim\|attest' "$work/$s.b4err")"
	L="'$lore' -q -m '$work/$s.mbox' '$id' </dev/null"
	B="'$work/b4ns' -q -n am -m - -o - '$id' <'$work/$s.mbox'"
	attest_compare "$s" "$n" "$L" "$B"
done
