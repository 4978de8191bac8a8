# lib-net.sh - helpers for lore-am's network tests; source it after lib.sh
# (and lib-pi.sh when a public-inbox server is needed).
#
#   tiny_start VAR MODE ARGS...  start tests/tiny-httpd.pl (see its header)
#                                in the background, set VAR to its port and
#                                its request log to $TRASH/tinyN.log
#                                (N = $TINY_N); stopped by PID at exit
#   free_port VAR                set VAR to a port nothing listens on
#   gz_thread                    bench/gen-thread.sh's small thread in
#                                $TRASH/thread.mbox and gzipped in
#                                $TRASH/thread.gz (what an archive sends);
#                                COVER is its cover letter's Message-ID
#   lore NAME ARGS...            run lore-am with stdin from /dev/null;
#                                $TRASH/NAME.out, NAME.err, NAME.rc
#   lore_in NAME FILE ARGS...    the same with FILE piped in, as a mail
#                                client does
#   am_gives DIR NAME REF        git am of $TRASH/NAME.out on base in the
#                                repository DIR (branch tNAME) gives REF's
#                                tree
#   fails NAME STATUS ERE DESC   check that run: exit STATUS, one line on
#                                stderr matching "^lore-am: ERE" (grep -E),
#                                nothing on stdout
#   no_cache_entry               the cache holds no file
#   gz_ok FILE                   FILE is a whole gzip stream
#   git_daemon VAR DIR           serve the repositories under DIR with a
#                                real git daemon on 127.0.0.1; VAR is set
#                                to its git:// URL (add /NAME.git); stopped
#                                by PID at exit

TINY_N=0

tiny_start() {
	local var=$1 pf pid i=0
	shift
	TINY_N=$((TINY_N + 1))
	pf=$TRASH/tiny$TINY_N.port
	perl "$TEST_DIR/tiny-httpd.pl" "$pf" "$TRASH/tiny$TINY_N.log" "$@" \
		</dev/null >/dev/null 2>>"$TRASH/tiny$TINY_N.err" &
	pid=$!
	at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
	while [ ! -s "$pf" ]; do
		if ! kill -0 "$pid" 2>/dev/null || [ $i -ge 100 ]; then
			echo "# tiny-httpd.pl did not start" >&2
			cat "$TRASH/tiny$TINY_N.err" >&2
			return 1
		fi
		sleep 0.05
		i=$((i + 1))
	done
	printf -v "$var" '%s' "$(cat "$pf")"
}

free_port() {
	local pf=$TRASH/free.port
	rm -f "$pf"
	perl "$TEST_DIR/tiny-httpd.pl" "$pf" - freeport || return 1
	printf -v "$1" '%s' "$(cat "$pf")"
}

gz_thread() {
	COVER=$("$SRC_DIR/bench/gen-thread.sh" --preset small \
		-o "$TRASH/thread.mbox") || return 1
	gzip -c "$TRASH/thread.mbox" >"$TRASH/thread.gz"
}

lore() {
	local name=$1
	shift
	lore_in "$name" /dev/null "$@"
}

lore_in() {
	local name=$1 in=$2
	shift 2
	"$LORE_AM" "$@" <"$in" >"$TRASH/$name.out" 2>"$TRASH/$name.err"
	echo $? >"$TRASH/$name.rc"
}

am_gives() {
	(cd "$1" && git checkout -q -f -B "t$2" base &&
	 git am -q "$TRASH/$2.out" && git diff --quiet "$3")
}

fails() {
	local rc lines
	rc=$(cat "$TRASH/$1.rc")
	lines=$(wc -l <"$TRASH/$1.err")
	if [ "$rc" = "$2" ] && [ "$lines" = 1 ] &&
	   grep -qE "^lore-am: $3" "$TRASH/$1.err" &&
	   [ ! -s "$TRASH/$1.out" ]; then
		ok 0 "$4"
	else
		ok 1 "$4"
		echo "# exit $rc, stderr:"
		head -c 2000 "$TRASH/$1.err" | sed 's/^/#   /'
	fi
}

no_cache_entry() {
	[ -z "$(find "$XDG_CACHE_HOME" -type f 2>/dev/null)" ]
}

gz_ok() {
	[ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = 1f8b ] &&
		gzip -t <"$1" 2>/dev/null
}

git_daemon() {
	local var=$1 dir=$2 port pid log i=0
	free_port port || return 1
	log=$TRASH/daemon.$port.log
	git daemon --verbose --reuseaddr --export-all --base-path="$dir" \
		--listen=127.0.0.1 --port="$port" >"$log" 2>&1 &
	pid=$!
	at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
	until grep -q "Ready to rumble" "$log" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
	printf -v "$var" '%s' "git://127.0.0.1:$port"
}
