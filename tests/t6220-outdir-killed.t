#!/bin/bash
# -o writes each file to a temporary name and renames it: a run killed
# before the rename leaves a temporary file, never a torn .mbx. The next
# write into the folder removes such files of its own naming once they are
# a minute old and their process is gone, and leaves everything else.
. "$(dirname "$0")/lib.sh"

command -v perl >/dev/null || skip_all "perl not installed"

plan 10

cd "$TRASH" || exit 1

# a 100-patch series of 24 MB, so that the write takes a while (8 MB
# under sanitizers or valgrind, where reading it is what takes a while)
if [ -z "$LORE_AM_TOOL" ]; then lines=3000; else lines=1000; fi
perl -e '
	my ($n, $lines, $d) = (100, shift, "Mon, 1 Jan 2024 10:00:00 +0000");
	print "From x Mon Jan  1 00:00:00 2024\nFrom: Dev <dev\@example.org>\n",
	      "Subject: [PATCH 0/$n] big: cover\nDate: $d\n",
	      "Message-ID: <c\@example.org>\n\nA big series.\n\n";
	for my $i (1 .. $n) {
		print "From x Mon Jan  1 00:00:00 2024\n",
		      "From: Dev <dev\@example.org>\n",
		      "Subject: [PATCH $i/$n] big: file $i\nDate: $d\n",
		      "Message-ID: <p$i\@example.org>\n",
		      "In-Reply-To: <c\@example.org>\n\n",
		      "big: add file $i\n\nSigned-off-by: Dev <dev\@example.org>\n",
		      "---\n f$i | $lines +\n 1 file changed, $lines insertions(+)\n\n",
		      "diff --git a/f$i b/f$i\nnew file mode 100644\n",
		      "index 0000000..1111111\n--- /dev/null\n+++ b/f$i\n",
		      "\@\@ -0,0 +1,$lines \@\@\n";
		print "+line $_ of file $i ", "y" x 60, "\n" for 1 .. $lines;
		print "-- \n2.43.0\n\n";
	}' "$lines" >series.mbox
"$LORE_AM" -q -m series.mbox -o ref c@example.org
is "$?:$(ls ref | wc -l)" "0:2" "the reference: .mbx and .cover"

temps() { find out -name '*.tmp-*' | sort; }

# killed in the write, until a temporary file is left (at most 5 tries)
for i in 1 2 3 4 5; do
	rm -rf out
	perl "$TEST_DIR/kill-at-write.pl" KILL 'out/*.tmp-*' kill.err \
		"$LORE_AM" -q -m series.mbox -o out c@example.org >kill.res
	[ -n "$(temps)" ] && break
done
is "$(cut -d' ' -f1,2 kill.res)" "sig 9" "SIGKILL sent while the temporary file grew"
left=$(temps)
test -n "$left" -a ! -e out/20240101_dev_big_cover.mbx
ok $? "a temporary file is left, no torn .mbx"

# (its age from now: a slow run must not have made it a minute old)
touch "$left"
# a temporary file of a dead process less than a minute old stays (its
# writer may be on another host sharing the folder), one of a live
# process (this shell) stays whatever its age, and so does a file that
# only looks similar
echo x >out/other.mbx.tmp-$$-abcdef
touch -d '10 minutes ago' out/other.mbx.tmp-$$-abcdef
echo x >out/notes.tmp-keep
touch -d '10 minutes ago' out/notes.tmp-keep
"$LORE_AM" -q -m series.mbox -o out c@example.org
is "$?" 0 "the next run writes the series"
same_file out/20240101_dev_big_cover.mbx ref/20240101_dev_big_cover.mbx \
	"... whole"
test -e "$left"
ok $? "... a fresh temporary file of a dead process is left for a minute"
test -e out/other.mbx.tmp-$$-abcdef -a -e out/notes.tmp-keep
ok $? "... so are a live process's and a file of another naming"

touch -d '2 minutes ago' "$left"
"$LORE_AM" -q -m series.mbox -o out c@example.org
is "$?" 0 "a run a minute later"
test ! -e "$left"
ok $? "... removes the dead process's temporary file"
is "$(ls out | sort | tr '\n' ' ')" \
	"20240101_dev_big_cover.cover 20240101_dev_big_cover.mbx notes.tmp-keep other.mbx.tmp-$$-abcdef " \
	"... and nothing else"

done_testing
