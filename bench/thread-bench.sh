#!/usr/bin/env bash
# thread-bench.sh - time and memory of `lore-am --thread` (stdout, --maildir
# into a fresh and into a full maildir, --append into a fresh and into a
# full mbox) against `b4 mbox`, on a thread made by gen-thread.sh.
#
# Usage: bench/thread-bench.sh [--preset small|medium|large] [-n RUNS]
#
# Prints one line per case: the median wall time of RUNS runs (default 5)
# and the largest resident set seen. The input mbox is read from the page
# cache (one warm-up run each). b4 is skipped when it is not installed.
set -euo pipefail

preset=large runs=5
while [ $# -gt 0 ]; do
	case $1 in
	--preset) preset=${2:?}; shift 2 ;;
	-n) runs=${2:?}; shift 2 ;;
	*) echo "usage: $0 [--preset small|medium|large] [-n RUNS]" >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
lore=${LORE_AM:-$here/../lore-am}
[ -x "$lore" ] || { echo "build lore-am first (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (package time)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/thread-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
id=$("$here/gen-thread.sh" --preset "$preset" -o "$tmp/t.mbox")
msgs=$(grep -c '^From ' "$tmp/t.mbox")
size=$(du -h "$tmp/t.mbox" | cut -f1)
echo "thread: preset $preset, $msgs messages, $size; median of $runs runs"

# run NAME PREP CMD...: PREP (a shell snippet) runs before each timed run
run() {
	local name=$1 prep=$2; shift 2
	local times=() rss=0 i t r
	eval "$prep"
	"$@" >/dev/null 2>&1 || true
	for ((i = 0; i < runs; i++)); do
		eval "$prep"
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>&1 || true
		read -r t r <"$tmp/time"
		times+=("$t")
		[ "$r" -gt "$rss" ] && rss=$r
	done
	t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
	printf '%-40s %6.3f s  %7d KB max RSS\n' "$name" "$t" "$rss"
}

run "lore-am --thread > stdout" ":" \
	"$lore" -q --thread -m "$tmp/t.mbox" "$id"
run "lore-am --maildir (all new)" "rm -rf '$tmp/md'" \
	"$lore" -q --maildir "$tmp/md" -m "$tmp/t.mbox" "$id"
run "lore-am --maildir (nothing new)" ":" \
	"$lore" -q --maildir "$tmp/md" -m "$tmp/t.mbox" "$id"
run "lore-am --append (all new)" "rm -f '$tmp/a.mbox'" \
	"$lore" -q --append "$tmp/a.mbox" -m "$tmp/t.mbox" "$id"
run "lore-am --append (nothing new)" ":" \
	"$lore" -q --append "$tmp/a.mbox" -m "$tmp/t.mbox" "$id"
if command -v b4 >/dev/null; then
	# b4 0.12 reads a local mbox reliably only on stdin (see README.md)
	run "b4 mbox -m - -o - (stdout)" ":" \
		sh -c 'b4 -q -n mbox -m - -o - "$1" <"$2"' b4 "$id" "$tmp/t.mbox"
	run "b4 mbox -M (maildir, all new)" "rm -rf '$tmp/b4md'; mkdir '$tmp/b4md'" \
		sh -c 'b4 -q -n mbox -M -m - -o "$3" "$1" <"$2"' b4 "$id" \
		"$tmp/t.mbox" "$tmp/b4md"
fi
