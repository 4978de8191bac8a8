#!/bin/bash
# git is looked up in PATH once a run and started by its full path: under
# strace, no execve(2) of a git fails in the folders of PATH before git's
# own (each git process cost one failed execve a folder), for --apply's
# dozen git processes and for --check's bounded ones, with git's
# configuration read by git itself. The PATH the run was started with is
# still the one honoured: a git earlier in it is the one run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
command -v strace >/dev/null || skip_all "strace not installed"
plan 7

R=$TRASH/repo
spell_series "$R"
U=$TRASH/u
git clone -q "$R" "$U" && git -C "$U" checkout -q -b work base

# LeakSanitizer cannot run under ptrace
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# three folders without git before the one with it, as on most systems
mkdir -p "$TRASH/none1" "$TRASH/none2" "$TRASH/none3" "$TRASH/bin"
ln -s "$(command -v git)" "$TRASH/bin/git"
P=$TRASH/none1:$TRASH/none2:$TRASH/none3:$TRASH/bin:$PATH
# trace NAME ARGS...: lore-am in the clone under strace -f, PATH as above
trace() {
	_n=$1; shift
	(cd "$U" && PATH=$P strace -f -qq -o "$TRASH/st.$_n" -e trace=execve \
		"$LORE_AM_REAL" -m "$TRASH/thread.mbox" "$@" "$id" </dev/null \
		>/dev/null 2>"$TRASH/err.$_n")
}
# failed NAME: the failed execve calls of a git in that trace
failed() { grep -c 'execve("[^"]*/git", .* = -1 ' "$TRASH/st.$1"; }
# started NAME: the git processes lore-am itself started (those git
# starts are git's business)
started() { grep -c "execve(\"$TRASH/bin/git\", \[\"git\"" "$TRASH/st.$1"; }

trace apply --apply
ok $? "--apply under strace exits 0"
is "$(failed apply)" 0 "no failed execve of git"
n=$(started apply)
check "the git on PATH first is the one run, by its full path ($n processes)" test "$n" -ge 8

git -C "$U" reset -q --hard base
# settings only git reads (an include): git config is asked
echo "[include]" >>"$U/.git/config"
echo "	path = nothing-there" >>"$U/.git/config"
trace check --check -c "lore-am.am-perpatch-check-cmd=git --version"
ok $? "--check, its check command a git, exits 0"
is "$(failed check)" 0 "no failed execve of git"
check "git config was asked" grep -q "execve(\"$TRASH/bin/git\", \[\"git\", \"config\"" "$TRASH/st.check"
check "the check command ran by git's full path" \
	grep -q "execve(\"$TRASH/bin/git\", \[\"git\", \"--version\"" "$TRASH/st.check"
done_testing
