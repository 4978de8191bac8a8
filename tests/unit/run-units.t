#!/bin/sh
# Runs every compiled C unit test (tests/unit/test-*) as a TAP subtest,
# relaying its lines so that prove counts each check. $LORE_UNIT_WRAP, when
# set, is a command each test runs under (make valgrind-check uses it).
# grep -a: a check's name may quote hostile bytes that are not UTF-8
# (test-msgid, test-ty), which grep would take for a binary file, its
# lines from there on replaced by "binary file matches".
cd "$(dirname "$0")" || exit 1
n=0 fail=0
for t in ./test-*; do
	case $t in *.c) continue ;; esac
	[ -x "$t" ] || continue
	out=$(${LORE_UNIT_WRAP:+"$LORE_UNIT_WRAP"} "$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -a -E '^(ok|not ok|#)' | while IFS= read -r line; do
		printf '# %s: %s\n' "$(basename "$t")" "$line"
	done
	n=$((n + 1))
	if [ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -a -q '^not ok'; then
		echo "ok $n - $(basename "$t")"
	else
		echo "not ok $n - $(basename "$t")"
		fail=$((fail + 1))
		printf '%s\n' "$out" | grep -a -A3 '^not ok' | sed 's/^/#   /'
	fi
done
echo "1..$n"
# a failed check fails the file too, as lib.sh does for the shell tests
[ "$fail" -eq 0 ]
