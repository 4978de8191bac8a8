#!/bin/bash
# A series of 1000 patches: git format-patch numbers them [PATCH 0001/1000]
# to [PATCH 1000/1000], and counters of four digits are read as b4 reads
# them (\d{1,4}/\d{1,4}). All 1000 come out in order, a reply to the last
# gives it its trailer, and a missing one is named.
. "$(dirname "$0")/lib.sh"
plan 6

R=$TRASH/repo
N=1000
make_repo "$R" || exit 1
# the commits through git fast-import: a thousand `git commit` runs would
# take most of a minute (and glibc asked to keep its heap rather than hand
# it back and ask again for each commit, which some kernels make slow)
perl -e '
	my ($n, $t) = ($ARGV[0], 1704067200);
	for my $i (1 .. $n) {
		my $c = "content of piece $i\n";
		my $m = "piece: add piece $i\n\nThis adds piece $i.\n\n" .
			"Signed-off-by: Pat Contributor <pat\@example.com>\n";
		my $who = "Pat Contributor <pat\@example.com> " . ($t + $i);
		print "commit refs/heads/topic\n",
		      "author $who +0000\ncommitter $who +0000\n",
		      "data ", length($m), "\n$m";
		print "from refs/tags/base\n" if $i == 1;
		printf "M 100644 inline p%04d.c\ndata %d\n%s\n", $i, length($c), $c;
	}' "$N" | MALLOC_TOP_PAD_=67108864 git -C "$R" fast-import --quiet || exit 1
git -C "$R" format-patch -q --stdout --cover-letter --thread=shallow \
	base..topic >"$TRASH/all.mbox" || exit 1
ids() { sed -n 's/^Message-I[dD]: *<\(.*\)>$/\1/p' "$1"; }
cover=$(ids "$TRASH/all.mbox" | head -n 1)
last=$(ids "$TRASH/all.mbox" | tail -n 1)
if ! grep -q '^Subject: \[PATCH 1000/1000\] piece: add piece 1000$' "$TRASH/all.mbox"; then
	echo "# setup: format-patch did not number the patches i/1000"; exit 1
fi

# a review of the last patch
cat >>"$TRASH/all.mbox" <<EOF
From rita@example.net Tue Jan  2 10:00:00 2024
From: Rita Reviewer <rita@example.net>
Subject: Re: [PATCH 1000/1000] piece: add piece 1000
Date: Tue, 2 Jan 2024 10:00:00 +0000
Message-ID: <review-1000@example.net>
In-Reply-To: <$last>
References: <$cover> <$last>

Reviewed-by: Rita Reviewer <rita@example.net>
EOF

"$LORE_AM" -q -m "$TRASH/all.mbox" "$cover" >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(grep -c '^From ' "$TRASH/out")" "0:$N" "a 1000-patch series: exit 0, 1000 patches"
seq "$N" | sed 's|.*|Subject: [PATCH &/1000] piece: add piece &|' >"$TRASH/want"
grep '^Subject:' "$TRASH/out" >"$TRASH/got"
same_file "$TRASH/got" "$TRASH/want" "... in order, from [PATCH 1/1000] to [PATCH 1000/1000]"
# each message holds its own diff: piece i adds pNNNN.c
perl -ne '
	$s = $1 if /^Subject: \[PATCH (\d+)\/1000\]/;
	$bad++ if /^\+\+\+ b\/p(\d+)\.c$/ && $1 != $s;
	$n++ if /^\+\+\+ b\//;
	END { print $bad ? "$bad misplaced" : "$n diffs", "\n" }' "$TRASH/out" >"$TRASH/diffs"
is "$(cat "$TRASH/diffs")" "$N diffs" "... each with its own diff"
perl -ne '
	$s = $1 if /^Subject: \[PATCH (\d+)\/1000\]/;
	print "$s\n" if /^Reviewed-by: Rita Reviewer/' "$TRASH/out" >"$TRASH/rb"
is "$(cat "$TRASH/rb")" 1000 "the review of 1000/1000 goes to that patch alone"

# patch 999 left out: named, nothing written
perl -e '
	local $/; my @m = split /^(?=From [0-9a-f]{40} |From rita\@)/m, <>;
	print grep { !/^Subject: \[PATCH 0999\/1000\]/m } @m;' \
	"$TRASH/all.mbox" >"$TRASH/gap.mbox"
if [ "$(grep -c '^From ' "$TRASH/gap.mbox")" != $((N + 1)) ]; then
	echo "# setup: the mbox without patch 999 is not 1001 messages"; exit 1
fi
"$LORE_AM" -q -m "$TRASH/gap.mbox" "$cover" >"$TRASH/gap.out" 2>"$TRASH/gap.err"
is "$?:$(wc -c <"$TRASH/gap.out")" "1:0" "patch 999 of 1000 missing: exit 1, nothing written"
check "... and named" grep -qx 'lore-am: v1: missing 999/1000' "$TRASH/gap.err"
done_testing
