#!/bin/bash
# --check (b4 am --check): the per-patch check command on each am-ready
# patch. Debian ships no checkpatch.pl: a small script here speaks its
# --terse format ("-:LINE: ERROR|WARNING: text", silent when clean with
# --mailback); the real one runs too when LINUX_TREE names a kernel tree.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
# the real checkpatch.pl is one check more, only when a kernel tree is
# given (Debian ships none): an extra, not a skip
real=0
[ -n "${LINUX_TREE:-}" ] && [ -x "$LINUX_TREE/scripts/checkpatch.pl" ] && real=1
plan $((19 + real))

# fake checkpatch: trailing white space is an error, a line over 100
# columns a warning, a base-commit: line in the commit message (before
# "---") a warning, as checkpatch before 2020 gave for the cover letter
cat >"$TRASH/checkpatch" <<'SCRIPT'
#!/bin/sh
echo "$*" >>"$CHECK_LOG"
case " $* " in *" --terse "*) ;; *) echo "checkpatch: --terse expected" >&2; exit 2 ;; esac
awk '
/^---$/ { below = 1 }
!below && /^base-commit:/ { printf "-:%d: WARNING: Unknown commit id in the message\n", NR; w++ }
/^\+.*[ \t]$/ { printf "-:%d: ERROR: trailing whitespace\n", NR; e++ }
/^\+/ && length($0) > 101 { printf "-:%d: WARNING: line length of %d exceeds 100 columns\n", NR, length($0) - 1; w++ }
END { exit e ? 1 : 0 }'
SCRIPT
chmod +x "$TRASH/checkpatch"
export CHECK_LOG=$TRASH/check.log

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 echo "int fine;" >a.c && git add a.c && git commit -qm "a: fine" &&
 printf 'int spaced; \n' >b.c && git add b.c && git commit -qm "b: trailing blank" &&
 printf 'int %0110d;\n' 0 >c.c && git add c.c && git commit -qm "c: long line")
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-a-fine.patch")
la() { "$LORE_AM" -m "$TRASH/thread.mbox" "$@"; }

git config --global lore-am.am-perpatch-check-cmd "$TRASH/checkpatch --terse -q"
la --check "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "--check exits 0 whatever the checks say"
check "the mbox still goes to stdout" grep -q "^Subject: \[PATCH 3/3\] c: long line" "$TRASH/out"
check "the command is named" grep -qx "Checks: $TRASH/checkpatch --terse -q" "$TRASH/err"
check "a clean patch is marked clean" grep -qx "  clean    \[PATCH 1/3\] a: fine" "$TRASH/err"
check "an error is marked errors" grep -qx "  errors   \[PATCH 2/3\] b: trailing blank" "$TRASH/err"
check "with the command's line" grep -q "^      -:[0-9]*: ERROR: trailing whitespace$" "$TRASH/err"
check "a warning is marked warnings" grep -qx "  warnings \[PATCH 3/3\] c: long line" "$TRASH/err"
check "the count" grep -qx "Checked 3 patches: 1 clean, 1 with warnings, 1 with errors" "$TRASH/err"
is "$(wc -l <"$CHECK_LOG")" 3 "one run per patch, the cover letter not checked"
! grep -q "Unknown commit id" "$TRASH/err"
ok $? "the cover letter's base-commit is no reason for a warning"

# a single patch carries base-commit below its "---": still no warning
(cd "$TRASH/repo" && git format-patch -q --thread --base=base -o "$TRASH/one" -1 topic~2)
to_mbox "$TRASH/one.mbox" "$TRASH"/one/*.patch
"$LORE_AM" -m "$TRASH/one.mbox" --check "$(msgid_of "$TRASH"/one/*.patch)" >"$TRASH/out1" 2>"$TRASH/err1"
check "the single patch keeps its base-commit below ---" grep -q "^base-commit: " "$TRASH/out1"
check "and is clean" grep -qx "  clean    \[PATCH\] a: fine" "$TRASH/err1"

# b4's key is the fallback
git config --global --unset lore-am.am-perpatch-check-cmd
git config --global b4.am-perpatch-check-cmd "$TRASH/checkpatch --terse"
la --check "$id" >/dev/null 2>"$TRASH/err"
check "b4.am-perpatch-check-cmd is used" grep -qx "Checks: $TRASH/checkpatch --terse" "$TRASH/err"
git config --global --unset b4.am-perpatch-check-cmd

# no command: one line, no failure
la --check "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "no check command: still exit 0"
is "$(grep -c "^lore-am: " "$TRASH/err")" 1 "one line says so"
check "naming the setting" grep -q "no check command (set lore-am.am-perpatch-check-cmd)" "$TRASH/err"
git config --global lore-am.am-perpatch-check-cmd "no-such-checker --terse"
la --check "$id" >/dev/null 2>"$TRASH/err"
ok $? "a check command that does not exist: exit 0"
check "and one line naming it" grep -q "^lore-am: --check: cannot run 'no-such-checker'" "$TRASH/err"
git config --global --unset lore-am.am-perpatch-check-cmd

# in a kernel tree the default is ./scripts/checkpatch.pl
git clone -q "$TRASH/repo" "$TRASH/k"
mkdir -p "$TRASH/k/scripts" && cp "$TRASH/checkpatch" "$TRASH/k/scripts/checkpatch.pl"
: >"$CHECK_LOG"
(cd "$TRASH/k" && la --check "$id" >/dev/null 2>"$TRASH/err")
is "$(head -1 "$CHECK_LOG")" "-q --terse --no-summary --mailback" "a kernel tree: checkpatch.pl with b4's arguments"

# the real checkpatch.pl, when a kernel tree is given
if [ "$real" = 1 ]; then
	(cd "$LINUX_TREE" && "$LORE_AM" -m "$TRASH/thread.mbox" --check "$id" >/dev/null 2>"$TRASH/errk")
	grep -qx "  errors   \[PATCH 2/3\] b: trailing blank" "$TRASH/errk"
	ok $? "the real checkpatch.pl finds the trailing white space"
fi
done_testing
