# lib.sh - shared helpers for lore-am's shell tests (TAP output for prove).
#
# A test sources this file, calls `plan N` (or `skip_all REASON`), then uses
# ok/is/run checks; a check that cannot run here calls `skip REASON`, never
# prints a SKIP of its own, so that LORE_TEST_NO_SKIP=1 turns every skip
# into a failure. Each test gets its own scratch folder $TRASH, with HOME
# pointing into it and a git identity set, removed when the test exits.

set -u
TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/.." && pwd)
LORE_AM=${LORE_AM:-$SRC_DIR/lore-am}
# the binary itself, when $LORE_AM is a wrapper running it under a tool
LORE_AM_REAL=${LORE_AM_REAL:-$LORE_AM}
# "sanitize" (make SANITIZE=1 check), "valgrind" (make valgrind-check) or
# empty: tests that guard memory with ulimit -v cannot do so under either.
LORE_AM_TOOL=${LORE_AM_TOOL:-}
SHARED_DIR=${SHARED_DIR:-$SRC_DIR/../shared}
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/lore-am-test.XXXXXX")
export HOME=$TRASH/home
mkdir -p "$HOME"
export GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL=$HOME/.gitconfig
unset GIT_CONFIG_COUNT GIT_DIR GIT_WORK_TREE XDG_CONFIG_HOME XDG_CACHE_HOME
# the queue's file (and b4's) in $HOME, never the caller's
unset XDG_DATA_HOME
export XDG_CACHE_HOME=$TRASH/cache
export LC_ALL=C.UTF-8 TZ=UTC
git config --global user.name "Test Maintainer"
git config --global user.email "maintainer@example.org"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

_test_n=0
_test_failed=0
_cleanup_hooks=""

at_exit() { _cleanup_hooks="$_cleanup_hooks
$*"; }
# The file's exit status is non-zero when any check failed, whatever its
# last command returned: a test file cannot forget to say so (prove, make
# and CI read the status as well as the "not ok" lines).
_finish() {
	_rc=$?
	eval "$_cleanup_hooks"
	cd / && rm -rf "$TRASH"
	[ "$_rc" -eq 0 ] && [ "$_test_failed" -ne 0 ] && _rc=1
	exit "$_rc"
}
trap _finish EXIT

# LORE_TEST_NO_SKIP=1 (set by CI, where everything is installed): a skip
# is a failure that names what is missing, so that a check which quietly
# stopped running cannot pass for one that ran.
LORE_TEST_NO_SKIP=${LORE_TEST_NO_SKIP:-}

plan() { echo "1..$1"; }
skip_all() {
	if [ -n "$LORE_TEST_NO_SKIP" ]; then
		echo "1..1"
		echo "not ok 1 - skipped, but LORE_TEST_NO_SKIP is set: $*"
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

ok() {
	# ok CONDITION-EXIT-STATUS DESCRIPTION
	_test_n=$((_test_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_test_n - $2"
	else
		echo "not ok $_test_n - $2"
		_test_failed=$((_test_failed + 1))
	fi
}

# skip_all_no_data REASON: the test reads data kept outside the project
# (under $SHARED_DIR) that a clone does not have and that must not be
# copied in: its absence is a skip even with LORE_TEST_NO_SKIP.
skip_all_no_data() {
	echo "1..0 # SKIP $*"
	exit 0
}

# skip REASON: one check that cannot run here (a program or permission is
# genuinely missing), counted as a TAP skip (a failure with
# LORE_TEST_NO_SKIP)
skip() {
	_test_n=$((_test_n + 1))
	if [ -n "$LORE_TEST_NO_SKIP" ]; then
		echo "not ok $_test_n - skipped, but LORE_TEST_NO_SKIP is set: $*"
		_test_failed=$((_test_failed + 1))
	else
		echo "ok $_test_n # SKIP $*"
	fi
}

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds. A failed
# check's diagnostics (here, in is and in same_file) go to stderr, which
# prove shows without -v: a CI log then says what was got.
check() {
	_d=$1; shift
	if "$@" >"$TRASH/.check.out" 2>&1; then ok 0 "$_d"; else
		ok 1 "$_d"; sed 's/^/# /' "$TRASH/.check.out" | head -40 >&2; fi
}

# is ACTUAL EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then ok 0 "$3"; else
		ok 1 "$3"; echo "#   got:      '$1'" >&2
		echo "#   expected: '$2'" >&2; fi
}

# same_file GOT EXPECTED DESCRIPTION: byte-identical, diff shown otherwise
same_file() {
	if cmp -s "$1" "$2"; then ok 0 "$3"; else
		ok 1 "$3"; diff -u "$2" "$1" | head -40 | sed 's/^/# /' >&2; fi
}

# A git repository with one base commit in $1.
make_repo() {
	git init -q "$1" &&
	(cd "$1" &&
	 printf 'line %s\n' 1 2 3 4 5 6 7 8 9 10 > file.c &&
	 printf 'readme\n' > README &&
	 git add . && git commit -q -m "base commit" &&
	 git tag base)
}

# hello_series LIST ID1 ID2 ID3: the mails in fixtures/hello-series.mbox on
# stdout: "[PATCH 1/2] hello: add greeting" (Message-ID ID1) and its 2/2
# (ID2) sent to LIST, and a reply to 1/2 with a Reviewed-by (ID3). The ids
# go in as they are (perl, not sed: they may hold '/', '%', '&').
hello_series() {
	FIXTURE_LIST=$1 FIXTURE_ID1=$2 FIXTURE_ID2=$3 FIXTURE_ID3=$4 \
		perl -pe 's/\@(LIST|ID[123])\@/$ENV{"FIXTURE_$1"}/g' \
		"$TEST_DIR/fixtures/hello-series.mbox"
}

# limit_vm KB: in a subshell, cap the address space before running lore-am
# (a guard against unbounded memory use). Sanitizers and valgrind reserve
# huge address ranges, so there the cap is left out and only time tells.
limit_vm() {
	[ -z "$LORE_AM_TOOL" ] && ulimit -v "$1"
	return 0
}

done_testing() {
	[ "$_test_failed" -eq 0 ]
}

# without_lib SONAME COMMAND...: run COMMAND where the library SONAME cannot
# be loaded (an empty file bound over it in a private mount namespace).
# Status 125 when that cannot be set up here (no unshare, no permission).
without_lib() {
	_lib=$(ldconfig -p 2>/dev/null | awk -v n="$1" '$1 == n { print $NF; exit }')
	shift
	[ -n "$_lib" ] && command -v unshare >/dev/null || return 125
	unshare -m sh -c 'mount --bind /dev/null "$0" 2>/dev/null || exit 125
		exec "$@"' "$(readlink -f "$_lib")" "$@"
}

# lib_hidden RC N LIB: true when without_lib's run (status RC) ran with
# LIB hidden; when it could not be hidden here (RC 125), N skips for the
# N checks that needed it, and false
lib_hidden() {
	[ "$1" != 125 ] && return 0
	for _ in $(seq "$2"); do
		skip "cannot hide $3 here (no unshare or mount)"
	done
	return 1
}

# loaded_on_demand SONAME STATUS WHAT ERE MBOX REF ID ARG...: four checks
# of a library lore-am loads only when asked (where without_lib can hide
# it): `lore-am -q ARG... ID` exits STATUS with one line on stderr that
# matches "^lore-am: ERE"; `lore-am -q -m MBOX ID` still works, silent,
# and writes REF. WHAT names the first run in its check. Four skips when
# the library cannot be hidden here.
loaded_on_demand() {
	_so=$1 _st=$2 _what=$3 _ere=$4 _mbox=$5 _ref=$6 _id=$7
	shift 7
	without_lib "$_so" "$LORE_AM" -q "$@" "$_id" </dev/null \
		>"$TRASH/none.mbx" 2>"$TRASH/none.err"
	_rc=$?
	lib_hidden "$_rc" 4 "${_so%%.so*}" || return 0
	is "$_rc" "$_st" "$_what without a loadable ${_so%%.so*}: status $_st"
	check "... one line that says the library cannot be loaded" eval \
		'[ "$(wc -l <"$TRASH/none.err")" = 1 ] &&
		grep -q "^lore-am: $_ere" "$TRASH/none.err"'
	without_lib "$_so" "$LORE_AM" -q -m "$_mbox" "$_id" \
		</dev/null >"$TRASH/none-m.mbx" 2>"$TRASH/none-m.err"
	is "$?:$(cat "$TRASH/none-m.err")" 0: \
		"... and an mbox run still works, silently with -q"
	same_file "$TRASH/none-m.mbx" "$_ref" "... and writes the same series"
}

# gone_within SECONDS PID: PID ends within SECONDS
gone_within() {
	local i=0
	while kill -0 "$2" 2>/dev/null && [ $i -lt $(($1 * 10)) ]; do
		sleep 0.1; i=$((i + 1))
	done
	! kill -0 "$2" 2>/dev/null
}
