#!/usr/bin/env bash
# index-sync-bench.sh - what the -m index costs in waits for the disk
# (fsync-like calls, counted with strace) and in instructions (callgrind,
# steady on a loaded machine), for the runs of the mail filter's path: the
# first build of a large maildir's index, a warm run, and runs that each
# add one delivered mail.
#
# Usage:
#   index-sync-bench.sh [-n MESSAGES] [-a ADDS] [-w DIR] [-L LORE_AM]
#
#   -n MESSAGES  list mails in the maildir (default 20000)
#   -a ADDS      runs that each add one mail (default 40); the first 5
#                are also measured with callgrind
#   -w DIR       keep the folder and raw figures in DIR
#   -L LORE_AM   the binary to measure (default: ./lore-am of this tree)
#
# Prints a Markdown table on stdout; progress on stderr. Needs perl,
# strace and valgrind.
set -euo pipefail

die() { echo "index-sync-bench.sh: $*" >&2; exit 2; }
say() { echo "index-sync-bench.sh: $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
n=20000 adds=40 work='' lore=$here/../lore-am
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=${2:?}; shift 2 ;;
	-a) adds=${2:?}; shift 2 ;;
	-w) work=${2:?}; shift 2 ;;
	-L) lore=${2:?}; shift 2 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
	   exit 2 ;;
	esac
done
for v in "$n" "$adds"; do
	case $v in ''|*[!0-9]*) die "-n and -a take numbers" ;; esac
done
for p in perl strace valgrind; do
	command -v "$p" >/dev/null || die "$p not found"
done
[ -x "$lore" ] || die "$lore not found (run make first)"
if [ -n "$work" ]; then
	mkdir -p "$work" && work=$(cd "$work" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/lore-am-sync-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
export XDG_CACHE_HOME=$work/cache GIT_CONFIG_NOSYSTEM=1 HOME=$work
export GIT_CONFIG_GLOBAL=$work/gitconfig
printf '[lore-am]\n\tqueue = false\n' >"$GIT_CONFIG_GLOBAL"
md=$work/md
rm -rf "$md" "$XDG_CACHE_HOME"
mkdir -p "$md"/{cur,new,tmp}

say "$n list mails"
perl -e 'my ($n, $dir) = @ARGV; srand(1); my @ids;
for my $i (1 .. $n) {
	my $id = "m$i\@list.example.org";
	my $irt = "";
	if (@ids && rand() < 0.7) {
		my $p = $ids[-1 - int(rand(@ids < 2000 ? @ids : 2000))];
		$irt = "In-Reply-To: <$p>\nReferences: <$p>\n";
	}
	push @ids, $id;
	open my $f, ">", "$dir/m$i.bench:2,S" or die "$dir: $!";
	print $f "From: S <s", $i % 1000, "\@example.org>\n",
		"Subject: topic ", $i % 997, "\n",
		"Date: Mon, 1 Jan 2024 10:00:00 +0000\nMessage-ID: <$id>\n",
		$irt, "\n", "word " x 150, "\n";
}' "$n" "$md/cur"
touch -d @1700000000 "$md/cur" "$md/new"

args=(-q --thread -m "$md" m1@list.example.org)
# syncs NAME: the run under strace, its fsync-like calls counted
syncs() {
	strace -f -qq -o "$work/st.$1" \
		-e trace=fsync,fdatasync,syncfs,sync_file_range \
		"$lore" "${args[@]}" >/dev/null 2>&1 || die "lore-am failed"
	grep -cE '^[0-9]+ +(fsync|fdatasync|syncfs|sync_file_range)\(' \
		"$work/st.$1" || true
}
# instr NAME: the run under callgrind, its instructions in millions
instr() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" \
		"$lore" "${args[@]}" >/dev/null 2>"$work/cg.$1.err" ||
		die "lore-am failed under callgrind"
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.$1.err" |
		awk '{ printf "%.2f", $1 / 1e6 }'
}
# add I: one reply delivered into new/ (the folder's time set in the
# past: one changed within 50 ms is listed again by the next run)
add() {
	printf 'From: R <r@example.org>\nSubject: Re: topic\nMessage-ID: <add%d@example.org>\nIn-Reply-To: <m1@list.example.org>\n\nbody\n' \
		"$1" >"$md/tmp/add$1"
	mv "$md/tmp/add$1" "$md/new/add$1.bench"
	touch -d "@$((1700000000 + $1))" "$md/new"
}
wal() { stat -c %s "$XDG_CACHE_HOME"/lore-am/index/*-wal 2>/dev/null || echo 0; }

say "first build: syncs, then instructions"
first_s=$(syncs first)
rm -rf "$XDG_CACHE_HOME"
first_i=$(instr first)
say "warm run"
warm_s=$(syncs warm)
warm_i=$(instr warm)
say "$adds runs adding one mail each"
total=0 synced=0 add_i='' maxwal=0
for i in $(seq 1 "$adds"); do
	add "$i"
	if [ "$i" -le 5 ]; then
		add_i="$add_i $(instr "add$i")"
		add "$((i + 100000))"
	fi
	s=$(syncs "add$i")
	total=$((total + s))
	[ "$s" -gt 0 ] && synced=$((synced + 1))
	w=$(wal)
	[ "$w" -gt "$maxwal" ] && maxwal=$w
done
warm2_i=$(instr warm2)
cat <<REPORT
| run ($n-message maildir) | fsync-like calls | instructions (M) |
|---|---|---|
| first build of the index | $first_s | $first_i |
| warm run, nothing new | $warm_s | $warm_i |
| a run adding one mail ($adds runs) | $total in all, in $synced runs | first 5:$add_i |
| warm run after them (WAL $(($(wal) / 1024)) KiB) | | $warm2_i |

Largest WAL left between runs: $((maxwal / 1024)) KiB.
REPORT
