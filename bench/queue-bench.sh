#!/usr/bin/env bash
# queue-bench.sh - what the queue (filter/queue/) costs.
#
#   bench/queue-bench.sh [-n RUNS]
#
# 1. The mail filter with and without the queue: every mail of a
#    generated thread (--preset small: 5 patches, 20 replies) piped, in
#    arrival order, through `lore-am --passthrough --status-header -q -m
#    THREAD -o OUT`, once with lore-am.queue = true (the state recorded,
#    state= in the header) and once with it false: instructions per mail
#    (callgrind, the sum over the 26 mails; the machine may be loaded);
#    and the median wall time a mail over RUNS rounds of the 26 mails,
#    each mail's process started by bench/rusage.c (no shell between two
#    mails), the settings and the floors taken in turn so that a change
#    of load falls on all: /bin/true (what starting a process costs on
#    the machine), `lore-am --version` (what starting lore-am costs,
#    its instructions counted too), the two deliveries, and their ratios,
#    with the load average before and after. Then
#    the system calls a mail makes (strace -f -c; the thread delivered
#    once to make the queue file, then three times over, 78 mails, so
#    that the checkpoints a long stream of mail makes are counted): all
#    of them, and the fsync/fdatasync among them, the ones that wait for
#    the disk.
# 2. `lore-am queue` over a queue of 10 000 series (5 patches and 6
#    messages each, written straight into the SQLite file): instructions
#    and median time of the text list, --format=json and --ready.
set -euo pipefail
runs=5
if [ "${1:-}" = -n ]; then runs=${2:?}; fi
src=$(cd "$(dirname "$0")/.." && pwd)
lore_am=${LORE_AM:-$src/lore-am}
[ -x "$lore_am" ] || { echo "queue-bench.sh: build lore-am first (make)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "queue-bench.sh: needs valgrind" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "queue-bench.sh: needs sqlite3" >&2; exit 2; }
command -v strace >/dev/null || { echo "queue-bench.sh: needs strace" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-queue.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# outside any git tree: `lore-am queue` lists, it does not scan a tree
cd "$tmp"
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$tmp/gitconfig
unset XDG_DATA_HOME
mkdir -p "$HOME"
: >"$GIT_CONFIG_GLOBAL"

"$src/bench/gen-thread.sh" --preset small -o "$tmp/t.mbox" >/dev/null
mkdir -p "$tmp/split"
git mailsplit --mboxrd -o"$tmp/split" "$tmp/t.mbox" >/dev/null
n=$(ls "$tmp/split" | wc -l)

deliver_all() {
	for f in "$tmp"/split/*; do
		"$lore_am" --passthrough --status-header -q -o "$tmp/o" \
			-m "$tmp/t.mbox" <"$f" >/dev/null 2>&1
	done
}
cc -O2 -o "$tmp/rusage" "$src/bench/rusage.c" ||
	{ echo "queue-bench.sh: cannot build bench/rusage.c" >&2; exit 2; }
# one round of the mails through "$@", its wall time in microseconds
# (rusage's first column, the sum over the mails)
round_usecs() {
	"$tmp/rusage" 1 "$tmp/split" "$@" | awk '{printf "%d\n", $1 * 1e6}'
}
# instructions of "$@" (callgrind's count)
insns() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		2>&1 >/dev/null | sed -n 's/.*Collected : //p' | tail -1
}
mail_insns() {
	local sum=0 i
	for f in "$tmp"/split/*; do
		i=$(insns "$lore_am" --passthrough --status-header -q \
			-o "$tmp/o" -m "$tmp/t.mbox" <"$f")
		sum=$((sum + i))
	done
	echo $((sum / n))
}
# "CALLS SYNCS": the system calls of every mail's delivery, three times
# over, summed (strace -c's calls column), and the fsync(2)/fdatasync(2)
# among them
mail_syscalls() {
	local f
	for f in "$tmp"/split/* "$tmp"/split/* "$tmp"/split/*; do
		strace -f -c -o "$tmp/sc" "$lore_am" --passthrough \
			--status-header -q -o "$tmp/o" -m "$tmp/t.mbox" <"$f" \
			>/dev/null 2>&1
		awk '$NF == "total" { t += $4 }
			$NF == "fsync" || $NF == "fdatasync" { s += $4 }
			END { print t + 0, s + 0 }' "$tmp/sc"
	done | awk '{ t += $1; s += $2 } END { print t, s }'
}
# microseconds "$@" takes
usecs() {
	local s e
	s=$(date +%s%N)
	"$@"
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
}
# the median of the numbers on stdin, microseconds, as milliseconds
median() {
	sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)] / 1000}'
}
median_ms() {
	for _ in $(seq "$runs"); do usecs "$@"; done | median
}

echo "1. --passthrough, $n mails of a small thread, per mail (load $(cut -d' ' -f1-3 /proc/loadavg))"
declare -A ins
for q in false true; do
	git config --global lore-am.queue $q
	rm -rf "$HOME/.local/share/lore-am"
	deliver_all
	ins[$q]=$(mail_insns)
done
# the wall times in turn: /bin/true, --version, false, true, /bin/true, ...
for _ in $(seq "$runs"); do
	round_usecs /bin/true >>"$tmp/wall.floor"
	round_usecs "$lore_am" --version >>"$tmp/wall.version"
	for q in false true; do
		git config --global lore-am.queue $q
		round_usecs "$lore_am" --passthrough --status-header -q \
			-o "$tmp/o" -m "$tmp/t.mbox" >>"$tmp/wall.$q"
	done
done
# the median ms a mail of the rounds in "$1"
per_mail() { median <"$1" | awk -v n="$n" '{printf "%.2f", $1 / n}'; }
floor=$(per_mail "$tmp/wall.floor")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
for q in false true; do
	ms=$(per_mail "$tmp/wall.$q")
	printf '   lore-am.queue=%-5s %12s instructions/mail  %8s ms/mail  %6sx /bin/true\n' \
		"$q" "${ins[$q]}" "$ms" "$(ratio "$ms" "$floor")"
	eval "ms_$q=$ms"
done
ms=$(per_mail "$tmp/wall.version")
printf '   lore-am --version in its place %12s instructions  %8s ms/mail  %6sx /bin/true\n' \
	"$(insns "$lore_am" --version)" "$ms" "$(ratio "$ms" "$floor")"
printf '   /bin/true in its place %20s instructions  %8s ms/mail\n' \
	"$(insns /bin/true)" "$floor"
echo "   ratio with/without the queue: $(echo "${ins[true]} ${ins[false]}" | awk '{printf "%.3f", $1 / $2}') in instructions, $(ratio "$ms_true" "$ms_false") in wall time (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
# the system calls, the queue file made first
for q in false true; do
	git config --global lore-am.queue $q
	rm -rf "$HOME/.local/share/lore-am" "$tmp/o"
	deliver_all
	read -r calls syncs < <(mail_syscalls)
	printf '   lore-am.queue=%-5s %8s system calls/mail  %6s fsync+fdatasync/mail (%s in %s mails)\n' \
		"$q" "$(awk -v c="$calls" -v n="$n" 'BEGIN {printf "%.1f", c / n / 3}')" \
		"$(awk -v c="$syncs" -v n="$n" 'BEGIN {printf "%.3f", c / n / 3}')" \
		"$syncs" "$((n * 3))"
done
git config --global --unset lore-am.queue

echo "2. lore-am queue over 10 000 series"
q=$HOME/.local/share/lore-am/queue.sqlite
rm -rf "$HOME/.local/share/lore-am"
# the file made by lore-am (schema, ids), then filled
"$lore_am" --passthrough -q -o "$tmp/o" -m "$tmp/t.mbox" \
	<"$(ls "$tmp"/split/* | tail -1)" >/dev/null 2>&1
sqlite3 "$q" <<'SQL'
DELETE FROM messages; DELETE FROM revisions; DELETE FROM series;
DELETE FROM patches;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO series(id, key, author, title, subject, first_seen, last_seen,
	applied, thanked, rejected)
SELECT i, 'msgid:cover.' || i || '@example.org', 'dev' || (i % 97) || '@example.org',
	'part ' || i || ': do the thing', '[PATCH 0/5] part ' || i || ': do the thing',
	1700000000 + i * 60, 1700000000 + i * 60,
	CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END, 0, 0 FROM n;
INSERT INTO revisions SELECT id, 1, 'cover.' || id || '@example.org', 5,
	CASE WHEN id % 7 = 0 THEN 3 ELSE 5 END,
	CASE WHEN id % 3 = 0 THEN '1/0/0 1/0/0 0/1/0 1/0/0 0/0/1' ELSE '1/0/0 0/0/0 0/0/0 0/0/0 0/0/0' END,
	'drivers/part' || id || '.c', 1700000000 + id * 60 FROM series;
WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 5)
INSERT INTO messages SELECT 'm' || j || '.' || id || '@example.org', id, 1
	FROM series, k;
SQL
for args in "" "--format=json" "--ready"; do
	rows=$("$lore_am" queue $args | wc -l)
	printf '   lore-am queue %-14s %12s instructions  %8s ms  (%s lines)\n' \
		"$args" "$(insns "$lore_am" queue $args)" \
		"$(median_ms sh -c "'$lore_am' queue $args >/dev/null")" "$rows"
done
