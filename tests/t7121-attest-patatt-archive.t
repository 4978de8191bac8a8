#!/bin/bash
# Developer signatures (patatt) on the bytes the archive gives: a series
# signed with Debian's patatt, served by a real public-inbox-httpd (which
# adds List-Id and drops the From_ line, as lists do), verifies; the cover
# letter (sent by another address than the signer's) is checked with -o; --thread writes the messages so that patatt
# itself still validates them; without libsodium the run goes on and says
# the signatures were not checked.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
command -v patatt >/dev/null || skip_all "patatt not installed"
plan 10

cd "$TRASH" || exit 1
export XDG_DATA_HOME=$TRASH/data
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
git config --global user.email pat@example.com
patatt genkey -n k1 >genkey.out 2>&1
git config --global patatt.signingkey ed25519:k1
git config --global patatt.selector k1
patatt sign p/*.patch >sign.out 2>&1
to_mbox signed.mbox p/*.patch
pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
pi_add_inbox list 2 "$TRASH/signed.mbox" >/dev/null || exit 1
pi_start || exit 1
cover_id=$(msgid_of p/0000-cover-letter.patch)
signed() { grep -c '✓ Signed: ed25519/pat@example.com$' "$1"; }

"$LORE_AM" -C -L "$PI_URL/list" "$cover_id" >arch.out 2>arch.err
is "$? $(signed arch.err) $(grep -c '✗' arch.err)" "0 3 0" \
	"from the archive: three patches signed, no failure"
curl -s "$PI_URL/list/$(pi_mid_escape "$cover_id")/raw" | grep -q '^List-Id:'
ok $? "the archive's copy carries a header the list added"

"$LORE_AM" -C -L "$PI_URL/list" -o outd "$cover_id" >/dev/null 2>cov.err
is "$? $(grep -c '✓ Signed: ed25519/pat@example.com' cov.err)" "0 4" \
	"with -o the cover letter is checked too"
# the cover letter was written by another sender than the key's owner:
# b4's rule names the sender
grep -A1 '^  \[PATCH 0/3\]' cov.err |
	grep -q '✓ Signed: ed25519/pat@example.com (From: maintainer@example.org)$'
ok $? "the cover letter's line, under its subject, names a sender not the signer"

# the archive's copy wins over a tampered one piped in
sed 's/^This adds piece 2/This adds piece two/' p/0002-*.patch >tampered.eml
"$LORE_AM" -C -L "$PI_URL/list" <tampered.eml >pipe.out 2>pipe.err
is "$? $(signed pipe.err) $(grep -c '✗' pipe.err)" "0 3 0" \
	"a tampered piped copy gives way to the archive's signed one"

# --thread writes each message as it came: patatt validates them all
"$LORE_AM" -C -L "$PI_URL/list" --thread "$cover_id" >thread.mbox 2>thread.err
patatt validate thread.mbox >validate.out 2>&1
is "$? $(grep -c '^ *PASS' validate.out)" "0 4" \
	"--thread from the archive: patatt validates all four messages"

# without libsodium: not checked, said once, the series written
without_lib libsodium.so.23 "$LORE_AM" -C -L "$PI_URL/list" "$cover_id" \
	>nolib.out 2>nolib.err
rc=$?
if lib_hidden "$rc" 4 libsodium; then
	is "$rc $(wc -c <nolib.out | tr -d ' ')" "0 $(wc -c <arch.out | tr -d ' ')" \
		"without libsodium: the series is written"
	is "$(grep -c 'ed25519/pat@example.com not checked: libsodium missing' nolib.err)" 1 \
		"without libsodium: not checked, said once"
	is "$(signed nolib.err)" 0 "without libsodium: no ✓"
	is "$(grep -c '^lore-am: warning: cannot load libsodium\.so\.23: ' nolib.err)" 1 \
		"without libsodium: one warning names it, as for libopendkim"
fi
pi_stop
done_testing
