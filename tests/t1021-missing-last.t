#!/bin/bash
# A series whose *last* patch is missing is incomplete too: nothing in the
# thread holds an i/N past the gap, only the "N" of the others says that
# patch N exists. Refused with exit 1, the patch named, nothing written
# (stdout and -o), with or without a cover letter, whichever message is
# the target; --allow-incomplete writes the patches that exist.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 15

series_repo "$TRASH/repo" 4 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
to_mbox "$TRASH/no4.mbox" "$P"/0000-* "$P"/0001-* "$P"/0002-* "$P"/0003-*
to_mbox "$TRASH/no4-nocover.mbox" "$P"/0001-* "$P"/0002-* "$P"/0003-*
# a series of two: only 1/2 sent so far
series_repo "$TRASH/repo2" 2 two >/dev/null
fmt "$TRASH/repo2" "$TRASH/q"
to_mbox "$TRASH/one-of-two.mbox" "$TRASH/q"/0001-*

# refused DESCRIPTION MBOX MSGID MISSING: exit 1, "missing MISSING" said,
# stdout empty, no -o file
refused() {
	"$LORE_AM" -m "$2" "$3" > "$TRASH/out" 2> "$TRASH/err"
	is "$?" 1 "$1: exit 1"
	check "$1: nothing on stdout" test ! -s "$TRASH/out"
	check "$1: the missing patch is named" grep -q "missing $4\$" "$TRASH/err"
	rm -rf "$TRASH/od"
	"$LORE_AM" -q -m "$2" -o "$TRASH/od" "$3" 2>/dev/null
	check "$1: -o writes no file either" test ! -e "$TRASH/od"
}

refused "4/4 missing, cover letter there" "$TRASH/no4.mbox" \
	"$(msgid_of "$P"/0001-*)" 4/4
refused "4/4 missing, no cover letter, 3/4 the target" "$TRASH/no4-nocover.mbox" \
	"$(msgid_of "$P"/0003-*)" 4/4
refused "a series of two with only 1/2" "$TRASH/one-of-two.mbox" \
	"$(msgid_of "$TRASH"/q/0001-*)" 2/2

"$LORE_AM" -q --allow-incomplete -m "$TRASH/no4.mbox" "$(msgid_of "$P"/0000-*)" \
	> "$TRASH/some"
is "$?" 0 "--allow-incomplete exits 0"
is "$(grep -c '^From git@z' "$TRASH/some")" 3 "and writes the three that exist"
aok=0
apply_into "$TRASH/some" "$TRASH/applied" >/dev/null 2>&1 || aok=1
ok $aok "which git am applies"
done_testing
