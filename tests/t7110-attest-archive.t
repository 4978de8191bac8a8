#!/bin/bash
# DKIM attestation on the bytes the sources give: a signed series served by
# a real public-inbox-httpd (which adds List-Id and drops the From_ line,
# as lists do) verifies from the archive; the cover letter is checked with
# -o; a tampered copy in a local mailbox fails; --thread writes the
# messages so that their signatures still verify; without libopendkim the
# run goes on and says DKIM was not checked.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-pi.sh"
. "$TEST_DIR/lib-dkim.sh"

pi_have_httpd || skip_all "public-inbox-httpd not installed"
dkim_setup
plan 11

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
dkim_sign rsa - p/*.patch
to_mbox signed.mbox p/*.patch
dns_start || exit 1
pi_init "$TRASH/pi" || exit 1
at_exit pi_stop
pi_add_inbox list 2 "$TRASH/signed.mbox" >/dev/null || exit 1
pi_start || exit 1
cover_id=$(msgid_of p/0000-cover-letter.patch)

"$LORE_AM" -C -L "$PI_URL/list" "$cover_id" >arch.out 2>arch.err
is "$? $(grep -c '✓ Signed: DKIM/example.org' arch.err) $(grep -c '✗' arch.err)" \
	"0 3 0" "from the archive: three patches signed, no failure"
curl -s "$PI_URL/list/$(pi_mid_escape "$cover_id")/raw" | grep -q '^List-Id:'
ok $? "the archive's copy carries a header the list added"

"$LORE_AM" -C -L "$PI_URL/list" -o outd "$cover_id" >/dev/null 2>cov.err
is "$? $(grep -c '✓ Signed: DKIM/example.org' cov.err)" "0 4" \
	"with -o the cover letter is checked too"
grep -A1 '^  \[PATCH 0/3\]' cov.err | grep -q '✓ Signed: DKIM/example.org'
ok $? "the cover letter's line is named by its subject"

# the piped copy is replaced by the archive's: a tampered one on stdin is
# not what gets checked
sed 's/^This adds piece 2/This adds piece two/' p/0002-*.patch >tampered.eml
"$LORE_AM" -C -L "$PI_URL/list" <tampered.eml >pipe.out 2>pipe.err
is "$? $(grep -c '✓ Signed' pipe.err) $(grep -c '✗' pipe.err)" "0 3 0" \
	"a tampered piped copy gives way to the archive's signed one"

# a local mailbox holding a tampered patch
mkdir bad && cp p/*.patch bad/
sed -i 's/^This adds piece 2/This adds piece two/' bad/0002-*.patch
to_mbox bad.mbox bad/*.patch
"$LORE_AM" -m bad.mbox "$cover_id" >bad.out 2>bad.err
is "$? $(grep -c '✗ BADSIG: DKIM/example.org (the body changed after signing)' bad.err)" \
	"0 1" "a mailbox with one tampered patch: one BADSIG"

# signatures survive --thread: the messages verify where they are written
cat >verify.py <<'PYEOF'
import sys, dkim, mailbox
pub = open(sys.argv[1]).read().strip()
def dns(name, timeout=5):
    if name == b'rsa._domainkey.example.org.':
        return ('v=DKIM1; k=rsa; p=' + pub).encode()
    return None
bad = 0
n = 0
for m in mailbox.mbox(sys.argv[2]):
    n += 1
    if not dkim.verify(m.as_bytes(), dnsfunc=dns):
        bad += 1
print(n, bad)
PYEOF
"$LORE_AM" -C -L "$PI_URL/list" --thread "$cover_id" >thread.mbox 2>thread.err
is "$("$DKIM_PY" verify.py "$D/rsa.pub" thread.mbox)" "4 0" \
	"--thread from the archive: all four messages still verify"
"$DKIM_PY" verify.py "$D/rsa.pub" arch.out >am.verify
is "$(cat am.verify)" "3 3" \
	"the am-ready messages (headers rebuilt) no longer verify, as the man page says"

# without libopendkim: a warning, DKIM not checked, the series written
without_lib libopendkim.so.11 "$LORE_AM" -C -L "$PI_URL/list" "$cover_id" \
	>nolib.out 2>nolib.err
rc=$?
if lib_hidden "$rc" 3 libopendkim; then
	is "$rc $(wc -c <nolib.out | tr -d ' ')" "0 $(wc -c <arch.out | tr -d ' ')" \
		"without libopendkim: the series is written"
	grep -q '^lore-am: warning: cannot load libopendkim.so.11' nolib.err
	ok $? "without libopendkim: one warning names it"
	is "$(grep -c 'DKIM not checked: libopendkim missing' nolib.err)" 1 \
		"without libopendkim: DKIM not checked, said once"
fi
pi_stop
