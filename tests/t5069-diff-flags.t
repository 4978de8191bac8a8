#!/bin/bash
# b4 diff's -n (--no-diff: the git range-diff command, not its output),
# -o FILE (--output-diff: the comparison into FILE, replaced whole), -c
# (--color: colored even into a file) and -g DIR (--gitdir: that
# repository, the files named still the ones named here). Real b4 0.12's
# diff -n -m gives a command that shows the same range-diff.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 17

diff_setup || exit 1
esc() { grep -c "$(printf '\033')\[" "$1"; }
H40='[0-9a-f]{40}'

la diff -m "$TRASH/thread.mbox" "$id" >"$TRASH/plain.out" 2>/dev/null
canon "$TRASH/plain.out" >"$TRASH/plain.c"
is "$(esc "$TRASH/plain.out")" 0 "diff into a pipe: not colored"

# -n
la diff -n -m "$TRASH/thread.mbox" "$id" >"$TRASH/n.out" 2>"$TRASH/n.err"
is "$?:$(wc -l <"$TRASH/n.out")" 0:1 "diff -n: exit 0, one line on stdout"
check "... git range-diff OLD..OLD NEW..NEW" \
	grep -Eqx "git range-diff $H40\.\.$H40 $H40\.\.$H40" "$TRASH/n.out"
(cd "$TRASH/u" && $(cat "$TRASH/n.out") --no-color >"$TRASH/n.run")
canon "$TRASH/n.run" >"$TRASH/n.c"
same_file "$TRASH/n.c" "$TRASH/plain.c" "... which, run, shows what diff shows"
la diff -n -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" >"$TRASH/nm.out" 2>/dev/null
(cd "$TRASH/u" && $(cat "$TRASH/nm.out") --no-color >"$TRASH/nm.run")
canon "$TRASH/nm.run" >"$TRASH/nm.c"
if command -v b4 >/dev/null; then
	git -C "$TRASH/u" config b4.attestation-policy off
	(cd "$TRASH/u" && b4 diff -n -m "$TRASH/v1.mbx" "$TRASH/v2.mbx" 2>&1 |
		sed -n 's/^ *\(git range-diff .*\)/\1/p' >"$TRASH/b4n.cmd")
	(cd "$TRASH/u" && $(cat "$TRASH/b4n.cmd") --no-color >"$TRASH/b4n.run")
	canon "$TRASH/b4n.run" >"$TRASH/b4n.c"
	is "$(wc -l <"$TRASH/b4n.cmd"):$(cmp -s "$TRASH/nm.c" "$TRASH/b4n.c"; echo $?)" 1:0 \
		"diff -n -m MBX1 MBX2: the range-diff real b4 diff -n's command shows"
else
	skip "b4 not installed"
fi

# -o FILE, -c
echo old >"$TRASH/out.diff"
la diff -o "$TRASH/out.diff" -m "$TRASH/thread.mbox" "$id" >"$TRASH/o.out" 2>/dev/null
is "$?:$(wc -c <"$TRASH/o.out")" 0:0 "diff -o FILE: exit 0, nothing on stdout"
canon "$TRASH/out.diff" >"$TRASH/o.c"
same_file "$TRASH/o.c" "$TRASH/plain.c" "... FILE replaced by the comparison, not colored"
is "$(ls -A "$TRASH" | grep -c '^\.out\.diff')" 0 "... no temporary file left beside it"
la diff -c -o "$TRASH/c.diff" -m "$TRASH/thread.mbox" "$id" 2>/dev/null
check "diff -c -o FILE: colored in the file" test "$(esc "$TRASH/c.diff")" -gt 0
la diff -c -m "$TRASH/thread.mbox" "$id" >"$TRASH/c.out" 2>/dev/null
check "diff -c into a pipe: colored" test "$(esc "$TRASH/c.out")" -gt 0
la diff -o "$TRASH/v1.mbx/x" -m "$TRASH/thread.mbox" "$id" >"$TRASH/bad.out" 2>"$TRASH/bad.err"
is "$?:$(wc -c <"$TRASH/bad.out"):$(grep -c '^lore-am: ' "$TRASH/bad.err")" "74:0:1" \
	"-o FILE that cannot be written: exit 74, one error"

# -g DIR, from outside any repository
mkdir "$TRASH/out" && cd "$TRASH/out" || exit 1
cp "$TRASH/thread.mbox" ./here.mbox
"$LORE_AM" diff -g ../u -m here.mbox "$id" >"$TRASH/g.out" 2>"$TRASH/g.err"
is "$?" 0 "diff -g DIR outside any repository: exit 0"
canon "$TRASH/g.out" >"$TRASH/g.c"
same_file "$TRASH/g.c" "$TRASH/plain.c" "... the range-diff of DIR's repository, -m's file the one named here"
"$LORE_AM" diff -g ../none -m here.mbox "$id" >"$TRASH/gn.out" 2>"$TRASH/gn.err"
is "$?:$(wc -c <"$TRASH/gn.out"):$(grep -c "^lore-am: cannot enter '../none'" "$TRASH/gn.err")" \
	"2:0:1" "-g to a folder that is not there: one line, exit 2"
"$LORE_AM" diff -n -m here.mbox "$id" >"$TRASH/nt.out" 2>"$TRASH/nt.err"
is "$?:$(wc -c <"$TRASH/nt.out"):$(grep -c '^lore-am: --no-diff: v1 and v2 do not both apply outside a git work tree' "$TRASH/nt.err")" \
	"1:0:1" "diff -n outside a repository: no command to give, exit 1"

cd "$TRASH/u" || exit 1
"$LORE_AM" diff -n -o x.diff -m "$TRASH/thread.mbox" "$id" >"$TRASH/no.out" 2>"$TRASH/no.err"
is "$?:$(cat "$TRASH/no.err")" "2:lore-am: diff -n prints the git range-diff command: not with -o FILE or -c" \
	"-n with -o: refused in one line"
"$LORE_AM" --no-diff -m "$TRASH/thread.mbox" "$id" >"$TRASH/nd.out" 2>"$TRASH/nd.err"
is "$?:$(wc -c <"$TRASH/nd.out")" "2:0" "--no-diff without --range-diff: exit 2"
