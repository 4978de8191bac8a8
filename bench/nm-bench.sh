#!/usr/bin/env bash
# nm-bench.sh - lore-am -N against `notmuch show --format=mbox | b4 am` on
# the same thread in the same real notmuch database.
#
# Usage: bench/nm-bench.sh [--preset small|medium|large] [-n RUNS] [-s SEED]
#        bench/nm-bench.sh -p PATCHES -r REVISIONS -R REPLIES [-n RUNS] [-s SEED]
#
# Generates the thread with gen-thread.sh (default: medium), delivers it into
# a maildir (one file per message, no From_ line, as an MDA writes them),
# indexes it with `notmuch new`, then times RUNS runs (default 5) of
#
#   lore-am -q -N ID > out
#   notmuch show --format=mbox --entire-thread=true thread:{id:ID} |
#       b4 -q -n am -m - -o - ID > out
#
# and prints the median wall time and the peak resident memory of each
# (GNU time's %M; for the pipeline the larger of its two processes), and
# the ratios. Both outputs are checked to hold the same patches. Nothing
# here reaches the network; b4 runs with attestation off in a scratch repo.
# Needs: notmuch, b4, GNU time (/usr/bin/time), git, perl; ./lore-am built.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
gen=(--preset medium) runs=5 seed=1

while [ $# -gt 0 ]; do
	case $1 in
	--preset) gen=(--preset "${2:?}"); shift 2 ;;
	-p|-r|-R) [ "${gen[0]}" = --preset ] && gen=()
		gen+=("$1" "${2:?}"); shift 2 ;;
	-n) runs=${2:?}; shift 2 ;;
	-s) seed=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "nm-bench.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

for c in notmuch b4 git perl; do
	command -v "$c" >/dev/null || { echo "nm-bench.sh: $c not found" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "nm-bench.sh: GNU time (/usr/bin/time) not found" >&2; exit 2; }
[ -x "$top/lore-am" ] || { echo "nm-bench.sh: build lore-am first (make)" >&2; exit 2; }

w=$(mktemp -d "${TMPDIR:-/tmp}/nm-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT
export HOME=$w/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$w/home/.gitconfig
export LC_ALL=C.UTF-8 TZ=UTC XDG_CONFIG_HOME=$w/home/.config
mkdir -p "$HOME"
git config --global user.name "Bench Maintainer"
git config --global user.email "bench@example.org"
git config --global b4.attestation-policy off

id=$("$here/gen-thread.sh" "${gen[@]}" -s "$seed" -k "$w/repo" -o "$w/thread.mbox")
mkdir -p "$w/mail/cur" "$w/mail/new" "$w/mail/tmp" "$w/split"
git mailsplit --mboxrd -o"$w/split" "$w/thread.mbox" >/dev/null
for f in "$w/split"/*; do
	sed '1{/^From /d;}' "$f" >"$w/mail/cur/${f##*/}:2,"
done
n=$(ls "$w/mail/cur" | wc -l)
printf '[database]\npath=%s\n[new]\ntags=new;\n[maildir]\nsynchronize_flags=false\n' \
	"$w/mail" >"$w/notmuch-config"
export NOTMUCH_CONFIG=$w/notmuch-config
s=$(date +%s)
notmuch new --quiet
echo "notmuch new: $(( $(date +%s) - s )) s" >&2
size=$(du -sk "$w/mail/cur" | cut -f1)

# run_one OUT-PREFIX CMD...: wall seconds and peak KB into OUT-PREFIX.{t,m}
ours() {
	local s e
	s=$(date +%s%N)
	/usr/bin/time -o "$w/m1" -f '%M' "$top/lore-am" -q -N "$id" >"$w/ours.mbx"
	e=$(date +%s%N)
	echo "$(( (e - s) / 1000 )) $(cat "$w/m1")"
}
theirs() {
	local s e
	s=$(date +%s%N)
	(cd "$w/repo" &&
	 /usr/bin/time -o "$w/m1" -f '%M' notmuch show --format=mbox \
		--entire-thread=true "thread:{id:$id}" |
	 /usr/bin/time -o "$w/m2" -f '%M' b4 -q -n am -m - -o - "$id" \
		>"$w/theirs.mbx" 2>/dev/null)
	e=$(date +%s%N)
	m1=$(cat "$w/m1") m2=$(cat "$w/m2")
	echo "$(( (e - s) / 1000 )) $(( m1 > m2 ? m1 : m2 ))"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

: >"$w/ours" ; : >"$w/theirs"
for _ in $(seq "$runs"); do
	ours >>"$w/ours"
	theirs >>"$w/theirs"
done
ot=$(cut -d' ' -f1 "$w/ours" | median); om=$(cut -d' ' -f2 "$w/ours" | median)
tt=$(cut -d' ' -f1 "$w/theirs" | median); tm=$(cut -d' ' -f2 "$w/theirs" | median)

subjects() { grep '^Subject: \[PATCH' "$1" | sed 's/^Subject: //' ; }
if ! diff <(subjects "$w/ours.mbx") <(subjects "$w/theirs.mbx") >/dev/null; then
	echo "nm-bench.sh: warning: the two outputs do not hold the same patches" >&2
fi

printf 'thread: %s -s %s, %d messages, %d KB in a maildir; median of %d runs\n' \
	"${gen[*]}" "$seed" "$n" "$size" "$runs"
printf '%-52s %10s %12s\n' "command" "wall" "peak RSS"
printf '%-52s %8.1f ms %9d KB\n' "lore-am -q -N ID" "$(echo "$ot / 1000" | bc -l)" "$om"
printf '%-52s %8.1f ms %9d KB\n' "notmuch show --format=mbox thread:... | b4 am -m -" \
	"$(echo "$tt / 1000" | bc -l)" "$tm"
printf 'ratio: %.1fx faster, %.1fx less memory; patches written: %d (lore-am), %d (b4)\n' \
	"$(echo "$tt / $ot" | bc -l)" "$(echo "$tm / $om" | bc -l)" \
	"$(subjects "$w/ours.mbx" | wc -l)" "$(subjects "$w/theirs.mbx" | wc -l)"
