#!/bin/bash
# Copies of one Message-ID (the same mail from two lists, twice in a
# folder): the copy used never follows the order the mailbox holds them
# in. Each case is run with the copies in both orders (maildir file names,
# two -m folders given both ways), with the index and without, and the
# outputs must be byte-identical and made of the copy the rule names:
# lore-am.listid-preference (b4.listid-preference), then the fewest list
# changes (List-* fields, a subject tag, a footer), then the lowest
# SHA-256 of the bytes. (The signature rule: t1013.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-index.sh"
plan 21

series_repo "$TRASH/repo" 2 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
for f in "$P"/*.patch; do sed -i '1{/^From /d;}' "$f"; done
p1=$P/0001-part-add-piece-1.patch
id1=$(msgid_of "$p1")
reply "$TRASH/r1" "$p1" "Rita Reviewer <rita@example.com>" \
	"Reviewed-by: Rita Reviewer <rita@example.com>"

# listcopy OUT LIST [tag] [footer] [more]: patch 1 as list LIST delivers
# it: a List-Id, with "more" also List-Post and List-Unsubscribe, with
# "tag" a "[LIST] " subject tag, with "footer" a Mailman footer
listcopy() {
	_out=$1 _list=$2; shift 2
	LIST=$_list TAG=0 FOOTER=0 MORE=0
	for o in "$@"; do case $o in tag) TAG=1 ;; footer) FOOTER=1 ;; more) MORE=1 ;; esac; done
	LIST=$_list TAG=$TAG FOOTER=$FOOTER MORE=$MORE perl -0777 -pe '
		my ($h, $b) = split /\n\n/, $_, 2;
		my $l = $ENV{LIST};
		$h =~ s/^Subject: /Subject: [$l] /m if $ENV{TAG};
		$h .= "\nList-Id: $l discussion <$l.lists.example.org>";
		$h .= "\nList-Post: <mailto:$l\@lists.example.org>\nList-Unsubscribe: <mailto:$l-leave\@lists.example.org>" if $ENV{MORE};
		$b .= "_______________________________________________\n$l mailing list\n$l\@lists.example.org\n" if $ENV{FOOTER};
		$_ = "$h\n\n$b";' "$p1" >"$_out"
}
listcopy "$TRASH/a.eml" alpha tag footer more
listcopy "$TRASH/b.eml" beta

# folder DIR FIRST SECOND: a maildir with the cover letter, patch 2, the
# reply and the two copies of patch 1, FIRST under the name that sorts
# first
folder() {
	mkdir -p "$1/cur" "$1/new" "$1/tmp"
	cp "$P/0000-cover-letter.patch" "$1/cur/10.host:2,S"
	cp "$2" "$1/cur/11.host:2,S"
	cp "$3" "$1/cur/12.host:2,S"
	cp "$P/0002-part-add-piece-2.patch" "$1/cur/13.host:2,S"
	cp "$TRASH/r1" "$1/cur/14.host:2,S"
}
folder "$TRASH/ab" "$TRASH/a.eml" "$TRASH/b.eml"
folder "$TRASH/ba" "$TRASH/b.eml" "$TRASH/a.eml"

# both MD1 MD2 NAME ARGS...: lore-am on each folder, with its index and
# without; NAME.out is the first output, and all four must be the same
both() {
	_a=$1 _b=$2 _n=$3; shift 3
	"$LORE_AM" -q "$@" -m "$_a" "$id1" >"$TRASH/$_n.out" 2>"$TRASH/$_n.err"
	for _m in "$_a" "$_b"; do
		"$LORE_AM" -q "$@" -m "$_m" "$id1" >"$TRASH/$_n.1" 2>/dev/null
		"$LORE_AM" -q --no-index "$@" -m "$_m" "$id1" >"$TRASH/$_n.2" 2>/dev/null
		cmp -s "$TRASH/$_n.1" "$TRASH/$_n.out" && cmp -s "$TRASH/$_n.2" "$TRASH/$_n.out" ||
			return 1
	done
	test -s "$TRASH/$_n.out"
}

# --- the fewest list changes: beta's copy (a List-Id, no tag, no footer)
both "$TRASH/ab" "$TRASH/ba" few
ok $? "both orders, index or not: the same bytes"
check "the copy with the fewest list changes is written (no footer)" \
	sh -c "! grep -q 'alpha mailing list' '$TRASH/few.out'"
check "the series is whole" test "$(grep -c '^Subject: \[PATCH' "$TRASH/few.out")" = 2
check "and the reply's trailer is added" grep -qx 'Reviewed-by: Rita Reviewer <rita@example.com>' "$TRASH/few.out"
both "$TRASH/ab" "$TRASH/ba" fewt --thread
ok $? "--thread: the same bytes in both orders"
check "--thread writes beta's copy, unchanged" grep -q '^List-Id: beta discussion <beta.lists.example.org>$' "$TRASH/fewt.out"
is "$(grep -c "^Message-I[dD]: <$id1>" "$TRASH/fewt.out")" 1 "and only one copy of it"

# each measure alone: a subject tag, a footer, more List-* fields
listcopy "$TRASH/t.eml" gamma tag
listcopy "$TRASH/u.eml" delta
folder "$TRASH/tu" "$TRASH/t.eml" "$TRASH/u.eml"
folder "$TRASH/ut" "$TRASH/u.eml" "$TRASH/t.eml"
both "$TRASH/tu" "$TRASH/ut" tag --thread
check "a subject tag is a change: the untagged copy" grep -q '^List-Id: delta' "$TRASH/tag.out"
listcopy "$TRASH/f.eml" gamma footer
folder "$TRASH/fu" "$TRASH/f.eml" "$TRASH/u.eml"
folder "$TRASH/uf" "$TRASH/u.eml" "$TRASH/f.eml"
both "$TRASH/fu" "$TRASH/uf" foot --thread
check "a footer is a change: the copy without one" grep -q '^List-Id: delta' "$TRASH/foot.out"

# --- lore-am.listid-preference: alpha first, whatever it changed
git config --global lore-am.listid-preference 'alpha.lists.example.org, *'
both "$TRASH/ab" "$TRASH/ba" pref
ok $? "with a preference: the same bytes in both orders"
check "the preferred list's copy is written, footer and all" grep -q 'alpha mailing list' "$TRASH/pref.out"
git config --global --unset lore-am.listid-preference
git config --global b4.listid-preference '*.example.net,alpha.*'
both "$TRASH/ab" "$TRASH/ba" b4pref
check "b4.listid-preference when lore-am's is not set" grep -q 'alpha mailing list' "$TRASH/b4pref.out"
git config --global lore-am.listid-preference '*,alpha.lists.example.org'
both "$TRASH/ab" "$TRASH/ba" star
check "lore-am's wins over b4's, and '*' ranks last wherever it is written" \
	grep -q 'alpha mailing list' "$TRASH/star.out"
git config --global lore-am.listid-preference 'beta.lists.example.org'
both "$TRASH/ab" "$TRASH/ba" beta
check "a glob names its list exactly" sh -c "! grep -q 'alpha mailing list' '$TRASH/beta.out'"
git config --global --unset lore-am.listid-preference
git config --global --unset b4.listid-preference

# --- nothing else to choose by: the lowest SHA-256 of the bytes
for n in 1 2; do
	sed "s/^Subject: /X-Seq: $n\nSubject: /" "$TRASH/b.eml" >"$TRASH/s$n.eml"
done
folder "$TRASH/s12" "$TRASH/s1.eml" "$TRASH/s2.eml"
folder "$TRASH/s21" "$TRASH/s2.eml" "$TRASH/s1.eml"
both "$TRASH/s12" "$TRASH/s21" sum --thread
ok $? "two copies that differ in one byte: the same bytes in both orders"
# the bytes as a mailbox keeps them: CRLF as LF, no blank lines at the end
low=$(for n in 1 2; do
	echo "$(perl -0777 -pe 's/\r\n/\n/g; s/[\r\n]+\z//' "$TRASH/s$n.eml" | sha256sum | cut -c1-64) $n"
done | sort | head -1 | cut -d' ' -f2)
check "the copy with the lower SHA-256 is written" grep -qx "X-Seq: $low" "$TRASH/sum.out"

# the same mail stored with CRLF line ends and a blank line more is no
# other copy: the first one stays, with its source
sed 's/$/\r/' "$TRASH/b.eml" >"$TRASH/crlf.eml" && echo >>"$TRASH/crlf.eml"
mkdir -p "$TRASH/cr/cur" "$TRASH/cr/new" "$TRASH/cr/tmp"
cp "$TRASH/crlf.eml" "$TRASH/cr/cur/1.host:2,S"
"$LORE_AM" -m "$TRASH/cr" -m "$TRASH/ba" --thread "$id1" >"$TRASH/cr.out" 2>"$TRASH/cr.err"
check "a copy stored with CRLF line ends is the same copy: the first source's stays" \
	grep -qx "Sources: maildir 4 messages" "$TRASH/cr.err"
check "and it is that one, CRs and all" grep -q "^List-Id: beta.*"$'\r'"\$" "$TRASH/cr.out"

# --- the same mail in two folders, given in both orders
mkdir -p "$TRASH/la/cur" "$TRASH/la/new" "$TRASH/la/tmp"
cp "$TRASH/a.eml" "$TRASH/la/cur/1.host:2,S"
rm "$TRASH/ab/cur/11.host:2,S"
"$LORE_AM" -q -m "$TRASH/la" -m "$TRASH/ab" "$id1" >"$TRASH/two1" 2>/dev/null
"$LORE_AM" -q -m "$TRASH/ab" -m "$TRASH/la" "$id1" >"$TRASH/two2" 2>/dev/null
same_file "$TRASH/two1" "$TRASH/two2" "two folders given both ways: the same bytes"
same_file "$TRASH/two1" "$TRASH/few.out" "and beta's copy, as from one folder"

# the piped copy (a mail client's) still gives way to a source's
"$LORE_AM" -q -m "$TRASH/ba" <"$TRASH/a.eml" >"$TRASH/piped" 2>/dev/null
same_file "$TRASH/piped" "$TRASH/few.out" "alpha's copy piped in: the folder's choice is written"
done_testing
