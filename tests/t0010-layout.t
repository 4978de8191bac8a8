#!/bin/bash
# make layout-check (filter/layout-check reading filter/LAYOUT): each stage
# folder of filter/ includes only the headers of the folders LAYOUT lets it
# use, plus the exceptions listed there. It passes on the tree, and fails
# on a copy of the tree given a back-edge (series/ including a git/
# header), naming the file, the header and the edge; also on the other
# faults it knows: a header named without its folder, an exception no
# include needs any more, a file outside the stage folders, a README
# whose "May use:" line says something else than LAYOUT. And
# filter/size-check, which names files past 600 lines and functions past
# 120.
. "$(dirname "$0")/lib.sh"

plan 27
LC=$SRC_DIR/filter/layout-check
F=$TRASH/filter

# a fresh copy of filter/'s sources, LAYOUT and READMEs (no objects)
fresh() {
	rm -rf "$F" && mkdir "$F" &&
		(cd "$SRC_DIR/filter" &&
			find . \( -name '*.[ch]' -o -name '*.md' -o -name LAYOUT \
				-o -name layout-check \) -print0 |
			xargs -0 tar cf -) | tar xf - -C "$F"
}
# run the check on the copy: its status, stderr in $TRASH/err
run_check() {
	"$LC" "$F" >"$TRASH/out" 2>"$TRASH/err"
}
# add line $2 after the first #include of file $1 (under the copy)
add_include() {
	sed -i "0,/^#include/s||$2\n#include|" "$F/$1"
}

"$LC" "$SRC_DIR/filter" >"$TRASH/out" 2>"$TRASH/err"
is "$?" 0 "the tree keeps the layout"
is "$(cat "$TRASH/err")" "" "nothing on stderr"
check "it says what it counted" grep -q '^layout-check: .*[0-9]* files, [0-9]* includes, [0-9]* known exceptions' "$TRASH/out"
# one way through: no stage includes a later one's header any more
check "no known exceptions are left" grep -q ' 0 known exceptions (LAYOUT)$' "$TRASH/out"

fresh
run_check
is "$?" 0 "a copy of the tree keeps the layout too"

# the deliberate back-edge: the series stage including a git step's header
fresh
add_include series/series.c '#include "git/apply.h"'
run_check
is "$?" 1 "series/ including a git/ header: the check fails"
is "$(cat "$TRASH/err")" "layout-check: $F/series/series.c: includes \"git/apply.h\": series/ may not use git/ (LAYOUT: series: core mail thread source/gather.h)" \
	"one line naming the file, the header and the edge"

# in a header
fresh
add_include mail/body.h '#include "series/series.h"'
run_check
is "$?" 1 "mail/body.h including series/: fails"
check "it is named" grep -qF "$F/mail/body.h: includes \"series/series.h\": mail/ may not use series/" "$TRASH/err"
is "$(wc -l <"$TRASH/err")" 1 "only the new edge is named"

# series/ may use source/gather.h, and no other header of source/
fresh
add_include series/newer.c '#include "source/gather.h"'
run_check
is "$?" 0 "series/ including source/gather.h is allowed"
fresh
add_include series/newer.c '#include "source/cache.h"'
run_check
is "$?" 1 "series/ including source/cache.h is not"

# core/ uses nothing
fresh
add_include core/util.c '#include "mail/message.h"'
run_check
check "core/ including mail/: named" grep -qF "core/util.c: includes \"mail/message.h\": core/ may not use mail/ (LAYOUT: core: nothing)" "$TRASH/err"

# a header named without its folder, or one that is not there
fresh
add_include core/util.c '#include "msgid.h"'
add_include git/apply.c '#include "git/nothere.h"'
run_check
is "$?" 1 "a bare or missing header: fails"
check "the bare one is named" grep -qF "core/util.c: includes \"msgid.h\": name the header with its folder" "$TRASH/err"
check "the missing one is named" grep -qF "git/apply.c: includes \"git/nothere.h\", which is not there" "$TRASH/err"

# an exception lets its one include through; one that no include needs
# (any more) must go
fresh
echo 'except write/am.c git/apply.h: why; what removes it (to be removed)' >>"$F/LAYOUT"
add_include write/am.c '#include "git/apply.h"'
run_check
is "$?" 0 "an exception lets its include through"
sed -i '/^#include "git\/apply.h"/d' "$F/write/am.c"
run_check
is "$?" 1 "an exception no include needs: fails"
check "it says to remove it" grep -q "LAYOUT:[0-9]*: the exception write/am.c git/apply.h matches no include: remove it" "$TRASH/err"

# an exception must say what removes it
fresh
echo 'except write/am.c git/apply.h: because' >>"$F/LAYOUT"
add_include write/am.c '#include "git/apply.h"'
run_check
check "an exception without \"to be removed\" is refused" grep -q "LAYOUT:[0-9]*: an exception is" "$TRASH/err"

# a file outside the stage folders
fresh
echo 'int x;' >"$F/flat.c"
mkdir "$F/extra" && echo 'int y;' >"$F/extra/y.c"
run_check
is "$?" 1 "files outside the folders LAYOUT names: fails"
check "each is named" eval "grep -qF '$F/flat.c: not in a folder LAYOUT names' '$TRASH/err' && grep -qF '$F/extra/y.c: not in a folder LAYOUT names' '$TRASH/err'"

# each folder's README says what LAYOUT says
fresh
sed -i 's/^May use: core, mail, thread, series, trailers, attest, gate, queue\.$/May use: core, mail./' "$F/write/README.md"
run_check
check "a README's May use: line that differs: named" grep -qF "$F/write/README.md: May use: core mail, LAYOUT says write: core mail thread series trailers attest gate queue" "$TRASH/err"
fresh
sed -i 's/^\(| \[thread\/\].*| \)core, mail |$/\1core |/' "$F/README.md"
run_check
check "a row of the map that differs: named" grep -qF "$F/README.md: its row says core, LAYOUT says thread: core mail" "$TRASH/err"
fresh
sed -i 's/^May use: core, mail\.$/May use: core, mail, source./' "$F/attest/README.md"
sed -i 's/^\(| \[attest\/\].*| \)core, mail |$/\1core, mail, source |/' "$F/README.md"
sed -i 's/^attest: .*/& source/' "$F/LAYOUT"
add_include attest/attest.c '#include "source/lore.h"'
run_check
is "$?" 0 "an edge added to LAYOUT, the READMEs and the map alike: allowed"
fresh
rm "$F/attest/README.md"
run_check
check "a folder without its README: named" grep -qF "$F/attest/README.md: missing" "$TRASH/err"

# filter/size-check: files past 600 lines, functions past 120 (STYLE)
S=$TRASH/sizes
mkdir -p "$S/a"
{
	printf 'static int\nsmall(void)\n{\n'
	for i in $(seq 118); do echo "	i++;"; done
	printf '}\n\nint\nbig(int x)\n{\n'
	for i in $(seq 119); do echo "	x++;"; done
	printf '}\n'
} >"$S/a/f.c"
seq 601 | sed 's|^|// |' >"$S/a/long.h"
seq 600 | sed 's|^|// |' >"$S/a/ok.h"
"$SRC_DIR/filter/size-check" "$S" >"$TRASH/sizes.out"
is "$?.$(cat "$TRASH/sizes.out" | tr '\n' '|')" \
	"1.$S/a/f.c:125: big(): 121 lines (over 120)|$S/a/long.h: 601 lines (over 600)|" \
	"size-check: the function of 121 lines and the file of 601 named, those at the limit not"

done_testing
