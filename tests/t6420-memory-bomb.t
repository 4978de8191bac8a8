#!/bin/bash
# A thread's cost in memory is bounded by lore-am.max-size with each
# message counted at its size plus its overhead: 13 MB of gzip holding 4.8
# million tiny replies (370 MB inflated, under the cap by bytes alone) once
# took 2.2 GB and, under a 1 GB address space cap, crashed. Now it stops
# before the cap with exit 2 and one line. (Under sanitizers or valgrind,
# which reserve huge address ranges, the address space is not capped and a
# smaller bomb meets a smaller lore-am.max-size, so that the same path runs
# in bounded time.)
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"

command -v gzip >/dev/null || skip_all "gzip not installed"
plan 5

if [ -z "$LORE_AM_TOOL" ]; then
	n=4800000 cap= capword="512 MiB"
else
	n=100000 cap=16m capword="16 MiB"
fi
# bomb N: a root and N replies of one line each, gzipped
perl -e '
	my $n = shift;
	print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <r\@x>\n",
	      "Subject: s\n\nroot\n\n";
	print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <$_\@x>\n",
	      "In-Reply-To: <r\@x>\n\nx\n\n" for 1 .. $n;' "$n" |
	gzip -1 >"$TRASH/bomb.gz"
tiny_start SRV serve "$TRASH/bomb.gz" application/gzip || exit 1
[ -n "$cap" ] && git config --global lore-am.max-size "$cap"

(limit_vm 1048576
 exec "$LORE_AM" --thread -L "http://127.0.0.1:$SRV/list" r@x \
	</dev/null >"$TRASH/bomb.out" 2>"$TRASH/bomb.err")
echo $? >"$TRASH/bomb.rc"
fails bomb 2 "cannot fetch .*: the thread would take more than $capword of memory \([0-9]+ messages so far, each counted with 512 bytes of overhead; see lore-am.max-size\)" \
	"$n tiny replies: exit 2 and one line before the memory cap, no crash"
check "nothing cached" no_cache_entry
grep -q "([0-9]* messages so far" "$TRASH/bomb.err" &&
	[ "$(sed 's/.*(\([0-9]*\) messages so far.*/\1/' "$TRASH/bomb.err")" -lt "$n" ]
ok $? "... stopped before the end of the thread"

# the same under a 1 GB cap with lore-am.max-size lowered: the bound moves
git config --global lore-am.max-size 8m
(limit_vm 1048576
 exec "$LORE_AM" --thread -L "http://127.0.0.1:$SRV/list" r@x \
	</dev/null >"$TRASH/small.out" 2>"$TRASH/small.err")
echo $? >"$TRASH/small.rc"
fails small 2 "cannot fetch .*: the thread would take more than 8 MiB of memory \(1[0-9]{4} messages so far" \
	"lore-am.max-size 8m: stopped after some 14 000 messages"

# a thread under the bound is written whole
git config --global lore-am.max-size 64m
perl -e '
	print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <r\@x>\n",
	      "Subject: s\n\nroot\n\n";
	print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <$_\@x>\n",
	      "In-Reply-To: <r\@x>\n\nx\n\n" for 1 .. 20000;' |
	gzip -1 >"$TRASH/ok.gz"
tiny_start OK serve "$TRASH/ok.gz" application/gzip || exit 1
lore fine -C --thread -L "http://127.0.0.1:$OK/list" r@x
is "$(cat "$TRASH/fine.rc"):$(grep -c '^From ' "$TRASH/fine.out")" "0:20001" \
	"20 001 messages (about 11 MB counted) under 64m: written whole"
git config --global --unset lore-am.max-size

done_testing
