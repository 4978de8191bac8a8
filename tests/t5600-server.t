#!/bin/bash
# lore-am --server and lore-am-client: a command sent through the client
# runs in a process the resident server forks, with the client's stdin,
# stdout, stderr, folder, umask and environment, and gives what lore-am
# run directly gives (output bytes, files, messages, exit status). Without
# a server the client becomes lore-am itself; a server on the same socket,
# a dead server's socket, another user, an idle time and a replaced binary
# are each handled.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
plan 38

CLIENT=$SRC_DIR/lore-am-client
[ -x "$CLIENT" ] || { echo "Bail out! lore-am-client is not built"; exit 1; }
hooks_series || { echo "Bail out! cannot generate the test threads"; exit 1; }
to_maildir "$TRASH/one.mbox" "$TRASH/in"
p2=$(grep -l "^Message-I[dD]: <$ONE_P2>" "$TRASH"/in/cur/*)
cd "$TRASH" || exit 1
# when a test means the client to fall back, it runs the lore-am under test
export LORE_AM_PROGRAM=$LORE_AM
unset XDG_RUNTIME_DIR

# start_server SOCKET [ARGS...]: sets SPID; waits until it says it serves
# (a dead server's socket file may be there before)
start_server() {
	_s=$1
	shift
	: >"$TRASH/server.err"
	"$LORE_AM" --server --socket "$_s" "$@" 2>"$TRASH/server.err" &
	SPID=$!
	at_exit "kill $SPID 2>/dev/null"
	for _i in $(seq 300); do
		grep -q "^lore-am: serving on " "$TRASH/server.err" && return 0
		kill -0 "$SPID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# gone PID [TENTHS]: wait until PID has exited
gone() {
	for _i in $(seq "${2:-100}"); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

export LORE_AM_SOCKET=$TRASH/s.sock
start_server "$LORE_AM_SOCKET"
ok $? "lore-am --server listens on its socket"
is "$(stat -c %a "$LORE_AM_SOCKET")" 600 "... which only its user may use"
server1=$SPID

# everything below must be served: with require there is no fallback
export LORE_AM_SERVER=require

"$LORE_AM" -q -m one.mbox -o direct "$ONE_ID" 2>direct.err
exp=$(only_file direct '*.mbx')
stem=$(basename "$exp" .mbx)

mkdir -p sub
(cd sub && "$CLIENT" --passthrough -o pt -m ../one.mbox <"$p2" >../pt.out 2>../pt.err)
is $? 0 "--passthrough through the server: exit 0"
check "... the mail comes out byte for byte" cmp pt.out "$p2"
check "... the series is in -o DIR, taken from the client's folder" \
	cmp "sub/pt/$stem.mbx" "$exp"
is "$(wc -c <pt.err)" 0 "... and nothing on stderr"

"$CLIENT" -q -m one.mbox "$ONE_ID" >served.mbx 2>served.err
is $? 0 "a MSGID through the server: exit 0"
"$LORE_AM" -q -m one.mbox "$ONE_ID" >direct.mbx
check "... the same mbox on stdout as lore-am run directly" cmp served.mbx direct.mbx

"$CLIENT" -m one.mbox <"$p2" >served2.mbx 2>served2.err
rc=$?
"$LORE_AM" -m one.mbox <"$p2" >direct2.mbx 2>direct2.err
is "$rc $?" "0 0" "a mail on stdin through the server: exit 0 as directly"
check "... the same mbox" cmp served2.mbx direct2.mbx
check "... the same summary on stderr" cmp served2.err direct2.err

"$CLIENT" -m one.mbox nosuch@example.org >/dev/null 2>served3.err
rc=$?
"$LORE_AM" -m one.mbox nosuch@example.org >/dev/null 2>direct3.err
is "$rc $?" "1 1" "an unknown id: exit 1 through the server as directly"
check "... with the same error" cmp served3.err direct3.err

"$CLIENT" --no-such-option >/dev/null 2>served4.err
is "$? $(cat served4.err)" \
	"2 lore-am: Unknown option --no-such-option (see lore-am --help)" \
	"a usage error: exit 2 and lore-am's message"

# the client's environment, not the server's: git config of another file
git config -f other.gitconfig lore-am.status-header true
GIT_CONFIG_GLOBAL=$TRASH/other.gitconfig "$CLIENT" --passthrough -o pt2 \
	-m one.mbox <"$p2" >pt2.out
sed 1q pt2.out | grep -q '^X-Lore-Am: status=complete;'
ok $? "the command sees the client's environment (its git config)"

(umask 077 && "$CLIENT" -q -m one.mbox -o um "$ONE_ID")
(umask 077 && "$LORE_AM" -q -m one.mbox -o umd "$ONE_ID")
is "$(stat -c %a "um/$stem.mbx")" "$(stat -c %a "umd/$stem.mbx")" \
	"files get the client's umask, as directly"

# ten clients at once, each its own answer
pids=
for i in 0 1 2 3 4 5 6 7 8 9; do
	"$CLIENT" -q -m one.mbox "$ONE_ID" >"par$i.mbx" 2>"par$i.err" &
	pids="$pids $!"
done
wait $pids
bad=0
for i in 0 1 2 3 4 5 6 7 8 9; do
	cmp -s "par$i.mbx" direct.mbx || bad=$((bad + 1))
done
is "$bad" 0 "ten clients at once: ten right answers"

# a signal to the client reaches the command: here one blocked on a FIFO
mkfifo fifo
"$CLIENT" -q -m fifo "$ONE_ID" >/dev/null 2>/dev/null &
cpid=$!
for _i in $(seq 100); do
	[ "$(pgrep -P "$server1" | wc -l)" = 1 ] && break
	sleep 0.1
done
sleep 0.5
kids=$(pgrep -P "$server1" | wc -l)
kill -TERM "$cpid"
wait "$cpid"
rc=$?
is "$kids $rc" "1 143" "SIGTERM to the client ends the command (exit 143)"
for _i in $(seq 100); do
	[ "$(pgrep -P "$server1" | wc -l)" = 0 ] && break
	sleep 0.1
done
is "$(pgrep -P "$server1" | wc -l)" 0 "... and the server has no process left"

"$LORE_AM" --server -q --socket "$LORE_AM_SOCKET" 2>second.err
is "$? $(cat second.err)" \
	"75 lore-am: cannot serve on '$LORE_AM_SOCKET': another lore-am server holds it" \
	"a second server on the same socket: exit 75 and why"
"$CLIENT" -q -m one.mbox "$ONE_ID" >after.mbx
check "... and the first one still serves" cmp after.mbx direct.mbx

kill -TERM "$server1"
wait "$server1"
is "$?" 0 "SIGTERM stops the server: exit 0"
[ ! -e "$LORE_AM_SOCKET" ]
ok $? "... and its socket is gone"
"$CLIENT" -q -m one.mbox "$ONE_ID" >/dev/null 2>noserver.err
is "$? $(cat noserver.err)" \
	"75 lore-am-client: no server at '$LORE_AM_SOCKET': No such file or directory" \
	"no server, LORE_AM_SERVER=require: exit 75 and why"
LORE_AM_SERVER= "$CLIENT" -q -m one.mbox "$ONE_ID" >fallback.mbx
is $? 0 "no server: the client runs lore-am itself"
check "... with the same output" cmp fallback.mbx direct.mbx

# a server killed outright leaves its socket: the next one takes over
start_server "$LORE_AM_SOCKET"
kill -KILL "$SPID"
wait "$SPID" 2>/dev/null
LORE_AM_SERVER= "$CLIENT" -q -m one.mbox "$ONE_ID" >stale.mbx
check "a dead server's socket: the client falls back" cmp stale.mbx direct.mbx
start_server "$LORE_AM_SOCKET"
ok $? "... and a new server starts on it"
"$CLIENT" -q -m one.mbox "$ONE_ID" >restart.mbx
check "... and serves" cmp restart.mbx direct.mbx
kill -TERM "$SPID"
wait "$SPID"

# the default place: $XDG_RUNTIME_DIR, which must be private
mkdir -m 700 run
(
	unset LORE_AM_SOCKET
	export XDG_RUNTIME_DIR=$TRASH/run
	"$LORE_AM" --server -q --idle 3 2>/dev/null &
	# the socket takes its name only once it listens
	p=$!
	for _i in $(seq 100); do [ -S run/lore-am.sock ] && break; sleep 0.1; done
	"$CLIENT" -q -m one.mbox "$ONE_ID" >xdg.mbx
	rc=$?
	gone "$p" 300
	echo "$rc $? $([ -e run/lore-am.sock ] && echo left || echo removed)" >xdg.res
)
is "$(cat xdg.res)" "0 0 removed" \
	"no --socket: served in \$XDG_RUNTIME_DIR; --idle ends it, socket removed"
mkdir -m 755 openrun
XDG_RUNTIME_DIR=$TRASH/openrun LORE_AM_SOCKET= "$LORE_AM" --server -q 2>open.err
is "$? $(cat open.err)" \
	"2 lore-am: cannot serve: XDG_RUNTIME_DIR is not a private folder of ours" \
	"a runtime folder others may enter is refused"

# another user's server is never handed our descriptors
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -x /usr/bin/python3 ]; then
	pub=$(mktemp -d /tmp/lore-am-pub.XXXXXX)
	at_exit "rm -rf '$pub'"
	chmod 755 "$pub"
	start_server "$pub/s.sock"
	chmod 666 "$pub/s.sock"
	cp "$CLIENT" "$pub/client"
	(cd / && LORE_AM_SOCKET=$pub/s.sock setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$pub/client" --version >/dev/null 2>"$pub/other.err")
	rc=$?
	cp "$pub/other.err" other.err
	is "$rc $(cat other.err)" \
		"75 lore-am-client: '$pub/s.sock' is served by another user: not used" \
		"a server of another user: not used, exit 75 with require"
	# and the server's side: a well-formed request from another user
	# gets no process (the connection closes before any pid)
	cat >"$pub/req.py" <<'EOP'
import os, socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
strings = b"lore-am\0--version\0"
hello = struct.pack("=6I", 0x6c6f7265, 1, 0o22, 2, 0, len(strings))
fd = os.open("/", os.O_RDONLY)
null = os.open("/dev/null", os.O_RDWR)
try:
    socket.send_fds(s, [hello + strings], [null, null, null, fd])
    print(len(s.recv(4)))
except OSError:  # closed on us: nothing ran either
    print(0)
EOP
	same=$(/usr/bin/python3 "$pub/req.py" "$pub/s.sock" </dev/null 2>/dev/null)
	other=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
		/usr/bin/python3 "$pub/req.py" "$pub/s.sock" </dev/null 2>/dev/null)
	is "$same $other" "4 0" \
		"the server runs a request of its own user, not another user's"
	kill -TERM "$SPID"
	wait "$SPID"
else
	skip "needs root, setpriv and /usr/bin/python3 to run a client as another user"
	skip "needs root, setpriv and /usr/bin/python3 to run a client as another user"
fi

# LORE_AM_SERVER=auto: no server, so the command runs at once and a
# server is started for the next ones, holding none of our descriptors
asock=$TRASH/auto.sock
LORE_AM_SOCKET=$asock LORE_AM_SERVER=auto "$CLIENT" -q -m one.mbox "$ONE_ID" \
	>auto1.mbx 9>"$TRASH/marker"
rc=$?
apid=
for _i in $(seq 300); do
	for p in $(pgrep -f -- '--server -q --idle 600'); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qx "LORE_AM_SOCKET=$asock" && apid=$p
	done
	[ -n "$apid" ] && [ -S "$asock" ] && break
	sleep 0.1
done
[ -n "$apid" ] && at_exit "kill $apid 2>/dev/null"
is "$rc $(cmp -s auto1.mbx direct.mbx && echo same)" "0 same" \
	"LORE_AM_SERVER=auto with no server: the command runs at once"
[ -n "$apid" ] && [ -S "$asock" ] && ! ls -l "/proc/$apid/fd" | grep -q marker
ok $? "... and a server is started for the next ones, without our descriptors"
LORE_AM_SOCKET=$asock "$CLIENT" -q -m one.mbox "$ONE_ID" >auto2.mbx
check "... which serves them" cmp auto2.mbx direct.mbx
[ -n "$apid" ] && kill "$apid" && gone "$apid"
ok $? "... and stops by its PID"

# after an upgrade (the binary replaced on disk) the server steps aside
cp "$LORE_AM_REAL" "$TRASH/lore-am-old"
LORE_AM=$TRASH/lore-am-old start_server "$LORE_AM_SOCKET"
cp "$LORE_AM_REAL" "$TRASH/lore-am-new" && mv "$TRASH/lore-am-new" "$TRASH/lore-am-old"
LORE_AM_SERVER= "$CLIENT" -q -m one.mbox "$ONE_ID" >upgraded.mbx
rc=$?
gone "$SPID"
is "$rc $? $([ -e "$LORE_AM_SOCKET" ] && echo left || echo removed)" \
	"0 0 removed" \
	"a replaced binary: the request falls back, the server exits"

done_testing
