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
# | bytes | a CR inside a patched line, a Latin-1 byte in a patched file, CRLF lines of a patched file in base64 and quoted-printable (git am's default `--quoted-cr=warn` keeps them) |
# | in-body | `>From <sha>` format-patch line at the top, a blank line ends in-body headers, the first of two in-body From: wins, `----- >8` |
# | format=flowed | soft breaks and space stuffing on every line of the part (the patch's too), `delsp=yes` (breaks inside words) in quoted-printable, a flowed message part beside a patch attachment |
#
# Where lore-am and git disagree on purpose there is a row here too: an
# unescaped "From <sha>" line at the top of the body (git am splits the
# mail there) gives the in-body author and subject.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 116

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
	"$LORE_AM" -q ${lore_opt:-} -m "$TRASH/t.mbox" "$_mid" > "$TRASH/out.mbx" 2>"$TRASH/lore.err"
	_st=$?
	if [ $_st -ne 0 ] || ! git -C "$TRASH/lore" am -q ${am_opt:-} "$TRASH/out.mbx" >"$TRASH/am.err" 2>&1; then
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

# mail OUT FROM SUBJECT BODY-FILE [HEADER...]: a plain 8bit patch mail
mail() {
	_o=$1 _f=$2 _s=$3 _b=$4; shift 4
	{ echo "From: $_f"; echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
	  echo "Subject: $_s"; echo "Message-Id: <patch@example.com>"
	  for h in "$@"; do echo "$h"; done
	  echo "MIME-Version: 1.0"; echo "Content-Type: text/plain; charset=UTF-8"
	  echo "Content-Transfer-Encoding: 8bit"; echo; cat "$_b"; } > "$_o"
}
{ cat "$TRASH/msg"; echo "---"; cat "$TRASH/stat"; echo; cat "$TRASH/diff"; } > "$TRASH/b.plain"

# the mailers
(cd "$R" && git format-patch -q -1 --thread --attach --stdout topic) > "$TRASH/fp-attach"
oracle "$TRASH/fp-attach" "git format-patch --attach"
(cd "$R" && git format-patch -q -1 --thread --inline --stdout topic) > "$TRASH/fp-inline"
oracle "$TRASH/fp-inline" "git format-patch --inline"
printf '#!/bin/sh\ncat > "%s"\n' "$TRASH/sent" > "$TRASH/catmail" && chmod +x "$TRASH/catmail"
(cd "$R" && git send-email -q --attach --confirm=never --to=list@example.org \
	--from="José Núñez <jose@example.com>" \
	--smtp-server="$TRASH/catmail" -1 topic </dev/null >/dev/null 2>&1)
oracle "$TRASH/sent" "git send-email --attach"
{ echo "From: =?utf-8?q?Jos=C3=A9_N=C3=BA=C3=B1ez?= <jose@example.com>"
  echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
  echo "Subject: [PATCH] file: change line 5 for the =?utf-8?q?caf=C3=A9?="
  echo "Message-Id: <outlook@example.com>"; echo "MIME-Version: 1.0"
  echo 'Content-Type: multipart/alternative; boundary="_000_DB9PR_"'; echo
  echo "--_000_DB9PR_"; echo 'Content-Type: text/plain; charset="utf-8"'
  echo "Content-Transfer-Encoding: quoted-printable"; echo
  perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)' "$TRASH/b.plain"
  echo; echo "--_000_DB9PR_"; echo 'Content-Type: text/html; charset="utf-8"'
  echo "Content-Transfer-Encoding: quoted-printable"; echo
  echo '<html><body><p>Ça marche tr=C3=A8s bien</p><pre>diff --git a/file.c b/file.c</pre></body></html>'
  echo "--_000_DB9PR_--"; } | sed 's/$/\r/' > "$TRASH/outlook"
oracle "$TRASH/outlook" "Outlook: multipart/alternative, quoted-printable, CRLF, HTML"
{ echo "From: =?UTF-8?B?Sm9zw6kgTsO6w7Flxq8=?= <jose@example.com>" | sed 's/Sm9zw6kgTsO6w7Flxq8=/Sm9zw6kgTsO6w7Fleg==/'
  echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
  echo "Subject: [PATCH] file: change line 5"; echo "Message-Id: <tb@example.com>"
  echo "User-Agent: Mozilla/5.0 Thunderbird/115.0"; echo "MIME-Version: 1.0"
  echo 'Content-Type: multipart/mixed; boundary="------------tb0"'; echo
  echo "This is a multi-part message in MIME format."
  echo "--------------tb0"; echo "Content-Type: text/plain; charset=UTF-8; format=flowed"
  echo "Content-Transfer-Encoding: 8bit"; echo; echo "Hi,"; echo; echo "here is the fix."; echo
  echo "--------------tb0"; echo 'Content-Type: text/x-patch; charset=UTF-8; name="0001-file.patch"'
  echo 'Content-Disposition: attachment; filename="0001-file.patch"'
  echo "Content-Transfer-Encoding: base64"; echo; base64 "$TRASH/fp"; echo
  echo "--------------tb0--"; } > "$TRASH/tb"
# git takes the attached file's "From <sha>" line into the message: only
# an mboxrd keeps such a line (lore-am says so)
lore_opt=--mboxrd am_opt=--patch-format=mboxrd \
	oracle "$TRASH/tb" "Thunderbird: a whole format-patch file attached, base64 (--mboxrd)"

# format=flowed (RFC 3676), as git mailinfo unwraps it on every line of the
# part: soft breaks (a line ending in a space) in the message, without that
# space under delsp=yes (there the break may cut a word), and every line
# that starts with a space stuffed with one more, the patch's context too
cat > "$TRASH/flow.pl" <<'EOF'
# flow.pl DELSP < BODY: the body as a format=flowed mailer sends it
my $delsp = shift; my $msg = 1;
while (my $l = <STDIN>) {
	chomp $l;
	$msg = 0 if $l =~ /^---/;
	$l =~ s/^ /  /;
	if ($msg && $l =~ /^\S/ && length($l) > 24) {
		if ($delsp) { $l = substr($l, 0, 12) . " \n" . substr($l, 12) }
		else { $l =~ s/^(.{10,}?) /$1 \n/ }
	}
	print "$l\n";
}
EOF
perl "$TRASH/flow.pl" 0 < "$TRASH/b.plain" > "$TRASH/b.flowed"
mail "$TRASH/f1" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.flowed"
sed -i 's/^Content-Type: text\/plain; charset=UTF-8$/&; format=flowed/' "$TRASH/f1"
oracle "$TRASH/f1" "format=flowed: soft breaks and space-stuffed lines, the patch's too"
perl "$TRASH/flow.pl" 1 < "$TRASH/b.plain" > "$TRASH/b.delsp"
{ sed -n '1,/^$/p' "$TRASH/f1" | sed -e 's/format=flowed$/format=flowed; delsp=yes/' \
	-e 's/^Content-Transfer-Encoding: 8bit$/Content-Transfer-Encoding: quoted-printable/'
  perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)' "$TRASH/b.delsp"; } > "$TRASH/f2"
oracle "$TRASH/f2" "format=flowed; delsp=yes, quoted-printable: breaks inside words"
{ cat "$TRASH/msg"; echo "---"; } | perl "$TRASH/flow.pl" 0 > "$TRASH/m.flowed"
{ echo "From: Pat <jose@example.com>"; echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
  echo "Subject: [PATCH] x"; echo "Message-Id: <patch@example.com>"; echo "MIME-Version: 1.0"
  echo 'Content-Type: multipart/mixed; boundary="fl0"'; echo; echo "--fl0"
  echo "Content-Type: text/plain; charset=UTF-8; format=flowed"; echo "Content-Transfer-Encoding: 8bit"
  echo; cat "$TRASH/m.flowed"; echo "--fl0"
  echo 'Content-Type: text/x-patch; charset=UTF-8; name="x.patch"'
  echo "Content-Transfer-Encoding: 8bit"; echo; cat "$TRASH/stat"; echo; cat "$TRASH/diff"
  echo "--fl0--"; } > "$TRASH/f3"
oracle "$TRASH/f3" "a format=flowed message part and a patch attachment, which is not flowed"

# From: read by git's rules
mail "$TRASH/c1" "A (zzz) U Thor <jose@example.com> (Comment)" "[PATCH] x" "$TRASH/b.plain"
oracle "$TRASH/c1" "From: with comments"
mail "$TRASH/c2" "<jose@example.com> (A U Thor)" "[PATCH] x" "$TRASH/b.plain"
oracle "$TRASH/c2" "From: <addr> (Name)"
mail "$TRASH/c3" "A U Thor <jose@example.com> (unterminated" "[PATCH] x" "$TRASH/b.plain"
oracle "$TRASH/c3" "From: with an unterminated comment"
mail "$TRASH/c4" "Pat <jose@example.com>" "[PATCH] =?UTF-8?B?SGVsbG8=?= =?UTF-8?B?IHdvcmxk?=" "$TRASH/b.plain"
oracle "$TRASH/c4" "adjacent base64 words, the first ending in '='"
"$LORE_AM" -q -m "$TRASH/t.mbox" patch@example.com 2>/dev/null | grep -q '^Subject: \[PATCH\] Hello world$'
ok $? "and the subject is 'Hello world'"
mail "$TRASH/c5" "Pat <jose@example.com>" "[PATCH] =?utf-8?b?0J/RgNC40LI=?= =?utf-8?b?0LXRgiDQvNC4?= =?utf-8?b?0YA=?=" "$TRASH/b.plain"
oracle "$TRASH/c5" "a Cyrillic subject in three base64 words"

# bytes of the patched files: a CR inside a line, a Latin-1 byte
(cd "$R" && git checkout -q -b cr base && printf 'one\rtwo\nthree\n' > cr.txt &&
 git add cr.txt && git commit -q -m "cr: add a file with a CR inside a line" \
	-m "Signed-off-by: Pat <jose@example.com>" &&
 git format-patch -q -1 --thread --stdout) > "$TRASH/cr"
oracle "$TRASH/cr" "a CR inside a patched line survives the added trailer"
(cd "$R" && git checkout -q -b latin base && printf 'caf\351\n' > latin.txt &&
 git add latin.txt && git commit -q -m "latin: add a Latin-1 file" \
	-m "Signed-off-by: Pat <jose@example.com>" &&
 git format-patch -q -1 --thread --stdout) > "$TRASH/latin"
oracle "$TRASH/latin" "a Latin-1 byte in a patched file stays that byte"

# a file with CRLF lines: the patch's CRs survive git send-email only in
# base64 or quoted-printable, and git am (--quoted-cr=warn) applies them
(cd "$R" && git checkout -q -b dos base && printf 'one\r\ntwo\r\n' > dos.txt &&
 git add dos.txt && git commit -q -m "dos: add a file with CRLF lines" \
	-m "Signed-off-by: Pat <jose@example.com>" &&
 git format-patch -q -1 --thread --stdout) > "$TRASH/dos"
for cte in base64 quoted-printable; do
	{ sed -n '1,/^$/p' "$TRASH/dos" | sed '/^$/d'
	  echo "MIME-Version: 1.0"; echo "Content-Type: text/plain; charset=UTF-8"
	  echo "Content-Transfer-Encoding: $cte"; echo
	  if [ $cte = base64 ]; then sed '1,/^$/d' "$TRASH/dos" | base64
	  else sed '1,/^$/d' "$TRASH/dos" | perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)'; fi
	} > "$TRASH/q-$cte"
	oracle "$TRASH/q-$cte" "CRLF lines of a patched file, in $cte, keep their CRs"
done
check "written in base64, where git am's mailsplit keeps the CRs" \
	grep -qx 'Content-Transfer-Encoding: base64' "$TRASH/out.mbx"

# in-body headers
sha=$(git -C "$R" rev-parse topic)
{ echo ">From $sha Mon Sep 17 00:00:00 2001"; echo "From: In Body <inbody@example.com>"
  echo "Date: Wed, 4 Jan 2023 12:00:00 +0200"; echo "Subject: [PATCH] in-body subject"
  echo; cat "$TRASH/b.plain"; } > "$TRASH/b.sep"
mail "$TRASH/i1" "Sender Proxy <proxy@example.com>" "[PATCH] outer" "$TRASH/b.sep"
oracle "$TRASH/i1" "a '>From <sha>' line above in-body headers is skipped"
{ echo "From: In Body <inbody@example.com>"; echo; echo "Subject: stays in the message"
  echo; cat "$TRASH/b.plain"; } > "$TRASH/b.blank"
mail "$TRASH/i2" "Sender Proxy <proxy@example.com>" "[PATCH] outer" "$TRASH/b.blank"
oracle "$TRASH/i2" "a blank line ends the in-body headers"
{ echo "From: First <first@example.com>"; echo "From: Second <second@example.com>"
  echo; cat "$TRASH/b.plain"; } > "$TRASH/b.two"
mail "$TRASH/i3" "Sender Proxy <proxy@example.com>" "[PATCH] outer" "$TRASH/b.two"
oracle "$TRASH/i3" "the first of two in-body From: lines wins"
{ echo "Hello there."; echo "----- >8"; echo; cat "$TRASH/b.plain"; } > "$TRASH/b.short"
mail "$TRASH/i4" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.short"
oracle "$TRASH/i4" "'----- >8' as git --scissors reads it" --scissors

# on purpose unlike git: an unescaped format-patch "From <sha>" line at
# the top of the body (a pasted patch file) is skipped, not a second mail
sed 's/^>From /From /' "$TRASH/b.sep" > "$TRASH/b.sep2"
mail "$TRASH/i5" "Sender Proxy <proxy@example.com>" "[PATCH] outer" "$TRASH/b.sep2"
mkdir -p "$TRASH/md/cur" "$TRASH/md/new" "$TRASH/md/tmp" && cp "$TRASH/i5" "$TRASH/md/cur/1:2,S"
"$LORE_AM" -q -m "$TRASH/md" patch@example.com < "$TRASH/i5" > "$TRASH/i5.mbx" 2>/dev/null
is "$(grep -c '^From ' "$TRASH/i5.mbx")" 1 "a 'From <sha>' line at the top is not written"
is "$(sed -n 's/^\(From\|Subject\): //p' "$TRASH/i5.mbx" | tr '\n' '|')" \
   "[PATCH] in-body subject|In Body <inbody@example.com>|" "the in-body author and subject after it are taken"

# a 7-bit stateful charset (ISO-2022-JP, as UTF-7 and HZ) is valid UTF-8
# as it stands and must still be converted: an encoded word in From: in
# the form of git's t5100 sample 0004 ("Name / =?ISO-2022-JP?B?...?="), and
# the message in that charset, in a single part and beside an attached diff
cat > "$TRASH/jis.pl" <<'EOF'
# jis.pl OUT LAYOUT: a patch mail from a Japanese author, in ISO-2022-JP
use strict; use warnings; use utf8;
use Encode; use MIME::Base64;
my ($out, $layout) = @ARGV;
my $dir = $ENV{TRASH};
sub slurp { local $/; open my $f, '<', "$dir/$_[0]" or die; my $s = <$f>; return $s }
my $word = encode_base64(encode('iso-2022-jp', "山田太郎"), '');
my $msg = encode('iso-2022-jp', "五行目を数字でなく言葉で書く。\n\n" .
		 "Signed-off-by: 山田太郎 <taro\@example.com>\n");
my $patch = "---\n" . slurp('stat') . "\n" . slurp('diff');
my $mail = "From: Taro YAMADA / =?ISO-2022-JP?B?$word?= <taro\@example.com>\n" .
	   "Date: Tue, 3 Jan 2023 11:00:00 +0900\nSubject: [PATCH] file: change line 5\n" .
	   "Message-Id: <patch\@example.com>\nMIME-Version: 1.0\n";
my $jis = "Content-Type: text/plain; charset=ISO-2022-JP\nContent-Transfer-Encoding: 7bit\n\n";
if ($layout eq 'single') {
	$mail .= "$jis$msg$patch";
} else {
	$mail .= "Content-Type: multipart/mixed; boundary=\"jb\"\n\n--jb\n$jis$msg\n--jb\n" .
		 "Content-Type: text/x-patch; charset=us-ascii; name=\"x.patch\"\n\n$patch\n--jb--\n";
}
open my $f, '>', $out or die; binmode $f; print $f $mail;
EOF
perl "$TRASH/jis.pl" "$TRASH/j1" single || exit 1
oracle "$TRASH/j1" "ISO-2022-JP: an encoded word in From: and the message part"
is "$(git -C "$TRASH/lore" log -1 --format='%an <%ae>')" \
   "Taro YAMADA / 山田太郎 <taro@example.com>" "and the author is the name, converted"
perl "$TRASH/jis.pl" "$TRASH/j2" multi || exit 1
oracle "$TRASH/j2" "ISO-2022-JP: the message part beside an attached diff"

# the first line of the last paragraph keeps its indentation after two
# blank lines (a diffstat quoted in the message, then the diff)
{ echo "intro"; echo; echo; echo "  indented one"; echo "  indented two"; echo "---"
  cat "$TRASH/stat"; echo; cat "$TRASH/diff"; } > "$TRASH/b.ind"
mail "$TRASH/n1" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.ind"
oracle "$TRASH/n1" "an indented paragraph after two blank lines keeps its indentation"
{ echo "The changes:"; echo; echo; cat "$TRASH/stat"; cat "$TRASH/diff"; } > "$TRASH/b.ind2"
mail "$TRASH/n2" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.ind2"
oracle "$TRASH/n2" "a diffstat quoted after two blank lines, the diff right after it"

# a "-- " signature between the message and the diff is part of the
# message for git am; new trailers go where git interpret-trailers puts
# them (after it when git sees one trailer block, else a paragraph on)
sob="Signed-off-by: Pat <jose@example.com>"
printf 'intro\n-- \nPat, the signature\n\n' > "$TRASH/b.s1"
printf 'intro\n\n%s\n-- \nPat, the signature\n\n' "$sob" > "$TRASH/b.s2"
printf 'intro\n\n%s\n-- \nPat\nthe signature\nin three lines\n---\n' "$sob" > "$TRASH/b.s3"
printf 'intro\n\n%s\n\n-- \nPat, the signature\n' "$sob" > "$TRASH/b.s4"
for s in 1 2 3 4; do
	cat "$TRASH/diff" >> "$TRASH/b.s$s"
	mail "$TRASH/s$s" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.s$s"
done
oracle "$TRASH/s1" "a '-- ' signature glued to the message, above the diff"
oracle "$TRASH/s2" "a '-- ' signature under the Signed-off-by (one trailer block for git)"
oracle "$TRASH/s3" "a longer '-- ' signature under the Signed-off-by (no trailer block for git)"
oracle "$TRASH/s4" "a '-- ' signature in a paragraph of its own"

# a list's footer sent as a MIME part of its own after the patch (as
# Mailman adds it to a mail that is not us-ascii) is no part of the patch
# (b4's and patchwork's reading; git am's commit is the same), whatever
# the patch part's charset and encoding
for cs in us-ascii:7bit UTF-8:quoted-printable ISO-8859-1:base64; do
	{ echo "From: Pat <jose@example.com>"; echo "Date: Tue, 3 Jan 2023 11:00:00 +0000"
	  echo "Subject: [PATCH] x"; echo "Message-Id: <patch@example.com>"; echo "MIME-Version: 1.0"
	  echo 'Content-Type: multipart/mixed; boundary="===ft=="'; echo; echo "--===ft=="
	  echo "Content-Type: text/plain; charset=${cs%:*}"; echo "Content-Transfer-Encoding: ${cs#*:}"; echo
	  case ${cs#*:} in
	  7bit) iconv -f UTF-8 -t US-ASCII//TRANSLIT "$TRASH/b.plain" ;;
	  base64) iconv -f UTF-8 -t ISO-8859-1 "$TRASH/b.plain" | base64 ;;
	  *) perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)' "$TRASH/b.plain" ;;
	  esac
	  echo "--===ft=="; echo 'Content-Type: text/plain; charset="us-ascii"'; echo "Content-Disposition: inline"; echo
	  echo "_______________________________________________"; echo "Foo mailing list"
	  echo "foo@lists.example.org"; echo "--===ft==--"; } > "$TRASH/ft"
	oracle "$TRASH/ft" "a footer part after a ${cs%:*} ${cs#*:} patch part"
	check "and it is not in the patch written" sh -c "! grep -q 'mailing list' '$TRASH/out.mbx'"
done

# a trailer's name in quotes stays as written (git am and b4 keep it)
{ echo "intro"; echo; echo 'Signed-off-by: "Pat Q. Doe" <jose@example.com>'; echo "---"
  cat "$TRASH/stat"; echo; cat "$TRASH/diff"; } > "$TRASH/b.q"
mail "$TRASH/q1" "Pat <jose@example.com>" "[PATCH] x" "$TRASH/b.q"
oracle "$TRASH/q1" "a Signed-off-by with a quoted name"
# on purpose unlike git: a charset nobody knows ("none", as a mailer of
# patchwork's test mails wrote) stops git am ("cannot convert from none
# to UTF-8"); lore-am reads the part as UTF-8, invalid bytes as U+FFFD
sed 's/^Content-Type: text\/plain; charset=UTF-8$/Content-Type: text\/plain; charset="none"/' \
	"$TRASH/c1" > "$TRASH/none"
git -C "$TRASH/direct" reset -q --hard base
if git -C "$TRASH/direct" am -q "$TRASH/none" >/dev/null 2>&1; then st=1; else st=0; fi
git -C "$TRASH/direct" am --abort 2>/dev/null
ok $st "git am refuses a part in charset \"none\""
to_mbox "$TRASH/t.mbox" "$TRASH/none"
"$LORE_AM" -q -m "$TRASH/t.mbox" patch@example.com > "$TRASH/none.mbx" 2>/dev/null &&
	git -C "$TRASH/lore" reset -q --hard base &&
	git -C "$TRASH/lore" am -q "$TRASH/none.mbx" >/dev/null 2>&1
ok $? "lore-am writes it, and git am applies that"
is "$(git -C "$TRASH/lore" log -1 --format=%b | head -1)" "Ça marche très bien, dit José." \
   "with the message as it was sent"
done_testing
