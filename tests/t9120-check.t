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
plan $((29 + real))

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
is "$(grep -c "^lore-am: " "$TRASH/err")" 1 "only one, however many runs were started at once"
git config --global --unset lore-am.am-perpatch-check-cmd

# the runs go in parallel (lore-am.check-jobs, default the CPUs) and are
# reported in patch order: patch 1's check waits for patch 2's to start
# (up to $WAIT s), so it ends after it, and says whether it saw it
cat >"$TRASH/para" <<'SCRIPT'
#!/bin/sh
case "$(cat)" in
*"Subject: [PATCH 1/3]"*)
	i=0
	while [ ! -e "$MARK" ] && [ $i -lt $((WAIT * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	if [ -e "$MARK" ]; then echo "-:1: WARNING: ran beside patch 2"; else echo "-:1: ERROR: ran alone"; fi ;;
*"Subject: [PATCH 2/3]"*) touch "$MARK"; echo "-:1: WARNING: patch 2" ;;
esac
SCRIPT
chmod +x "$TRASH/para"
git config --global lore-am.am-perpatch-check-cmd "$TRASH/para"
git config --global lore-am.check-jobs 2
export MARK=$TRASH/mark WAIT=30
la --check "$id" >/dev/null 2>"$TRASH/err"
ok $? "two runs at once: exit 0"
check "patch 1's check ran beside patch 2's" grep -qx "      -:1: WARNING: ran beside patch 2" "$TRASH/err"
grep -E "^  (clean|warnings|errors) |^      -:" "$TRASH/err" >"$TRASH/order"
cat >"$TRASH/order.want" <<'EOF2'
  warnings [PATCH 1/3] a: fine
      -:1: WARNING: ran beside patch 2
  warnings [PATCH 2/3] b: trailing blank
      -:1: WARNING: patch 2
  clean    [PATCH 3/3] c: long line
EOF2
same_file "$TRASH/order" "$TRASH/order.want" "reported in patch order, each with its own lines"
check "the count" grep -qx "Checked 3 patches: 1 clean, 2 with warnings, 0 with errors" "$TRASH/err"
rm -f "$MARK"
git config --global lore-am.check-jobs 1
WAIT=1 la --check "$id" >/dev/null 2>"$TRASH/err"
check "lore-am.check-jobs 1: one run at a time" grep -qx "      -:1: ERROR: ran alone" "$TRASH/err"
rm -f "$MARK"
git config --global --unset lore-am.check-jobs
la --check "$id" >/dev/null 2>"$TRASH/err"
if [ "$(nproc)" -gt 1 ]; then
	check "unset: as many at once as there are CPUs" grep -qx "      -:1: WARNING: ran beside patch 2" "$TRASH/err"
else
	check "unset, one CPU: one run at a time" grep -qx "      -:1: ERROR: ran alone" "$TRASH/err"
fi
rm -f "$MARK"
git config --global lore-am.check-jobs many
WAIT=1 la --check "$id" >/dev/null 2>"$TRASH/err"
ok $? "lore-am.check-jobs that is no number: exit 0"
check "one line says so" grep -q "^lore-am: --check: git config lore-am.check-jobs: 'many' is not a number of runs at once (1 to 64); using " "$TRASH/err"
check "and the checks run" grep -q "^Checked 3 patches" "$TRASH/err"
git config --global --unset lore-am.check-jobs
git config --global --unset lore-am.am-perpatch-check-cmd
unset MARK WAIT

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
