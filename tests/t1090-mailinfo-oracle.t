#!/bin/bash
# Every patch mail git am takes, lore-am takes: git is the oracle. Each mail
# made here is applied with `git am` directly and through lore-am (with a
# reviewer's reply in the thread, so a trailer is added), and the two
# commits must match field by field: author, email, date, subject, message
# (plus the added Reviewed-by, where git interpret-trailers puts it) and
# tree.
#
# | cases | what they cover |
# |---|---|
# | matrix (72) | layout: single part, multipart with the diff inline, the diff attached as text/x-diff, text/x-patch, text/plain, base64 application/octet-stream `fix.patch`; transfer encoding 7bit/8bit, quoted-printable, base64; LF and CRLF; UTF-8 and ISO-8859-1 (message and encoded-word headers); and, in turn, in-body From:/Date:/Subject:, a `---` line or none, a scissors line with an in-body Subject above it (`git am --scissors`) |
# | mailers | `git format-patch --attach` and `--inline`, `git send-email --attach`, Outlook's multipart/alternative (quoted-printable, CRLF, HTML part), Thunderbird's text/x-patch attachment of a whole format-patch file |
# | From: | comments (`A (zzz) U Thor <a@x> (Comment)`), `<addr> (Name)`, an unterminated comment |
# | RFC 2047 | adjacent base64 words whose first ends in `=`, a Cyrillic subject cut across words |
# | bytes | a CR inside a patched line, a Latin-1 byte in a patched file |
# | in-body | `>From <sha>` format-patch line at the top, a blank line ends in-body headers, the first of two in-body From: wins, `----- >8` |
#
# Where lore-am and git disagree on purpose there is a row here too: an
# unescaped "From <sha>" line at the top of the body (git am splits the
# mail there) gives the in-body author and subject.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 96

R=$TRASH/repo
make_repo "$R"
# the commit every mail carries: an accented message, an indented first
# line in the last paragraph, a " >From" line
(cd "$R" && git checkout -q -b topic base && sed -i 's/^line 5$/line five/' file.c &&
 GIT_AUTHOR_NAME="José Núñez" GIT_AUTHOR_EMAIL=jose@example.com \
 GIT_AUTHOR_DATE="Mon, 2 Jan 2023 10:00:00 +0100" \
 git commit -q -a -F - <<'EOF'
file: change line 5 for the café

Ça marche très bien, dit José.
 >From now on line five is spelled out.

    at crash_handler+0x12/0x40
Signed-off-by: José Núñez <jose@example.com>
EOF
) || exit 1
(cd "$R" && git format-patch -q -1 --stdout topic) > "$TRASH/fp"
# its pieces: the message, the diffstat and the diff
perl -0777 -ne '/\n\n(.*?\n)---\n(.*?\n)\n(diff --git .*?)-- \n/s or die;
	open F, ">", "'"$TRASH"'/msg"; print F $1; open F, ">", "'"$TRASH"'/stat"; print F $2;
	open F, ">", "'"$TRASH"'/diff"; print F $3;' "$TRASH/fp" || exit 1

cat > "$TRASH/gen.pl" <<'EOF'
# gen.pl OUT LAYOUT CTE EOL CHARSET INBODY DASHES SCISSORS: one patch mail
use strict; use warnings;
use MIME::Base64; use MIME::QuotedPrint; use Encode;
my ($out, $layout, $cte, $eol, $cs, $inbody, $dashes, $sc) = @ARGV;
my $dir = $ENV{TRASH};
sub slurp { local $/; open my $f, '<', "$dir/$_[0]" or die; my $s = <$f>; return $s }
my ($msg, $stat, $diff) = map { slurp($_) } qw(msg stat diff);
my $subject = "file: change line 5 for the caf\x{e9}";
$msg = decode('UTF-8', $msg);
sub word { my $s = encode($cs, $_[0]); return "=?$cs?B?" . encode_base64($s, '') . '?=' }
my ($from, $subj);
if ($inbody) {
	$from = 'Sender Proxy <proxy@example.com>';
	$subj = '[PATCH] outer subject';
	$msg = "From: " . word("Jos\x{e9} N\x{fa}\x{f1}ez") . " <jose\@example.com>\n" .
	       "Date: Mon, 2 Jan 2023 10:00:00 +0100\nSubject: [PATCH] $subject\n\n$msg";
} else {
	$from = word("Jos\x{e9} N\x{fa}\x{f1}ez") . ' <jose@example.com>';
	$subj = '[PATCH] ' . word($subject);
}
$msg = "Subject: not this one\n\nHello, the fix for the crash we saw:\n\n-- >8 --\n$msg" if $sc;
my $patch = $dashes ? "---\n$stat\n$diff" : $diff;
$msg = encode($cs, $msg);
sub body { my ($text, $how) = @_;
	return ("base64", encode_base64($text)) if $how eq 'base64';
	return ("quoted-printable", encode_qp($text)) if $how eq 'qp';
	return ($text =~ /[\x80-\xff]/ ? "8bit" : "7bit", $text) }
my $hdr = "From: $from\nDate: Tue, 3 Jan 2023 11:00:00 +0000\nSubject: $subj\n" .
	  "Message-Id: <patch\@example.com>\nMIME-Version: 1.0\n";
my $mail;
if ($layout eq 'single' || $layout eq 'inline') {
	my ($e, $b) = body($msg . ($dashes ? '' : "\n") . $patch, $cte);
	my $part = "Content-Type: text/plain; charset=$cs\nContent-Transfer-Encoding: $e\n\n$b";
	$mail = $layout eq 'single' ? "$hdr$part" :
		"${hdr}Content-Type: multipart/mixed; boundary=\"=-b\"\n\nThis is a multi-part message in MIME format.\n--=-b\n$part\n--=-b--\n";
} else {
	my ($e1, $b1) = body($msg, $cte);
	my %type = (xdiff => 'text/x-diff', xpatch => 'text/x-patch',
		    plain => 'text/plain', octet => 'application/octet-stream');
	my ($e2, $b2) = body($patch, $layout eq 'octet' ? 'base64' : $cte);
	my $cs2 = $layout eq 'octet' ? '' : "; charset=us-ascii";
	$mail = "${hdr}Content-Type: multipart/mixed; boundary=\"=-b\"\n\n" .
		"--=-b\nContent-Type: text/plain; charset=$cs\nContent-Transfer-Encoding: $e1\n\n$b1\n" .
		"--=-b\nContent-Type: $type{$layout}$cs2; name=\"fix.patch\"\n" .
		"Content-Disposition: attachment; filename=\"fix.patch\"\nContent-Transfer-Encoding: $e2\n\n$b2\n--=-b--\n";
}
$mail =~ s/\n/\r\n/g if $eol eq 'crlf';
open my $f, '>', $out or die; binmode $f; print $f $mail;
EOF

# the reviewer's reply, with the trailer lore-am adds
cat > "$TRASH/reply" <<'EOF'
From: Rev Iewer <rev@example.com>
Subject: Re: [PATCH] file: change line 5
Date: Wed, 4 Jan 2023 09:00:00 +0000
Message-Id: <reply@example.com>
In-Reply-To: <patch@example.com>
References: <patch@example.com>

> the patch

Reviewed-by: Rev Iewer <rev@example.com>
EOF

git clone -q "$R" "$TRASH/direct" && git -C "$TRASH/direct" checkout -q -b am base
git clone -q "$R" "$TRASH/lore" && git -C "$TRASH/lore" checkout -q -b am base

# commit_of DIR: the fields of the last commit
commit_of() {
	git -C "$1" log -1 --date=raw --format='%an <%ae> %ad%n%T%n%B'
}

# oracle MAIL DESCRIPTION [GIT-AM-OPTION...]: git am of MAIL and git am of
# lore-am's output of MAIL (and the reply) give the same commit, with the
# reply's trailer where git interpret-trailers puts it
oracle() {
	_mail=$1 _desc=$2; shift 2
	_mid=$(tr -d '\r' < "$_mail" | sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' | head -1)
	git -C "$TRASH/direct" reset -q --hard base
	git -C "$TRASH/lore" reset -q --hard base
	if ! git -C "$TRASH/direct" am -q "$@" "$_mail" >"$TRASH/am.err" 2>&1; then
		git -C "$TRASH/direct" am --abort 2>/dev/null
		ok 1 "$_desc (git am of the mail itself failed)"
		sed 's/^/# /' "$TRASH/am.err" | head -5
		return
	fi
	sed "s/<patch@example.com>/<$_mid>/" "$TRASH/reply" > "$TRASH/reply.eml"
	to_mbox "$TRASH/t.mbox" "$_mail" "$TRASH/reply.eml"
	"$LORE_AM" -q -m "$TRASH/t.mbox" "$_mid" > "$TRASH/out.mbx" 2>"$TRASH/lore.err"
	_st=$?
	if [ $_st -ne 0 ] || ! git -C "$TRASH/lore" am -q "$TRASH/out.mbx" >"$TRASH/am.err" 2>&1; then
		git -C "$TRASH/lore" am --abort 2>/dev/null
		ok 1 "$_desc (lore-am exit $_st, or git am of its output failed)"
		sed 's/^/# /' "$TRASH/lore.err" "$TRASH/am.err" | head -5
		return
	fi
	{ commit_of "$TRASH/direct" | head -2
	  git -C "$TRASH/direct" log -1 --format=%B |
		git interpret-trailers --trailer "Reviewed-by: Rev Iewer <rev@example.com>"
	} > "$TRASH/want"
	commit_of "$TRASH/lore" > "$TRASH/got"
	same_file "$TRASH/got" "$TRASH/want" "$_desc"
}

export TRASH
n=0
for layout in single inline xdiff xpatch plain octet; do
 for cte in 8bit qp base64; do
  for eol in lf crlf; do
   for cs in UTF-8 ISO-8859-1; do
	inbody=$((n & 1)) dashes=$(((n >> 1) & 1)) sc=$(((n >> 2) & 1))
	n=$((n + 1))
	perl "$TRASH/gen.pl" "$TRASH/m$n" $layout $cte $eol $cs $inbody $dashes $sc || exit 1
	desc="$layout $cte $eol $cs$([ $inbody = 1 ] && echo ' in-body')$([ $dashes = 1 ] && echo ' ---')$([ $sc = 1 ] && echo ' scissors')"
	if [ $sc = 1 ]; then oracle "$TRASH/m$n" "$desc" --scissors
	else oracle "$TRASH/m$n" "$desc"; fi
   done
  done
 done
done
