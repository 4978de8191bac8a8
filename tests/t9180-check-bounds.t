#!/bin/bash
# --check runs the project's own command on each patch: a command that
# never ends (`sleep 1000`) or never stops writing (`yes`) must not hold
# the run for ever or fill the disk. Each run has a time bound
# (lore-am.check-timeout), after which the command's whole process group
# is killed and the patch marked "check timed out", and an output bound
# (1 MiB kept, the rest counted): "output cut". The run goes on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

command -v setsid >/dev/null || skip_all "setsid(1) not installed"
command -v timeout >/dev/null || skip_all "timeout(1) not installed"

plan 22

export TMPDIR=$TRASH/tmp
mkdir -p "$TMPDIR"
series_repo "$TRASH/repo" 2
fmt "$TRASH/repo" "$TRASH/p"
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0001-part-add-piece-1.patch")
cd "$TRASH/repo" || exit 1
git checkout -q base

# la TIMEOUT-S CMD...: lore-am --check with CMD, itself stopped after
# TIMEOUT-S seconds by timeout(1) (status 124: the bound did not work)
la() {
	local t=$1
	shift
	git config lore-am.am-perpatch-check-cmd "$*"
	timeout -s KILL "$t" "$LORE_AM" -m "$TRASH/thread.mbox" --check "$id" \
		>"$TRASH/out" 2>"$TRASH/err"
}
# gone PIDFILE: the process whose pid the file holds has ended (a zombie
# that no one reaps has ended too)
gone() {
	[ -s "$1" ] || return 1
	! kill -0 "$(cat "$1")" 2>/dev/null ||
		[ "$(ps -o stat= -p "$(cat "$1")" | cut -c1)" = Z ]
}

# a check that never ends on patch 1, and starts a child of its own
cat >"$TRASH/stuck" <<'SCRIPT'
#!/bin/sh
if grep -q "^Subject: .*piece 1" ; then
	sleep 1000 &
	echo $! >"$CHILD_PID"
	wait
fi
exit 0
SCRIPT
chmod +x "$TRASH/stuck"
export CHILD_PID=$TRASH/child.pid
at_exit 'kill $(cat "$TRASH"/*.pid 2>/dev/null) 2>/dev/null'

git config lore-am.check-timeout 2
t0=$(date +%s)
la 60 "$TRASH/stuck"
st=$?
t=$(($(date +%s) - t0))
is "$st" 0 "a check that never ends: lore-am still ends, exit 0"
ok $([ "$t" -lt 20 ]; echo $?) "after the time bound ($t s for a bound of 2 s)"
check "the patch is marked: check timed out" \
	grep -qx "  errors   \[PATCH 1/2\] part: add piece 1 (check timed out after 2 s)" "$TRASH/err"
check "the run went on: the next patch is checked" \
	grep -qx "  clean    \[PATCH 2/2\] part: add piece 2" "$TRASH/err"
check "the count says so" \
	grep -qx "Checked 2 patches: 1 clean, 0 with warnings, 1 with errors; 1 check timed out, 0 outputs cut" "$TRASH/err"
check "the mbox is written" grep -q "^Subject: \[PATCH 2/2\]" "$TRASH/out"
sleep 0.2
gone "$CHILD_PID"
ok $? "the command's own child was killed with it (its process group)"

# sleep 1000 itself, and the default bound
rm -f "$CHILD_PID"
la 60 sleep 1000
is "$?" 0 "sleep 1000 as the check command: exit 0"
is "$(grep -c "(check timed out after 2 s)" "$TRASH/err")" 2 "both patches marked"
git config --unset lore-am.check-timeout
git config lore-am.check-timeout soon
la 10 true
is "$?" 0 "lore-am.check-timeout that is no number: exit 0"
check "one line says so, and the default is used" \
	grep -qx "lore-am: --check: git config lore-am.check-timeout: 'soon' is not a number of seconds (1 to 86400); using 120" "$TRASH/err"
git config lore-am.check-timeout 3

# yes: output without end, within the time bound and into no file (a
# file size limit of 10 MiB would stop a write to one)
( ulimit -f 10240; la 60 yes )
is "$?" 0 "yes as the check command: exit 0"
check "marked: timed out (it never ends), nothing written to a file" \
	grep -q "piece 1 (check timed out after 3 s)" "$TRASH/err"
is "$(grep -c '^      y$' "$TRASH/err")" 10 "its first lines are shown, 5 a patch"

# a lot of output, then an end: cut, graded on what was kept
cat >"$TRASH/chatty" <<'SCRIPT'
#!/bin/sh
echo "-:1: WARNING: first words"
head -c 3000000 /dev/zero | tr '\0' 'x'
echo
echo "-:9: ERROR: the last words"
SCRIPT
chmod +x "$TRASH/chatty"
la 60 "$TRASH/chatty"
is "$?" 0 "3 MB of output: exit 0"
check "the patch is marked: output cut" \
	grep -qx "  warnings \[PATCH 1/2\] part: add piece 1 (output cut: 1048576 bytes kept, 1951478 more not read into memory)" "$TRASH/err"
check "the count says so" grep -q "; 0 checks timed out, 2 outputs cut$" "$TRASH/err"
( limit_vm 400000; ulimit -f 2048; la 60 "$TRASH/chatty" )
is "$?" 0 "and within 400 MB of address space"

# Ctrl-C during a check: the check's group goes too, lore-am ends by it
rm -f "$CHILD_PID"
git config lore-am.check-timeout 100
git config lore-am.am-perpatch-check-cmd "$TRASH/stuck"
# as from a terminal: SIGINT not ignored, as a script's "&" would have it
setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
	"$LORE_AM" -m "$TRASH/thread.mbox" --check "$id" >/dev/null 2>"$TRASH/err" &
pid=$!
for _ in $(seq 100); do [ -s "$CHILD_PID" ] && break; sleep 0.1; done
ok $([ -s "$CHILD_PID" ]; echo $?) "Ctrl-C: the check is running"
kill -INT -- -"$pid"
for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null
ok $((! $?)) "lore-am ends at once"
wait $pid
is "$?" 130 "by the signal (as without --check)"
sleep 0.2
gone "$CHILD_PID"
ok $? "and the check command's group is gone"
done_testing
