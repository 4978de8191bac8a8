#!/usr/bin/env bash
# hostile.sh - time and memory of lore-am on the big rows of the bad-input
# table (tests/t6000-bad-input.t), generated the same way: a 50 000-message
# thread with 25 000-deep reply chains (every 10th reply with a trailer, the
# worst case for walking chains), a 200 MB message piped in and one
# inside the mailbox, multiparts nested 100 000 deep, 1 MB header lines.
# Prints wall time and peak RSS (GNU time), median of N runs (default 3).
#
#   bench/hostile.sh [-n RUNS] [LORE_AM]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
[ "${1:-}" = -n ] && { runs=$2; shift 2; }
lore=${1:-./lore-am}
command -v /usr/bin/time >/dev/null || { echo "hostile.sh: needs GNU time" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
edit=tests/mbox-edit

cover=$(bench/gen-thread.sh --preset small -o "$tmp/thread.mbox")
p=()
for i in 1 2 3 4 5; do p[i]=${cover/.0.v1-/.$i.v1-}; done

big_message() {
	printf 'From: Big <big@example.org>\nSubject: [PATCH] big\n'
	printf 'Message-ID: <big@example.org>\nDate: Mon, 1 Jan 2024 12:00:00 +0000\n\n'
	# yes dies of SIGPIPE when head is done: not a failure
	(set +o pipefail
	 yes 'diff --git a/x b/x and a long line of text that keeps on going' |
		head -c 200000000)
}

cp "$tmp/thread.mbox" "$tmp/huge.mbox"
perl -e '
	my ($cover, @p) = @ARGV;
	my @ids;
	for my $i (1 .. 50000) {
		my $irt = $i % 25000 == 1 ? $p[$i % 5] : $ids[-1];
		my $id = "huge$i\@example.org";
		my $r = $i % 97;
		printf "From x\@y Mon Jan  1 12:00:00 2024\nFrom: Rev %d <rev%d\@example.org>\nSubject: Re: [PATCH]\nDate: Mon, 1 Jan 2024 13:%02d:%02d +0000\nMessage-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s> <%s>\n\nok\n%s\n",
			$r, $r, ($i / 60) % 60, $i % 60, $id, $irt, $cover, $irt,
			$i % 10 ? "" : "\nReviewed-by: Rev $r <rev$r\@example.org>\n";
		push @ids, $id;
	}' "$cover" "${p[@]:1}" >>"$tmp/huge.mbox"
cp "$tmp/thread.mbox" "$tmp/bigin.mbox"
{ echo "From big@example.org Mon Jan  1 12:00:00 2024"; big_message; } >>"$tmp/bigin.mbox"
cp "$tmp/thread.mbox" "$tmp/nest.mbox"
"$edit" "$tmp/nest.mbox" "${p[5]}" '
	my ($h, $b) = split_msg();
	$h =~ s/^(Content-Type|Content-Transfer-Encoding|MIME-Version):[^\n]*\n//mig;
	my $o = "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b0\"\n\n";
	$o .= "--b$_\nContent-Type: multipart/mixed; boundary=\"b" . ($_ + 1) . "\"\n\n" for 0 .. 99999;
	$o .= "--b100000\nContent-Type: text/plain\n\n$b\n";
	$_ = $h . $o;'
cp "$tmp/thread.mbox" "$tmp/long.mbox"
"$edit" "$tmp/long.mbox" "${p[1]}" 'set_header("X-Junk", "x" x 1000000)'
"$edit" "$tmp/long.mbox" "${p[2]}" 's/^(Subject: [^\n]*)/$1 . (" word" x 200000)/me'

measure() { # NAME INPUT-FILE-OR-- ARGS...
	local name=$1 in=$2 i
	shift 2
	for ((i = 0; i < runs; i++)); do
		if [ "$in" = pipe ]; then
			/usr/bin/time -f '%e %M' -o "$tmp/t" "$lore" -q "$@" \
				< <(big_message) >/dev/null 2>&1 || true
		else
			/usr/bin/time -f '%e %M' -o "$tmp/t" "$lore" -q "$@" \
				<"$in" >/dev/null 2>&1 || true
		fi
		tail -1 "$tmp/t"
	done | sort -n | awk -v n="$name" -v r="$runs" '
		{ t[NR] = $1; m[NR] = $2 }
		END { i = int((r + 1) / 2); printf "%-34s %8.2f s %8d KB\n", n, t[i], m[i] }'
}

printf '%-34s %10s %11s\n' input "wall" "peak RSS"
measure "thread (26 messages, baseline)" /dev/null -m "$tmp/thread.mbox" "$cover"
measure "50 000 messages, chains 25 000" /dev/null -m "$tmp/huge.mbox" "$cover"
measure "200 MB message piped in" pipe -m "$tmp/thread.mbox"
measure "200 MB message in the mailbox" /dev/null -m "$tmp/bigin.mbox" "$cover"
measure "multiparts nested 100 000 deep" /dev/null -m "$tmp/nest.mbox" "$cover"
measure "1 MB header lines" /dev/null -m "$tmp/long.mbox" "$cover"
