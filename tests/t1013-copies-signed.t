#!/bin/bash
# Copies of one Message-ID, where signatures decide (rule 2 of the copy
# rule, t1012 has the others): of copies with the same List-Id rank, one
# whose DKIM signature holds is written before one whose does not, even
# when that one has fewer list changes: here a shorter, altered copy of a
# signed patch sent from another list. Real signatures (dkimpy) and a
# real nameserver (dnsmasq) on 127.0.0.1, as t7100.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
. "$TEST_DIR/lib-dkim.sh"

dkim_setup
plan 14

cd "$TRASH" || exit 1
series_repo "$TRASH/repo" 2 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
dns_start || exit 1
for f in p/*.patch; do sed -i '1{/^From /d;}' "$f"; done
p1=p/0001-part-add-piece-1.patch
id1=$(msgid_of "$p1")
dkim_sign rsa - "$p1"

# lists LIST FIELDS FILE > OUT: FILE as LIST delivers it, its List-*
# fields added below the signed ones (which leaves the signature whole)
lists() {
	LIST=$1 MORE=$2 perl -0777 -pe '
		my ($h, $b) = split /\n\n/, $_, 2; my $l = $ENV{LIST};
		$h .= "\nList-Id: <$l.lists.example.org>";
		$h .= "\nList-Post: <mailto:$l\@lists.example.org>\nList-Help: <mailto:$l-help\@lists.example.org>" if $ENV{MORE};
		$_ = "$h\n\n$b";' "$3"
}
lists alpha more "$p1" >good.eml
# a shorter copy whose patch was altered: its signature no longer holds
sed 's/^+content 1 of part$/+evil/' "$p1" | lists beta "" - >bad.eml
grep -q '^+evil$' bad.eml || echo "# the altered copy is not altered"

folder() {
	mkdir -p "$1/cur" "$1/new" "$1/tmp"
	cp p/0000-cover-letter.patch "$1/cur/10.host:2,S"
	cp "$2" "$1/cur/11.host:2,S"
	cp "$3" "$1/cur/12.host:2,S"
	cp p/0002-part-add-piece-2.patch "$1/cur/13.host:2,S"
}
folder gb good.eml bad.eml
folder bg bad.eml good.eml

"$LORE_AM" -m gb "$id1" >gb.out 2>gb.err
is "$?" 0 "exit 0"
check "the copy whose signature holds is written" grep -qx '+content 1 of part' gb.out
check "not the altered one, though it has fewer list changes" sh -c "! grep -q evil gb.out"
check "the summary says a signed copy was chosen" \
	grep -q "NOTE: <$id1>: of its copies, one whose signature holds is written" gb.err
check "and its signature is shown as holding" grep -q '✓ Signed: DKIM/example.org' gb.err
check "no failure is shown: the altered copy is not attested" sh -c "! grep -q '✗' gb.err"
"$LORE_AM" -m bg "$id1" >bg.out 2>bg.err
same_file bg.out gb.out "the other order: the same bytes"
"$LORE_AM" --no-index -m bg "$id1" >bgp.out 2>/dev/null
same_file bgp.out gb.out "without the index: the same bytes"

git config --global lore-am.attestation-policy hardfail
"$LORE_AM" -q -m gb "$id1" >hard.out 2>hard.err
is "$?" 0 "under hardfail the signed copy is written, nothing fails"
same_file hard.out gb.out "the same bytes"
git config --global --unset lore-am.attestation-policy

# without attestation there are no signatures to choose by: the fewest
# list changes decide, as the thread chose
"$LORE_AM" -q --no-attestation -m gb "$id1" >off.out 2>/dev/null
check "--no-attestation: the copy with fewer list changes" grep -qx '+evil' off.out
"$LORE_AM" -q --no-attestation -m bg "$id1" >off2.out 2>/dev/null
same_file off2.out off.out "in both orders"

# with only the altered copy there is nothing else to write: it fails
folder bo bad.eml bad.eml
"$LORE_AM" -m bo "$id1" >bo.out 2>bo.err
check "alone, the altered copy is written and its signature fails" \
	sh -c "grep -q '✗ BADSIG: DKIM/example.org' bo.err && grep -qx '+evil' bo.out"
check "and no NOTE of another copy" sh -c "! grep -q 'of its copies' bo.err"
done_testing
