#!/bin/bash
# --thread keeps messages byte for byte, so signatures stay valid: a reply
# signed with DKIM (simple/simple, the strictest canonicalisation) whose
# body has "From " lines, one of them a perfect From_ line, and a ">From "
# line, goes through stdout + git mailsplit --mboxrd, --maildir and
# --append, from a maildir and from an mboxrd source, and still verifies
# with dkimpy against our own key.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-thread.sh"

PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import dkim' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || skip_all "python3-dkim (dkimpy) not installed"
command -v openssl >/dev/null || skip_all "openssl not installed"

plan 14

cd "$TRASH" || exit 1
small_thread w

openssl genrsa -out key.pem 2048 2>/dev/null
openssl rsa -in key.pem -pubout -outform DER 2>/dev/null | base64 -w0 >key.pub
cat >sign.py <<'EOF'
import sys, dkim
key = open(sys.argv[1], 'rb').read()
msg = sys.stdin.buffer.read()
sig = dkim.sign(msg, b'sel', b'example.org', key,
                canonicalize=(b'simple', b'simple'),
                include_headers=[b'from', b'to', b'subject', b'date',
                                 b'message-id', b'in-reply-to',
                                 b'references'])
sys.stdout.buffer.write(sig.replace(b'\r\n', b'\n') + msg)
EOF
cat >verify.py <<'EOF'
import sys, dkim
pub = open(sys.argv[1]).read().strip()
def dns(name, timeout=5):
    if name == b'sel._domainkey.example.org.':
        return ('v=DKIM1; k=rsa; p=' + pub).encode()
    return None
sys.exit(0 if dkim.verify(open(sys.argv[2], 'rb').read(), dnsfunc=dns) else 1)
EOF
verify() { "$PY" verify.py key.pub "$1"; }

mk_msg plain.eml s@example.org "Mon, 1 Jan 2024 10:30:00 +0000" \
	r@example.org "r@example.org" "Re: [PATCH 0/2] widget: cover" \
	"Hello,

From the look of it this is fine.
From me Mon Jan  1 12:00:00 2024
>From the archive, quoted.

Reviewed-by: Person s <p-s@example.org>
"
"$PY" sign.py key.pem <plain.eml >signed.eml
{ cat signed.eml; echo; } >signed-entry.eml

verify signed.eml
ok $? "the signed message verifies (dkimpy, our key)"
sed 's/^>From the archive/From the archive/' signed.eml >broken.eml
verify broken.eml
ok $((! $?)) "... and one level of quoting lost breaks it (the check has teeth)"

# from a maildir source, out on stdout
maildir_add sig signed.eml
"$LORE_AM" -q --thread -m w/all.mbox -m sig r@example.org >out.mbox
is "$?" 0 "--thread with the signed reply exits 0"
mkdir count
is "$(git mailsplit --mboxrd -ocount out.mbox)" 7 \
	"git mailsplit finds 7 messages: the body's From_ line split none"
split_by_id out.mbox got
same_file got/s@example.org signed-entry.eml \
	"git mailsplit --mboxrd gives the message back (plus the entry's blank line)"
verify got/s@example.org
ok $? "... and its DKIM signature verifies"

# from an mboxrd source
cp w/all.mbox rd.mbox
mboxrd_add rd.mbox signed.eml
"$LORE_AM" -q --thread -m rd.mbox s@example.org >out2.mbox
split_by_id out2.mbox got2
same_file got2/s@example.org signed-entry.eml \
	"from an mboxrd source too"
verify got2/s@example.org
ok $? "... and verifies"

# --maildir: the file is the message, not one byte more
"$LORE_AM" -q --maildir md -m rd.mbox r@example.org
is "$?" 0 "--maildir exits 0"
f=$(grep -l '^Message-ID: <s@example.org>' md/cur/*)
same_file "$f" signed.eml "--maildir: the delivered file is the message exactly"
verify "$f"
ok $? "... and verifies"

# --append
"$LORE_AM" -q --append app.mbox -m sig -m w/all.mbox r@example.org
is "$?" 0 "--append exits 0"
split_by_id app.mbox got3
same_file got3/s@example.org signed-entry.eml \
	"--append: git mailsplit --mboxrd gives the message back"
verify got3/s@example.org
ok $? "... and verifies"
done_testing
