#!/bin/bash
# The bad-input table (doc/SECURITY.md): broken and hostile mail fed to the
# real binary. Each row asserts the documented outcome: either one clear
# error line with the documented exit status and nothing on stdout, or a
# correct am-ready mbox that git am applies to the real tree. Big inputs are
# generated here, never committed, under an ulimit -v guard.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hostile.sh"

plan 44
hostile_thread || { echo "Bail out! cannot generate the thread"; exit 1; }
cd "$TRASH" || exit 1
msg() { "$MAIL_EDIT" "$THREAD" "$1" 'print STDOUT $_'; }
msg "$P1" >p1.eml

lore base -m "$THREAD" "$COVER" </dev/null
is "$RC" 0 "the untouched thread is written"
applies base.out "and git am applies it"

# -- empty stdin, garbage, no Message-ID ----------------------------------
lore empty </dev/null
refused empty 2 "no message on standard input" "empty stdin: exit 2"

perl -e 'srand(42); print map { chr(int(rand(256))) } 1 .. 65536' >garbage
lore garbage -m "$THREAD" <garbage
refused garbage 2 "standard input: " "binary garbage on stdin: exit 2"
lore garbage-mbox -m garbage "$P1" </dev/null
refused garbage-mbox 1 "message <.*> is not in " \
	"binary garbage as the mailbox: exit 1, the message is not in it"

perl -0pe 's/^Message-Id:[^\n]*\n//mi' p1.eml >noid.eml
lore noid -m "$THREAD" <noid.eml
refused noid 2 "standard input: the message has no usable Message-ID" \
	"a message without Message-ID: exit 2"
perl -0pe 's/^(Message-Id: <)/${1}\xf2\xf2/mi' p1.eml >badid.eml
lore badid -m "$THREAD" <badid.eml
refused badid 2 "standard input: the message has no usable Message-ID" \
	"a Message-ID that is not UTF-8: exit 2"

# -- a 200 MB message -------------------------------------------------------
big_message() {
	printf 'From: Big <big@example.org>\nSubject: [PATCH] big\n'
	printf 'Message-ID: <big@example.org>\nDate: Mon, 1 Jan 2024 12:00:00 +0000\n\n'
	yes 'diff --git a/x b/x and a long line of text that keeps on going' |
		head -c 200000000
}
lore_vm 300000 big -m "$THREAD" < <(big_message)
refused big 2 "standard input: the message is larger than 64 MiB; refused" \
	"a 200 MB message piped in: exit 2, under a 300 MB address space cap"
cp "$THREAD" big.mbox
{ echo "From big@example.org Mon Jan  1 12:00:00 2024"; big_message; } >>big.mbox
lore_vm 600000 bigmbox -m big.mbox "$COVER" </dev/null
is "$RC" 0 "a 200 MB message in the mailbox: the series is still written"
grep -q "warning: 1 message(s) larger than 64 MiB skipped" bigmbox.err
ok $? "and the skipped message is named in a warning"
rm -f big.mbox

# -- a 1 MB header line, 10 000 References --------------------------------
cp "$THREAD" long.mbox
"$MAIL_EDIT" long.mbox "$P1" 'my ($s) = /^Subject: (.*)/m; set_header("X-Junk", "x" x 1000000)'
"$MAIL_EDIT" long.mbox "$P2" 's/^(Subject: [^\n]*)/$1 . (" word" x 200000)/me'
"$LORE_AM" -m long.mbox "$COVER" </dev/null >long.out 2>long.err
RC=$?
is "$RC" 0 "1 MB header lines: written"
applies long.out "and git am applies it"
ok $(( $(wc -c <long.err) > 20000 )) "the summary stays short ($(wc -c <long.err) bytes)"

cp "$THREAD" refs.mbox
{
	printf 'From: Ref Heavy <heavy@example.org>\nSubject: Re: [PATCH 3/5]\n'
	printf 'Date: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <heavy@example.org>\n'
	printf 'In-Reply-To: <%s>\nReferences: <%s>' "$P3" "$COVER"
	for i in $(seq 10000); do printf ' <fake%d@example.org>' "$i"; done
	printf ' <%s>\n\nFine.\n\nReviewed-by: Ref Heavy <heavy@example.org>\n' "$P3"
} | "$MAIL_EDIT" refs.mbox --add
lore refs -m refs.mbox "$COVER" </dev/null
is "$RC" 0 "a reply with 10 000 References: written"
grep -q "^Reviewed-by: Ref Heavy <heavy@example.org>" refs.out
ok $? "and its trailer reaches patch 3"

# -- reference cycles -------------------------------------------------------
cp "$THREAD" cycle.mbox
"$MAIL_EDIT" cycle.mbox "$P4" "set_header('In-Reply-To', '<cyc-a\@example.org>'); set_header('References', '<$COVER> <cyc-a\@example.org>')"
for pair in "a b" "b a"; do
	set -- $pair
	printf 'From: Cy Cle <cy@example.org>\nSubject: Re: [PATCH 4/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <cyc-%s@example.org>\nIn-Reply-To: <%s>\nReferences: <%s> <cyc-%s@example.org>\n\nReviewed-by: Cy Cle <cy@example.org>\n' \
		"$1" "$P4" "$P4" "$2" | "$MAIL_EDIT" cycle.mbox --add
done
"$MAIL_EDIT" cycle.mbox "$P5" "set_header('In-Reply-To', '<$P5>'); set_header('References', '<$P5>')"
lore cycle -m cycle.mbox "$COVER" </dev/null
is "$RC" 0 "reference cycles (patch <-> reply, reply <-> reply, self): written"
applies cycle.out "and git am applies it"

# -- subjects that claim too much -------------------------------------------
sed 's/^Subject: \[PATCH 1\/5\]/Subject: [PATCH 1\/99999]/' p1.eml >n99999.eml
lore n99999 -m n99999.eml <n99999.eml
is "$RC" 0 "[PATCH 1/99999]: five digits are no counter (as b4): written"
grep -q '^Subject: \[PATCH\] ' n99999.out
ok $? "as a single [PATCH]"
sed 's/^Subject: \[PATCH 1\/5\]/Subject: [PATCH 1\/9999]/' p1.eml >n9999.eml
lore n9999 -m n9999.eml <n9999.eml
refused n9999 1 "v1: missing 2-9999 of 9999$" \
	"[PATCH 1/9999] alone: exit 1, the missing ones in one line" 2
sed 's/^Subject: \[PATCH 1\/5\]/Subject: [PATCH 0\/0]/' p1.eml >n0.eml
lore n0 -m n0.eml <n0.eml
refused n0 1 "no patches found in the thread" "[PATCH 0/0]: exit 1, no patches"

# -- charsets and transfer encodings ----------------------------------------
cp "$THREAD" cs.mbox
"$MAIL_EDIT" cs.mbox "$P1" 's/^(Subject: [^\n]*\n)/$1/m; my $b = body(); $b =~ s/\n\n/\n\nCaf\xe9 cr\xe8me, na\xefve.\n\n/; set_body($b)'
printf 'From: Kling On <klingon@example.org>\nSubject: Re: [PATCH 2/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <kl@example.org>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\nContent-Transfer-Encoding: 8bit\n\nQ\xe2pla\xff!\n\nReviewed-by: Kling On <klingon@example.org>\n' "$P2" |
	"$MAIL_EDIT" cs.mbox --add
printf 'From: Bro Ken <broken@example.org>\nSubject: Re: [PATCH 3/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <bk@example.org>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nNot \xc3\x28 UTF-8 \xf0\x28\x8c\x28.\n\nAcked-by: Bro Ken <broken@example.org>\n' "$P3" |
	"$MAIL_EDIT" cs.mbox --add
lore cs -m cs.mbox "$COVER" </dev/null
is "$RC" 0 "invalid UTF-8 and an unknown charset: written"
utf8 cs.out
ok $? "the output is valid UTF-8"
grep -q "^Reviewed-by: Kling On" cs.out && grep -q "^Acked-by: Bro Ken" cs.out
ok $? "the trailers of both odd replies are there"
applies cs.out "and git am applies it"

cp "$THREAD" date.mbox
"$MAIL_EDIT" date.mbox "$P1" 'set_header("Date", "Tue, 30 Aug 202\xff\xff\xfe2 junk")'
lore date -m date.mbox "$COVER" </dev/null
is "$RC" 0 "an unreadable 8-bit Date: written"
utf8 date.out && grep -q "^Date: Tue, 30 Aug 202" date.out
ok $? "the Date kept as written, made valid UTF-8"

cp "$THREAD" enc.mbox
b64=$(printf 'Looks right.\n\nReviewed-by: Base Sixty <b64@example.org>\n\n-- \nsig\n' |
	base64 -w 20 | sed 's/^\(....\)/\1*!/' | tr -d '=')
printf 'From: Base Sixty <b64@example.org>\nSubject: Re: [PATCH 4/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <b64@example.org>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n%s\n' "$P4" "$b64" |
	"$MAIL_EDIT" enc.mbox --add
printf 'From: Quo Ted <qp@example.org>\nSubject: Re: [PATCH 5/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <qp@example.org>\nIn-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nBroken =ZZ escape and a soft=\n break, =E2=82 half a char.\n\nTested-by: Quo Ted <qp@example.org>\n=' "$P5" |
	"$MAIL_EDIT" enc.mbox --add
lore enc -m enc.mbox "$COVER" </dev/null
is "$RC" 0 "broken base64 and quoted-printable: written"
grep -q "^Reviewed-by: Base Sixty" enc.out && grep -q "^Tested-by: Quo Ted" enc.out
ok $? "decoded leniently: both trailers are there"
utf8 enc.out
ok $? "the output is valid UTF-8"

# -- nested multiparts --------------------------------------------------------
nest() {
	"$MAIL_EDIT" "$2" "$P5" "
		my \$d = $1; my (\$h, \$b) = split_msg();
		\$h =~ s/^(Content-Type|Content-Transfer-Encoding|MIME-Version):[^\n]*\n//mig;
		my \$o = \"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\\\"b0\\\"\n\n\";
		\$o .= \"--b\$_\nContent-Type: multipart/mixed; boundary=\\\"b\" . (\$_ + 1) . \"\\\"\n\n\" for 0 .. \$d - 1;
		\$o .= \"--b\$d\nContent-Type: text/plain; charset=utf-8\n\n\$b\n\";
		\$o .= \"--b\$_--\n\" for reverse 0 .. \$d;
		\$_ = \$h . \$o;"
}
cp "$THREAD" nest100.mbox && nest 100 nest100.mbox
lore nest100 -m nest100.mbox "$COVER" </dev/null
is "$RC" 0 "a patch in multiparts nested 100 deep: written"
applies nest100.out "and git am applies it"
cp "$THREAD" nest100k.mbox && nest 100000 nest100k.mbox
lore nest100k -m nest100k.mbox "$COVER" </dev/null
refused nest100k 1 "v1: missing 5/5$" \
	"nested 100 000 deep: no text is read from it, exit 1" 2
rm -f nest100k.mbox

# -- NUL bytes ----------------------------------------------------------------
perl -0pe 's/^(Subject: [^\n]*)/$1\0/m' p1.eml >nulhdr.eml
lore nulhdr -m "$THREAD" <nulhdr.eml
refused nulhdr 2 "standard input: NUL byte in the message header" \
	"a NUL in the header: exit 2"
cp "$THREAD" nul.mbox
"$MAIL_EDIT" nul.mbox "$P2" 's/^(\+[^\n]*)$/$1\0hidden/m'
lore nul -m nul.mbox "$COVER" </dev/null
refused nul 2 "<$P2> holds NUL bytes: refused, nothing written" \
	"a NUL in a patch: exit 2, never half a patch"
cp "$THREAD" nulreply.mbox
printf 'From: Nul Ler <nul@example.org>\nSubject: Re: [PATCH 1/5]\nDate: Mon, 1 Jan 2024 13:00:00 +0000\nMessage-ID: <nul@example.org>\nIn-Reply-To: <%s>\n\nA \0 byte.\n\nReviewed-by: Nul Ler <nul@example.org>\n' "$P1" |
	"$MAIL_EDIT" nulreply.mbox --add
lore nulreply -m nulreply.mbox "$COVER" </dev/null
is "$RC" 0 "a NUL in a reply: written"
grep -q "^Reviewed-by: Nul Ler" nulreply.out
ok $? "and the reply's trailer counts"

# -- 50 000 messages ------------------------------------------------------------
cp "$THREAD" huge.mbox
perl -e '
	my ($cover, @p) = @ARGV;
	my @ids;
	for my $i (1 .. 50000) {
		# two chains of 25 000 replies, each answering the one before
		my $irt = $i % 25000 == 1 ? $p[$i % 5] : $ids[-1];
		my $id = "huge$i\@example.org";
		my $r = $i % 97;
		printf "From x\@y Mon Jan  1 12:00:00 2024\nFrom: Rev %d <rev%d\@example.org>\nSubject: Re: [PATCH]\nDate: Mon, 1 Jan 2024 13:%02d:%02d +0000\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s> <%s>\n\nok\n%s\n",
			$r, $r, ($i / 60) % 60, $i % 60, $id, $irt, $cover, $irt,
			$i % 1000 ? "" : "\nReviewed-by: Rev $r <rev$r\@example.org>\n";
		push @ids, $id;
	}' "$COVER" "$P1" "$P2" "$P3" "$P4" "$P5" >>huge.mbox
lore_vm 600000 huge -m huge.mbox "$COVER" </dev/null
is "$RC" 0 "a thread of 50 000 messages: written, under a 600 MB cap"
is "$(grep -c "^Reviewed-by: Rev " huge.out)" 50 \
	"with the trailer of every 1000th reply, 25 000 deep in its chain"
applies huge.out "and git am applies it"
rm -f huge.mbox

# -- line ends -------------------------------------------------------------------
perl -pe 's/\n/\r\n/' "$THREAD" >crlf.mbox
lore crlf -m crlf.mbox "$COVER" </dev/null
is "$RC" 0 "CRLF line ends: written"
same_file crlf.out base.out "the same mbox as from LF"
perl -pe 's/\n/\r\n/ if $. % 2' "$THREAD" >mixed.mbox
lore mixed -m mixed.mbox "$COVER" </dev/null
is "$RC" 0 "mixed line ends: written"
same_file mixed.out base.out "the same mbox as from LF"
done_testing
