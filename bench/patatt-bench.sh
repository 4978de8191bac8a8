#!/bin/bash
# patatt-bench.sh - the cost of developer-signature attestation: lore-am
# and `b4 am` on the medium and large generated threads with every patch
# and cover letter signed with patatt (an ed25519 key from patatt genkey,
# found in patatt's own keyring through patatt.keyringsrc, which both
# tools read), each with its attestation on and off. No network. Needs
# patatt, b4 and hyperfine. Prints a Markdown table on stdout.
#   bench/patatt-bench.sh [-r RUNS] [-w WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-attest.sh"
attest_start patatt-bench "b4 patatt hyperfine git" "$@"
patatt genkey -n bench >/dev/null 2>&1
git config --global patatt.signingkey ed25519:bench
git config --global patatt.selector bench
git config --global patatt.keyringsrc "$XDG_DATA_HOME/patatt/public"

git init -q "$work/repo"
cd "$work/repo"
echo "| thread | lore-am off | lore-am on | ratio | b4 off | b4 on | ratio |"
echo "|---|---|---|---|---|---|---|"
for s in medium large; do
	say "generating and signing the $s thread"
	"$here/gen-thread.sh" --preset "$s" -o "$work/$s.raw" >"$work/$s.id"
	rm -rf "$work/$s.d" && mkdir "$work/$s.d"
	git mailsplit -o"$work/$s.d" "$work/$s.raw" >/dev/null
	# the patches and cover letters, what both tools check
	grep -l '^Subject: \[PATCH' "$work/$s.d"/* | xargs patatt sign >/dev/null 2>&1
	: >"$work/$s.mbox"
	for f in "$work/$s.d"/*; do
		{ echo "From mbox@z Thu Jan  1 00:00:00 1970"; cat "$f"; echo; } \
			>>"$work/$s.mbox"
	done
	id=$(cat "$work/$s.id")
	"$lore" -m "$work/$s.mbox" "$id" </dev/null >/dev/null 2>"$work/$s.err"
	n=$(grep -c '✓ Signed: ed25519' "$work/$s.err" || true)
	[ "$n" -gt 0 ] || die "lore-am verified nothing on $s: $(tail -3 "$work/$s.err")"
	git config --global b4.attestation-policy softfail
	b4 -n am -m - -o - "$id" <"$work/$s.mbox" >/dev/null 2>"$work/$s.b4err" || true
	grep -q 'Signed: ed25519/dev@example.org' "$work/$s.b4err" ||
		say "b4 did not show ed25519 lines on $s: $(grep -m3 -i 'sign\|attest' "$work/$s.b4err")"
	L="'$lore' -q -m '$work/$s.mbox' '$id' </dev/null"
	B="b4 -q -n am -m - -o - '$id' <'$work/$s.mbox'"
	attest_compare "$s" "$n" "$L" "$B"
done
