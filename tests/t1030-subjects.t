#!/bin/bash
# Subject forms real lists use, folded and RFC 2047-encoded subjects, a
# single patch without a cover letter, and a cover letter without 0/N.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 13

series_repo "$TRASH/repo" 3 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
files=("$P"/000[1-3]-*)

# rewrite_subjects PREFIX-FORMAT OUTDIR: PREFIX-FORMAT gets %d (i) and %d (n)
rewrite() {
	mkdir -p "$2"
	for i in 1 2 3; do
		pfx=$(printf "$1" "$i" 3)
		sed "s/^Subject: \[PATCH [0-9]\/3\]/Subject: $pfx/" "${files[$((i - 1))]}" > "$2/$i"
	done
}
try() {
	# try FORMAT EXPECTED-SUBJECT-PREFIX DESCRIPTION
	rm -rf "$TRASH/r"; rewrite "$1" "$TRASH/r"
	to_mbox "$TRASH/t.mbox" "$TRASH/r"/*
	"$LORE_AM" -q -m "$TRASH/t.mbox" "$(msgid_of "$TRASH/r/1")" > "$TRASH/o" 2>&1
	is "$(grep '^Subject:' "$TRASH/o" | head -1 | cut -d' ' -f2-4)" "$2" "$3"
}
try '[RFC PATCH net-next v2 %d\/%d]' '[PATCH RFC v2' "RFC, list tag and version"
try '[PATCH RESEND %d\/%d]' '[PATCH 1/3] part:' "RESEND is dropped"
try '[PATCHv3 %d\/%d]' '[PATCH v3 1/3]' "PATCHv3 is read as v3"
try '[PATCH 0%d\/0%d]' '[PATCH 1/3] part:' "zero-padded counters"

# a folded subject and an encoded one
sed -e '/^Subject:/{s/^Subject: .*/Subject: [PATCH 1\/3] a subject long enough that the mailer folded it/;a\
 onto a second line' -e '}' "${files[0]}" > "$TRASH/fold"
to_mbox "$TRASH/f.mbox" "$TRASH/fold" "${files[1]}" "${files[2]}"
"$LORE_AM" -q -m "$TRASH/f.mbox" "$(msgid_of "$TRASH/fold")" > "$TRASH/fo"
apply_into "$TRASH/fo" "$TRASH/fa"
is "$(git -C "$TRASH/fa" log --format=%s -1 HEAD~2)" \
   "a subject long enough that the mailer folded it onto a second line" "a folded subject is unfolded"
sed 's/^Subject: .*/Subject: =?UTF-8?q?=5BPATCH_1=2F3=5D_caf=C3=A9=3A_add_cr=C3=A8me?=/' "${files[0]}" > "$TRASH/enc"
to_mbox "$TRASH/e.mbox" "$TRASH/enc" "${files[1]}" "${files[2]}"
"$LORE_AM" -q -m "$TRASH/e.mbox" "$(msgid_of "$TRASH/enc")" > "$TRASH/eo"
apply_into "$TRASH/eo" "$TRASH/ea"
is "$(git -C "$TRASH/ea" log --format=%s -1 HEAD~2)" "café: add crème" "an RFC 2047 subject is decoded"

# a single patch without a cover letter
(cd "$TRASH/repo" && git format-patch -q -1 -o "$TRASH/single" topic)
to_mbox "$TRASH/s.mbox" "$TRASH/single"/*
sid=$(sed -n 's/^From \([0-9a-f]*\) .*/\1/p' "$TRASH/single"/* | head -1)
printf 'Message-Id: <single@example.com>\n' > "$TRASH/hdr"
sed -i '/^Subject:/r '"$TRASH/hdr" "$TRASH/s.mbox"
"$LORE_AM" -m "$TRASH/s.mbox" single@example.com > "$TRASH/so" 2> "$TRASH/se"
is "$?" 0 "a single patch without a cover letter"
is "$(grep '^Subject:' "$TRASH/so")" "Subject: [PATCH] part: add piece 3" "keeps a plain [PATCH] subject"
check "no cover letter claimed" sh -c "! grep -q 'Cover:' '$TRASH/se'"

# a cover letter without 0/N: the patches answer a same-author message
# that has a diffstat and no diff
{
	echo "From: Pat Contributor <pat@example.com>"
	echo "Subject: About these patches"
	echo "Date: Mon, 1 Jan 2024 00:00:00 +0000"
	echo "Message-Id: <intro@example.com>"
	echo
	echo "An introduction."
	echo
	echo " part1.c | 1 +"
	echo " 3 files changed, 3 insertions(+)"
} > "$TRASH/intro"
for i in 1 2 3; do
	sed "s/^In-Reply-To: .*/In-Reply-To: <intro@example.com>/; s/^References: .*/References: <intro@example.com>/" \
		"${files[$((i - 1))]}" > "$TRASH/n$i"
done
to_mbox "$TRASH/n.mbox" "$TRASH/intro" "$TRASH/n1" "$TRASH/n2" "$TRASH/n3"
"$LORE_AM" -m "$TRASH/n.mbox" -o "$TRASH/nout" intro@example.com > /dev/null 2> "$TRASH/ne"
is "$?" 0 "a series under a cover letter without 0/N"
check "the same-author root with a diffstat is the cover letter" grep -q 'Cover:' "$TRASH/ne"
check "and is written to the .cover file" grep -q 'An introduction' "$TRASH/nout"/*.cover
sed -i 's/^From: .*/From: Someone Else <else@example.com>/' "$TRASH/intro"
to_mbox "$TRASH/n2.mbox" "$TRASH/intro" "$TRASH/n1" "$TRASH/n2" "$TRASH/n3"
"$LORE_AM" -m "$TRASH/n2.mbox" -o "$TRASH/nout2" intro@example.com > /dev/null 2> "$TRASH/ne2"
check "another author's message is not taken for the cover letter" sh -c "! grep -q 'Cover:' '$TRASH/ne2'"
done_testing
