#!/bin/bash
# Bodies as mailers send them: base64 and quoted-printable, other charsets,
# CRLF, in-body From:/Subject:, a commit message line starting with "From ",
# patches as text/x-patch attachments, scissors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 15

R=$TRASH/repo
series_repo "$R" 1 >/dev/null
fmt "$R" "$TRASH/p"
p=$(ls "$TRASH/p"/*)
id=$(msgid_of "$p")
hdrs=$(sed '/^$/q' "$p" | grep -v -e '^MIME-Version' -e '^Content-')
body=$(sed '1,/^$/d' "$p")

roundtrip() {
	# roundtrip FILE DESCRIPTION: lore-am + git am give the original commit
	to_mbox "$TRASH/rt.mbox" "$1"
	rm -rf "$TRASH/rt"
	"$LORE_AM" -q -m "$TRASH/rt.mbox" "$id" > "$TRASH/rt.mbx" &&
	apply_into "$TRASH/rt.mbx" "$TRASH/rt" >/dev/null 2>&1
	if [ $? -eq 0 ] &&
	   [ "$(git -C "$TRASH/rt" rev-parse HEAD^{tree})" = "$(git -C "$R" rev-parse topic^{tree})" ] &&
	   [ "$(git -C "$TRASH/rt" log -1 --format=%B)" = "$(git -C "$R" log -1 --format=%B topic)" ]
	then ok 0 "$2"; else ok 1 "$2"; fi
}

{ echo "$hdrs"; echo "MIME-Version: 1.0"; echo "Content-Type: text/plain; charset=utf-8"
  echo "Content-Transfer-Encoding: base64"; echo; printf '%s\n' "$body" | base64; } > "$TRASH/b64"
roundtrip "$TRASH/b64" "a base64 body is decoded"

{ echo "$hdrs"; echo "MIME-Version: 1.0"; echo "Content-Type: text/plain; charset=utf-8"
  echo "Content-Transfer-Encoding: quoted-printable"; echo
  printf '%s\n' "$body" | perl -MMIME::QuotedPrint -0777 -ne 'print encode_qp($_)'; } > "$TRASH/qp"
roundtrip "$TRASH/qp" "a quoted-printable body is decoded"

sed 's/$/\r/' "$p" > "$TRASH/crlf"
roundtrip "$TRASH/crlf" "CRLF line ends are stripped"

# ISO-8859-1: the author's name and the body in latin1
(cd "$R" && git checkout -q -b latin base && echo caf > cafe.c && git add cafe.c &&
 GIT_AUTHOR_NAME="José Núñez" GIT_AUTHOR_EMAIL=jose@example.com \
 git commit -q -m "cafe: add the café" -m "Ça marche très bien." &&
 git format-patch -q --thread=shallow -1 -o "$TRASH/lat" --encoding=UTF-8)
lf=$(ls "$TRASH/lat"/*)
lid=$(msgid_of "$lf")
sed -e 's/charset=UTF-8/charset=ISO-8859-1/' "$lf" | iconv -f UTF-8 -t ISO-8859-1 > "$TRASH/latin1"
to_mbox "$TRASH/l.mbox" "$TRASH/latin1"
"$LORE_AM" -q -m "$TRASH/l.mbox" "$lid" > "$TRASH/l.mbx"
check "the output is UTF-8" sh -c "iconv -f UTF-8 -t UTF-8 '$TRASH/l.mbx' >/dev/null"
apply_into "$TRASH/l.mbx" "$TRASH/la" "$R" >/dev/null 2>&1
is "$(git -C "$TRASH/la" log -1 --format='%an|%s|%b')" "José Núñez|cafe: add the café|Ça marche très bien." "a latin1 message is converted to UTF-8"

# in-body From: and Subject: override the mail's headers, as git am does
{ echo "$hdrs" | sed 's/^From: .*/From: Sender Proxy <proxy@example.com>/; s/^Subject: .*/Subject: [PATCH] not this one/'
  echo; echo "From: Real Author <real@example.com>"; echo "Subject: the real subject"; echo
  printf '%s\n' "$body"; } > "$TRASH/inbody"
to_mbox "$TRASH/ib.mbox" "$TRASH/inbody"
"$LORE_AM" -q -m "$TRASH/ib.mbox" "$id" > "$TRASH/ib.mbx"
check "the output's From is the in-body author" grep -q '^From: Real Author <real@example.com>' "$TRASH/ib.mbx"
check "the output's Subject is the in-body subject" grep -q '^Subject: \[PATCH\] the real subject' "$TRASH/ib.mbx"
apply_into "$TRASH/ib.mbx" "$TRASH/iba" >/dev/null 2>&1
is "$(git -C "$TRASH/iba" log -1 --format='%an <%ae>|%s')" "Real Author <real@example.com>|the real subject" \
   "git am records the in-body author and subject"

# scissors: everything above "-- >8 --" is not for the commit
{ echo "$hdrs"; echo; echo "Hi, here is the patch we talked about."; echo
  echo "-- >8 --"; printf '%s\n' "$body"; } > "$TRASH/sc"
roundtrip "$TRASH/sc" "text above a scissors line is dropped"

# a commit message line that begins with "From "
(cd "$R" && git checkout -q -b fromline base && echo x > x.c && git add x.c &&
 git commit -q -m "x: add x" -m "From now on, x exists.
From the start it was meant to." &&
 git format-patch -q --thread=shallow -1 -o "$TRASH/fl")
ff=$(ls "$TRASH/fl"/*); fid=$(msgid_of "$ff")
to_mbox "$TRASH/fl.mbox" "$ff"
"$LORE_AM" -q -m "$TRASH/fl.mbox" "$fid" > "$TRASH/fl.mbx"
apply_into "$TRASH/fl.mbx" "$TRASH/fla" "$R" >/dev/null 2>&1
is "$(git -C "$TRASH/fla" log -1 --format=%b)" "From now on, x exists.
From the start it was meant to." "a 'From ' line in the commit message survives git am"
"$LORE_AM" -q --mboxrd -m "$TRASH/fl.mbox" "$fid" > "$TRASH/fl.rd"
check "--mboxrd escapes it" grep -q '^>From now on' "$TRASH/fl.rd"
(cd "$TRASH/fla" && git reset -q --hard base && git am -q --patch-format=mboxrd "$TRASH/fl.rd")
is "$(git -C "$TRASH/fla" log -1 --format=%b)" "From now on, x exists.
From the start it was meant to." "and git am --patch-format=mboxrd restores it"

# the patch as a text/x-patch attachment
{ echo "$hdrs"; echo "MIME-Version: 1.0"
  echo 'Content-Type: multipart/mixed; boundary="b0undary"'; echo
  echo "--b0undary"; echo "Content-Type: text/plain; charset=utf-8"; echo
  echo "Please find the patch attached."; echo
  echo "--b0undary"; echo 'Content-Type: text/x-patch; name="fix.patch"'
  echo 'Content-Disposition: attachment; filename="fix.patch"'
  echo "Content-Transfer-Encoding: base64"; echo
  printf '%s\n' "$body" | base64; echo "--b0undary--"; } > "$TRASH/att"
# git am takes the text above the attachment into the message: so do we
as_git_am() {
	# as_git_am FILE DESCRIPTION: lore-am + git am give what git am gives
	rm -rf "$TRASH/ga" "$TRASH/rt"
	to_mbox "$TRASH/rt.mbox" "$1"
	git clone -q "$R" "$TRASH/ga" && git -C "$TRASH/ga" checkout -q base -b am &&
	git -C "$TRASH/ga" am -q "$1" &&
	"$LORE_AM" -q -m "$TRASH/rt.mbox" "$id" > "$TRASH/rt.mbx" &&
	apply_into "$TRASH/rt.mbx" "$TRASH/rt" >/dev/null 2>&1
	if [ $? -eq 0 ] &&
	   [ "$(git -C "$TRASH/rt" rev-parse HEAD^{tree})" = "$(git -C "$R" rev-parse topic^{tree})" ] &&
	   [ "$(git -C "$TRASH/rt" log -1 --format=%B)" = "$(git -C "$TRASH/ga" log -1 --format=%B)" ] &&
	   git -C "$TRASH/rt" log -1 --format=%B | grep -q '^Please find the patch attached'
	then ok 0 "$2"; else ok 1 "$2"; fi
}
as_git_am "$TRASH/att" "a text/x-patch attachment is the patch, the text above it the message"
sed 's/text\/x-patch/text\/x-diff/' "$TRASH/att" > "$TRASH/att2"
as_git_am "$TRASH/att2" "so is text/x-diff"

# output headers are what b4 writes
"$LORE_AM" -q -m "$TRASH/rt.mbox" "$id" > "$TRASH/h.mbx"
is "$(sed -n '2,/^$/p' "$TRASH/h.mbx" | cut -d: -f1 | tr '\n' ' ')" \
   "Subject From Date Message-Id MIME-Version Content-Type Content-Transfer-Encoding  " \
   "output headers in b4's order"
done_testing
