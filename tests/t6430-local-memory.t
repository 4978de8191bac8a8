#!/bin/bash
# lore-am.max-size bounds the thread's memory from every source, not only
# the archive: a local mbox or maildir of many tiny replies, read whole or
# through its index, and the notmuch thread, each stop with exit 2 and one
# line before they take more, each message counted at its size plus its
# overhead. An allocation that fails all the same (a memory cap met by one
# huge message) is one line and exit 2, never a crash. A smaller
# lore-am.max-size keeps the bombs small; they run under a 1 GB address
# space cap (not under sanitizers or valgrind, see limit_vm).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-index.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed or not compiled in"
plan 10

cd "$TRASH" || exit 1
# bomb N: a root and N replies of one line each
bomb() {
	perl -e '
		my $n = shift;
		print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <r\@x>\n",
		      "Subject: s\n\nroot\n\n";
		print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <$_\@x>\n",
		      "In-Reply-To: <r\@x>\n\nx\n\n" for 1 .. $n;' "$1"
}
# capped NAME ARGS...: lore-am ARGS under a 1 GB address space cap
# ($CAP KB)
CAP=1048576
capped() {
	local name=$1
	shift
	(limit_vm "$CAP"
	 exec "$LORE_AM" "$@" </dev/null >"$name.out" 2>"$name.err")
	echo $? >"$name.rc"
}
# refused NAME WHAT DESC: exit 2, one line saying WHAT would pass the bound
refused() {
	if [ "$(cat "$1.rc")" = 2 ] && [ "$(wc -l <"$1.err")" = 1 ] &&
	   grep -qE "^lore-am: cannot read $2: the thread would take more than 16 MiB of memory \([0-9]+ messages so far, each counted with 512 bytes of overhead; see lore-am.max-size\)$" "$1.err" &&
	   [ ! -s "$1.out" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "# exit $(cat "$1.rc"):"
		head -c 1000 "$1.err" | sed 's/^/#   /'
	fi
}

bomb 200000 >tiny.mbox
git config --global lore-am.max-size 16m

capped plain --no-index --thread -m tiny.mbox r@x
refused plain "'tiny.mbox'" "an mbox of 200 000 tiny replies, read whole: exit 2, one line"
n=$(sed -n 's/.*(\([0-9]*\) messages so far.*/\1/p' plain.err)
test -n "$n" && [ "$n" -gt 20000 ] && [ "$n" -lt 40000 ]
ok $? "... stopped after some 28 000 messages ($n), not at the end"

capped indexed --thread -m tiny.mbox r@x
refused indexed "'tiny.mbox'" "the same mbox through its index: exit 2, one line"
check "... the index kept: a bound is no fault of the index" \
	test -s "$(idx_db tiny.mbox)"

# a maildir, through its index and read whole
mkdir -p md/cur md/new md/tmp
perl -e '
	my $d = shift;
	for my $i (0 .. 40000) {
		open my $f, ">", "$d/cur/m$i.host:2,S" or die;
		print $f "From: a\@x\n", $i
		    ? "Message-ID: <$i\@x>\nIn-Reply-To: <r\@x>\n\nx\n"
		    : "Message-ID: <r\@x>\nSubject: s\n\nroot\n";
	}' md
capped mdidx --thread -m md r@x
refused mdidx "'md'" "a maildir of 40 000 tiny replies through its index: exit 2, one line"
capped mdplain --no-index --thread -m md r@x
refused mdplain "'md'" "... and read whole: exit 2, one line"

# notmuch: the same maildir as its mail root
nm_init "$TRASH/nm" || exit 1
mv md/cur/* "$NM_MAIL/cur/"
nm_new || exit 1
capped nm -N --thread r@x
refused nm "the notmuch thread" "the notmuch thread of 40 000 tiny replies: exit 2, one line"

# under the bound, everything is written
git config --global lore-am.max-size 256m
"$LORE_AM" -q --no-index --thread -m tiny.mbox 1@x >fine.out 2>fine.err
is "$?:$(grep -c '^From ' fine.out)" "0:200001" \
	"200 001 messages (some 117 MB counted) under 256m: written whole"
git config --global --unset lore-am.max-size

# one message larger than the memory cap leaves (no bound can keep the
# message being read from taking memory): a failed allocation is one
# line and exit 2, not an abort
perl -e 'print "From x Mon Jan  1 00:00:00 2024\nMessage-ID: <h\@x>\n\n";
	print "a" x 69, "\n" for 1 .. 5000000' >huge.mbox
CAP=300000 capped huge --no-index --thread -m huge.mbox h@x
if [ -z "$LORE_AM_TOOL" ]; then
	is "$(cat huge.rc):$(wc -l <huge.err)" 2:1 \
		"a 350 MB message under a 300 MB cap: exit 2, one line"
	check "... that says memory ran out" \
		grep -qE '^lore-am: out of memory \(.*failed to allocate [0-9]+ bytes\)$' huge.err
else
	is "$(cat huge.rc)" 1 "a 350 MB message (no cap here): skipped, not found"
	check "... with the warning" grep -q 'larger than 64 MiB skipped' huge.err
fi

done_testing