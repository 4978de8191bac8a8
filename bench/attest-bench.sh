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
lore=$here/../lore-am
runs=5 work=
while getopts r:w: o; do
	case $o in
	r) runs=$OPTARG ;;
	w) work=$OPTARG ;;
	*) exit 2 ;;
	esac
done
die() { echo "attest-bench: $*" >&2; exit 1; }
say() { echo "attest-bench: $*" >&2; }
for p in b4 hyperfine unshare git; do
	command -v "$p" >/dev/null || die "$p is not installed"
done
[ -x "$lore" ] || die "build lore-am first (make)"
keep=$work
[ -n "$work" ] || work=$(mktemp -d)
mkdir -p "$work" && work=$(cd "$work" && pwd)

# tests/lib-dkim.sh makes the keys, signs, and runs dnsmasq
TRASH=$work
skip_all() { die "$*"; }
_hooks=:
at_exit() { _hooks="$_hooks; $*"; }
trap 'eval "$_hooks"; [ -n "$keep" ] || rm -rf "$work"' EXIT
. "$here/../tests/lib-dkim.sh"
dkim_setup

export HOME=$work/home XDG_CACHE_HOME=$work/home/.cache
export XDG_CONFIG_HOME=$work/home/.config
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/home/.gitconfig
export LC_ALL=C.UTF-8 TZ=UTC
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email "bench@example.org"
# the generated mails are dated 2024 and signed today: both tools would
# call every signature stale, and b4 would then skip nothing; check all
git config --global lore-am.attestation-staleness-days 0
git config --global b4.attestation-staleness-days 0

# dnsmasq on port 53 of a loopback address nothing else uses
_k=$(cat "$D/rsa.pub")
"$DNSMASQ" -k --conf-file=/dev/null --no-resolv --no-hosts \
	--bind-interfaces --listen-address=127.5.5.5 --port=53 --user=root \
	--pid-file= --local=/example.org/ --local=/example.net/ \
	"--txt-record=rsa._domainkey.example.org,v=DKIM1; k=rsa; p=${_k:0:200},${_k:200}" &
dns_pid=$!
at_exit "kill $dns_pid 2>/dev/null"
echo "nameserver 127.5.5.5" >"$work/resolv.conf"
export LORE_AM_NAMESERVER=127.5.5.5:53
sleep 1
kill -0 "$dns_pid" || die "dnsmasq did not start"

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
