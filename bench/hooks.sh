#!/usr/bin/env bash
# hooks.sh - what the mail-client and delivery integrations cost.
#
#   bench/hooks.sh [-n RUNS]
#
# Prints, for a generated medium thread (30 patches x 2 revisions, 300
# replies): the time of one `lore-am --passthrough` on a patch mail of that
# thread (what procmail/maildrop add to each patch mail), the same for a
# 60 MiB mail (kept in memory) and a 70 MiB one (streamed through without
# the series work) with their peak memory, one `lore-am-pipe save` (what a
# mail client's key costs), one `lore-am-pipe thread` (the thread key:
# the 362 mails into its maildir, which holds the last thread), the notmuch
# post-new hook on a fresh database holding the thread and on a run with
# nothing new, and notmuch-lore-thread on a database that holds one mail
# of the thread and on one that holds it all. Times are the median of RUNS
# (default 5).
set -euo pipefail
runs=5
if [ "${1:-}" = -n ]; then runs=${2:?}; fi
src=$(cd "$(dirname "$0")/.." && pwd)
lore_am=${LORE_AM:-$src/lore-am}
[ -x "$lore_am" ] || { echo "hooks.sh: build lore-am first (make)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-hooks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$HOME" "$tmp/bin"
ln -s "$lore_am" "$tmp/bin/lore-am"
ln -s "$src/hooks/lore-am-pipe" "$tmp/bin/lore-am-pipe"
ln -s "$src/notmuch/notmuch-lore-thread" "$tmp/bin/notmuch-lore-thread"
export PATH=$tmp/bin:$PATH

"$src/bench/gen-thread.sh" --preset medium -o "$tmp/t.mbox" >/dev/null
mkdir -p "$tmp/split" "$tmp/mail/cur" "$tmp/mail/new" "$tmp/mail/tmp"
git mailsplit --mboxrd -o"$tmp/split" "$tmp/t.mbox" >/dev/null
for f in "$tmp"/split/*; do sed 1d "$f" >"$tmp/mail/cur/${f##*/}:2,S"; done
patch=$(grep -l '^Message-I[dD]: <[0-9]*\.7\.v2-PATCH@' "$tmp"/mail/cur/* | head -1)

# median of N timings (seconds) of "$@"
median() {
	local t
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$tmp/time" -f %e "$@" >/dev/null 2>&1 || true
		t=$(tail -1 "$tmp/time")
		echo "$t"
	done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
# peak RSS in MiB of one run of "$@"
rss() {
	/usr/bin/time -o "$tmp/time" -f %M "$@" >/dev/null 2>&1 || true
	tail -1 "$tmp/time" | awk '{printf "%.0f", $1 / 1024}'
}

printf '%-58s %s\n' "what" "median s"
printf '%-58s %s\n' "passthrough, patch mail, thread in a 362-mail mbox" \
	"$(median sh -c "'$lore_am' --passthrough --status-header -o '$tmp/o' -m '$tmp/t.mbox' <'$patch'")"
printf '%-58s %s\n' "passthrough, patch mail, thread in a 362-mail maildir" \
	"$(median sh -c "'$lore_am' --passthrough --status-header -o '$tmp/o' -m '$tmp/mail' <'$patch'")"
for mib in 60 70; do
	{ cat "$patch"; head -c $((mib << 20)) /dev/zero | tr '\0' x |
		fold -w 76; } >"$tmp/big"
	if [ "$mib" -lt 64 ]; then what="kept in memory, series work done"
	else what="over 64 MiB: streamed through"; fi
	printf '%-58s %s\n' "passthrough, $mib MiB mail ($what)" \
		"$(median sh -c "'$lore_am' --passthrough -o '$tmp/o' -m '$tmp/t.mbox' <'$tmp/big'")"
	printf '%-58s %s MiB\n' "  peak memory" \
		"$(rss sh -c "exec '$lore_am' --passthrough -o '$tmp/o' -m '$tmp/t.mbox' <'$tmp/big'")"
done
rm -f "$tmp/big"
printf '%-58s %s\n' "lore-am-pipe save (a mail client's key)" \
	"$(median sh -c "LORE_AM_ARGS='-q -m $tmp/t.mbox' lore-am-pipe save <'$patch'")"
printf '%-58s %s\n' "lore-am-pipe thread, 362 mails (the thread key)" \
	"$(median sh -c "lore-am-pipe -a '-m $tmp/t.mbox' -d '$tmp/th' -c '$tmp/th.muttrc' thread <'$patch'")"

if command -v notmuch >/dev/null; then
	export NOTMUCH_CONFIG=$tmp/nm-config
	printf '[database]\npath=%s\nhook_dir=%s\n[new]\ntags=new\n' \
		"$tmp/mail" "$tmp/hooks" >"$NOTMUCH_CONFIG"
	notmuch new --no-hooks >/dev/null 2>&1
	mkdir -p "$tmp/hooks"
	printf '%-58s %s\n' "notmuch post-new, 362 new mails in one thread" \
		"$(median bash -c "rm -rf '$HOME/.local/state'; '$src/notmuch/post-new'")"
	"$src/notmuch/post-new" 2>/dev/null
	printf '%-58s %s\n' "notmuch post-new, nothing new" \
		"$(median "$src/notmuch/post-new")"

	# a database with one mail of the thread, made again before each run
	mkdir -p "$tmp/one/cur" "$tmp/one/new" "$tmp/one/tmp"
	printf '[database]\npath=%s\n[new]\ntags=new\n' "$tmp/one" \
		>"$tmp/one-config"
	for _ in $(seq "$runs"); do
		rm -rf "$tmp/one/lore-am" "$tmp/one/.notmuch" "$tmp/one/cur"/*
		cp "$patch" "$tmp/one/cur/"
		NOTMUCH_CONFIG=$tmp/one-config notmuch new >/dev/null 2>&1
		/usr/bin/time -o "$tmp/time" -f %e env \
			NOTMUCH_CONFIG="$tmp/one-config" \
			notmuch-lore-thread -a "-m $tmp/t.mbox" <"$patch" >/dev/null 2>&1
		tail -1 "$tmp/time"
	done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' >"$tmp/nlt"
	printf '%-58s %s\n' "notmuch-lore-thread, 361 mails to insert" \
		"$(cat "$tmp/nlt")"
	printf '%-58s %s\n' "notmuch-lore-thread, all 362 there" \
		"$(median sh -c "notmuch-lore-thread -a '-m $tmp/t.mbox' <'$patch'")"
fi
