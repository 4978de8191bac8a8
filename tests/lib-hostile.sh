# lib-hostile.sh - shared by the t6NNN tests, which feed lore-am hostile
# and broken mail: a real patch thread to break, and checks for "one clear
# error line, the documented status, nothing written" and "git am applies".
# Source it after lib.sh.
#
#   hostile_thread        generate a 5-patch thread with 20 replies (real
#                         git format-patch, bench/gen-thread.sh) in
#                         $THREAD, its repository in $REPO; sets COVER and
#                         P1..P5 to the Message-IDs of v1's mails
#   lore NAME ARGS...     run lore-am -q ARGS (stdin as given) with stdout
#                         in $TRASH/NAME.out and stderr in $TRASH/NAME.err;
#                         the exit status is in $RC
#   lore_vm KB NAME ARGS...
#                         the same with the address space capped at KB
#                         (lib.sh's limit_vm)
#   refused NAME STATUS REGEX DESC [LINES]
#                         after `lore NAME`: the status is STATUS, stderr is
#                         exactly one line (or LINES lines) "lore-am: ...",
#                         the first matching REGEX (grep -E), stdout empty
#   applies MBX DESC      git am of MBX on the base commit succeeds and gives
#                         the tree of the real v1
#   utf8 FILE             FILE is valid UTF-8
#   b64w TEXT             TEXT (a printf format) as one RFC 2047 base64
#                         encoded word, which can hide line breaks

MAIL_EDIT=$SRC_DIR/tests/mbox-edit

hostile_thread() {
	THREAD=$TRASH/thread.mbox
	REPO=$TRASH/repo
	COVER=$("$SRC_DIR/bench/gen-thread.sh" --preset small -k "$REPO" \
		-o "$THREAD") || return 1
	P1=${COVER/.0.v1-/.1.v1-} P2=${COVER/.0.v1-/.2.v1-}
	P3=${COVER/.0.v1-/.3.v1-} P4=${COVER/.0.v1-/.4.v1-}
	P5=${COVER/.0.v1-/.5.v1-}
}

lore() {
	_name=$1
	shift
	"$LORE_AM" -q "$@" >"$TRASH/$_name.out" 2>"$TRASH/$_name.err"
	RC=$?
}

# lore_vm KB NAME ARGS...: the same under an address space cap (limit_vm)
lore_vm() {
	_kb=$1 _name=$2
	shift 2
	(limit_vm "$_kb"; exec "$LORE_AM" -q "$@") \
		>"$TRASH/$_name.out" 2>"$TRASH/$_name.err"
	RC=$?
}

refused() {
	_out=$TRASH/$1.out _err=$TRASH/$1.err
	if [ "$RC" -eq "$2" ] && [ ! -s "$_out" ] &&
	   [ "$(wc -l <"$_err")" -eq "${5:-1}" ] &&
	   [ "$(grep -c "^lore-am: " "$_err")" -eq "${5:-1}" ] &&
	   head -1 "$_err" | grep -qE "^lore-am: ($3)"; then
		ok 0 "$4"
	else
		ok 1 "$4"
		echo "#   exit $RC (expected $2), stdout $(wc -c <"$_out") bytes"
		head -c 2000 "$_err" | head -5 | sed 's/^/#   stderr: /'
	fi
}

applies() {
	case $1 in /*) _mbx=$1 ;; *) _mbx=$PWD/$1 ;; esac
	if git -C "$REPO" checkout -q -f -B am-test base &&
	   git -C "$REPO" am -q "$_mbx" >"$TRASH/am.log" 2>&1 &&
	   git -C "$REPO" diff --quiet v1 HEAD; then
		ok 0 "$2"
	else
		ok 1 "$2"
		git -C "$REPO" am --abort >/dev/null 2>&1
		head -5 "$TRASH/am.log" | sed 's/^/#   /'
	fi
}

utf8() {
	perl -e 'local $/; my $d = <STDIN>; utf8::decode($d) or exit 1' <"$1"
}

b64w() { printf '=?utf-8?b?%s?=' "$(printf "$1" | base64 -w0)"; }
