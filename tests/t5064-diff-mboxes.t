#!/bin/bash
# b4 diff's forms of --range-diff: -m MBX1 MBX2 (two am-ready mboxes, no
# thread), --range-diff-opts (handed to git range-diff, only options of
# what it shows), and -P, which picks the same patches of both revisions.
# Real b4 0.12's diff -m shows the same range-diff.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 21

diff_setup || exit 1

la diff -v 1 2 -m "$TRASH/thread.mbox" "$id" >"$TRASH/thread.out" 2>/dev/null
la diff -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/m.out" 2>"$TRASH/m.err"
is "$?" 0 "diff -m MBX1 MBX2: exit 0"
check "... it names the two files" \
	grep -q "^Comparing '$TRASH/v1.mbx' (v1 here, 3 patches) with '$TRASH/v2.mbx' (v2 here, 2 patches)" "$TRASH/m.err"
check "... no thread gathered" eval '! grep -q "^Sources:" "$TRASH/m.err"'
check "... the changed patch marked !" grep -Eq "^3: +[0-9a-f]+ ! 1: +[0-9a-f]+ c: add c$" "$TRASH/m.out"
canon "$TRASH/m.out" >"$TRASH/m.c"
canon "$TRASH/thread.out" >"$TRASH/thread.c"
same_file "$TRASH/m.c" "$TRASH/thread.c" "... the same range-diff as the thread's -v 1 2"
la --range-diff --compare-am-mboxes "$TRASH/v1.mbx" "$TRASH/v2.mbx" >/dev/null 2>&1
is "$?" 2 "the hidden option's b4 name only with the word diff: exit 2"
la diff --compare-am-mboxes "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/m2.out" 2>/dev/null
canon "$TRASH/m2.out" >"$TRASH/m2.c"
same_file "$TRASH/m2.c" "$TRASH/m.c" "diff --compare-am-mboxes MBX1 MBX2: the same"

if command -v b4 >/dev/null; then
	git -C "$TRASH/u" config b4.attestation-policy off
	(cd "$TRASH/u" && b4 diff -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/b4.out" 2>/dev/null)
	canon "$TRASH/b4.out" >"$TRASH/b4.c"
	same_file "$TRASH/m.c" "$TRASH/b4.c" "b4 diff -m: the same range-diff"
else
	skip "b4 not installed"
fi

la diff -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" "$id" >"$TRASH/x.out" 2>"$TRASH/x.err"
is "$?:$(wc -c <"$TRASH/x.out"):$(wc -l <"$TRASH/x.err")" "2:0:1" \
	"diff -m MBX1 MBX2 with a Message-ID too: refused in one line"
printf 'not mail\n' >"$TRASH/empty.mbx"
la diff -m "$TRASH/v1.mbx" "$TRASH/empty.mbx" >"$TRASH/e.out" 2>"$TRASH/e.err"
is "$?:$(wc -c <"$TRASH/e.out")" "2:0" "an mbox with no mail: exit 2, nothing on stdout"

# --range-diff-opts
la diff -m "$TRASH/thread.mbox" --range-diff-opts="--creation-factor=0 --no-dual-color" \
	"$id" >"$TRASH/cf.out" 2>/dev/null
check "--range-diff-opts reaches git: creation factor 0 pairs nothing" \
	grep -Eq "^3: +[0-9a-f]+ < +-: +-+ c: add c$" "$TRASH/cf.out"
for bad in "--output=$TRASH/pwned" "--out=$TRASH/pwned" "HEAD" "-- x" "--creation-factor=\$(id)"; do
	la diff -m "$TRASH/thread.mbox" --range-diff-opts "$bad" "$id" >"$TRASH/b.out" 2>"$TRASH/b.err"
	rc=$?
	[ "$rc:$(wc -c <"$TRASH/b.out"):$(wc -l <"$TRASH/b.err")" = "2:0:1" ] &&
		grep -q "^lore-am: --range-diff-opts: '.*' is not an option of what git range-diff shows" "$TRASH/b.err"
	ok $? "--range-diff-opts '$bad': refused in one line"
done
check "... and no file written" test ! -e "$TRASH/pwned"
la -m "$TRASH/thread.mbox" --range-diff-opts=--stat "$id" >"$TRASH/n.out" 2>"$TRASH/n.err"
is "$?:$(wc -c <"$TRASH/n.out"):$(cat "$TRASH/n.err")" \
	"2:0:lore-am: --range-diff-opts goes with --range-diff (b4 diff)" \
	"--range-diff-opts without --range-diff: refused in one line"

# -P: the same patches of each revision
la diff -m "$TRASH/thread.mbox" -P 1 "$id" >"$TRASH/p1.out" 2>"$TRASH/p1.err"
check "-P 1: patch 1 of each revision, v1's a: add a ..." \
	grep -Eq "^1: +[0-9a-f]+ < +-: +-+ a: add a$" "$TRASH/p1.out"
check "... against v2's c: add c" grep -Eq "^-: +-+ > +1: +[0-9a-f]+ c: add c$" "$TRASH/p1.out"
is "$(grep -c '^[0-9-]*: ' "$TRASH/p1.out")" 2 "... and nothing else"
