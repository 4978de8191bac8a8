#!/bin/bash
# git is looked up in PATH only when a run needs to know which git there
# is: to start one, or to find the system configuration file of the git
# on the PATH (when neither GIT_CONFIG_NOSYSTEM nor GIT_CONFIG_SYSTEM
# names it); then once, for both. `lore-am --version` and a mail through
# the filter (--passthrough) with the system file named look in no folder
# of PATH for a git (strace). A run that starts git still finds the one
# first in PATH; without a git on PATH, --apply says so in one line, exit
# status 2, the repository untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
command -v strace >/dev/null || skip_all "strace not installed"
plan 12

R=$TRASH/repo
spell_series "$R"
U=$TRASH/u
git clone -q "$R" "$U" && git -C "$U" checkout -q -b work base

# LeakSanitizer cannot run under ptrace
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# three folders without git before the one with it, as on most systems
mkdir -p "$TRASH/none1" "$TRASH/none2" "$TRASH/none3" "$TRASH/bin" \
	"$TRASH/out" "$TRASH/nogit" "$TRASH/split"
ln -s "$(command -v git)" "$TRASH/bin/git"
P=$TRASH/none1:$TRASH/none2:$TRASH/none3:$TRASH/bin:$PATH
# trace NAME ARGS...: lore-am ARGS in the clone under strace -f (the
# calls on files, and execve), PATH as above, stdin from $TRASH/in
trace() {
	_n=$1; shift
	(cd "$U" && PATH=$P strace -f -qq -o "$TRASH/st.$_n" \
		-e trace=%file "$LORE_AM_REAL" "$@" <"$TRASH/in" \
		>"$TRASH/out.$_n" 2>"$TRASH/err.$_n")
}
# searched NAME: how many times that run looked for a git in PATH (the
# first folder of PATH asked for one)
searched() { grep -c "\"$TRASH/none1/git\"" "$TRASH/st.$1"; }

: >"$TRASH/in"
trace version --version
is "$?:$(searched version)" 0:0 "--version: no git looked up in PATH"

# a mail of the series through the filter, the queue on and off
git mailsplit -o"$TRASH/split" "$TRASH/thread.mbox" >/dev/null
cp "$TRASH/split/0001" "$TRASH/in"
trace pass --passthrough --status-header -q -o "$TRASH/out" \
	-m "$TRASH/thread.mbox"
is "$?:$(searched pass)" 0:0 \
	"--passthrough, GIT_CONFIG_NOSYSTEM: no git looked up in PATH"
check "... the mail passed with its state" \
	grep -q '^X-Lore-Am: .*state=complete' "$TRASH/out.pass"
trace passq -c lore-am.queue=false --passthrough --status-header -q \
	-o "$TRASH/out" -m "$TRASH/thread.mbox"
is "$?:$(searched passq)" 0:0 "... and with lore-am.queue = false"
: >"$TRASH/sysconfig"
(unset GIT_CONFIG_NOSYSTEM
 GIT_CONFIG_SYSTEM=$TRASH/sysconfig trace passs -c lore-am.queue=false \
	--passthrough -q -o "$TRASH/out" -m "$TRASH/thread.mbox")
is "$?:$(searched passs)" 0:0 "... and with GIT_CONFIG_SYSTEM"
# the system file of the git on the PATH: that git is looked up, once
(unset GIT_CONFIG_NOSYSTEM
 trace passg -c lore-am.queue=false --passthrough -q -o "$TRASH/out" \
	-m "$TRASH/thread.mbox")
is "$?:$(searched passg)" 0:1 \
	"... and without either: looked up once, for the system file"

# a run that starts git: found, first in PATH, looked up once a run
: >"$TRASH/in"
trace apply -m "$TRASH/thread.mbox" --apply "$id"
is "$?:$(searched apply)" 0:1 "--apply: git looked up once"
check "... the git first in PATH ran, by its full path" \
	grep -q "execve(\"$TRASH/bin/git\", \[\"git\"" "$TRASH/st.apply"
git -C "$U" reset -q --hard base
(unset GIT_CONFIG_NOSYSTEM
 trace applyg -m "$TRASH/thread.mbox" --apply "$id")
is "$?:$(searched applyg)" 0:1 \
	"... once too when the system file is the git's"
git -C "$U" reset -q --hard base

# no git on PATH: one line, exit status 2, nothing applied
before=$(git -C "$U" rev-parse HEAD)
(cd "$U" && PATH=$TRASH/nogit "$LORE_AM_REAL" -m "$TRASH/thread.mbox" \
	--apply "$id" </dev/null >"$TRASH/out.nogit" 2>"$TRASH/err.nogit")
is "$?" 2 "no git on PATH: --apply exits 2"
is "$(cat "$TRASH/err.nogit")" \
	"lore-am: --apply: not inside a git work tree; nothing applied" \
	"... in one line"
is "$(git -C "$U" rev-parse HEAD):$(git -C "$U" status --porcelain)" \
	"$before:" "... the repository untouched"
done_testing
