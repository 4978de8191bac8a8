#!/bin/bash
# The -m index against random change: a maildir and an mbox are mutated at
# random (deliver, delete, flag rename, new/ -> cur/ move; append, rewrite
# in the middle, delete in the middle, truncate, append a partial message)
# and after each step the indexed run and --no-index give the same bytes,
# the same stderr and the same exit status. Bounded in time; the seed is
# printed, and LORE_AM_SEED=N replays a run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
plan 4

seed=${LORE_AM_SEED:-$(( $(date +%s) % 100000 ))}
echo "# seed $seed (LORE_AM_SEED=$seed replays it)"
RANDOM=$seed
# at least $minsteps steps, then more until the time is up
budget=8 minsteps=5 maxsteps=60
[ -n "$LORE_AM_TOOL" ] && budget=20 minsteps=3 maxsteps=8

# a pool of messages in random threads: replies to earlier ones, some
# answering "<yes>" (no '@': joined per sender), one id twice
P=$TRASH/pool
mkdir -p "$P"
small_thread "$P/s"
np=30
for i in $(seq 1 $np); do
	irt="" refs=""
	if [ $((RANDOM % 4)) -ne 0 ] && [ "$i" -gt 1 ]; then
		p=$((RANDOM % (i - 1) + 1))
		irt=m$p@example.org
		refs="$(cat "$P/refs$p" 2>/dev/null) $irt"
	elif [ $((RANDOM % 3)) -eq 0 ]; then
		irt=yes refs=yes
	fi
	echo "$refs" >"$P/refs$i"
	mk_msg "$P/m$i" "m$i@example.org" \
		"Tue, 2 Jan 2024 $((10 + i / 60)):$(printf %02d $((i % 60))):00 +0000" \
		"$irt" "$refs" "topic $((i % 5))"
	# four senders
	sed -i "s/^From: .*/From: P$((RANDOM % 4)) <p$((RANDOM % 4))@example.org>/" "$P/m$i"
done
mk_msg "$P/m0" m3@example.org "Tue, 2 Jan 2024 09:00:00 +0000" \
	m1@example.org m1@example.org "copy of m3, other parent"
pool=$(ls "$P"/m* "$P"/s/*.eml)
pick() { set -- $pool; shift $((RANDOM % $#)); echo "$1"; }

MD=$TRASH/md MB=$TRASH/box
mkdir -p "$MD/cur" "$MD/new" "$MD/tmp"
k=0
for f in $pool; do
	k=$((k + 1))
	[ $((k % 2)) -eq 0 ] && cp "$f" "$MD/cur/init$k.host:2,S"
	[ $((k % 3)) -ne 0 ] && mboxrd_add "$MB" "$f"
done

rand_file() { set -- "$MD"/cur/* "$MD"/new/*; shift $((RANDOM % $#)); echo "$1"; }

mutate_md() {
	f=$(rand_file)
	case $((RANDOM % 4)) in
	0) cp "$(pick)" "$MD/tmp/d$step" && mv "$MD/tmp/d$step" "$MD/new/d$step.$RANDOM.host"
	   echo deliver ;;
	1) [ -e "$f" ] && rm -f "$f"; echo "delete ${f##*/}" ;;
	2) case $f in */cur/*)
		u=${f%%:*}
		case $f in *:2,S) n="$u:2,RS" ;; *) n="$u:2,S" ;; esac
		mv "$f" "$n"; echo "flags ${n##*/}" ;;
	   *) echo "flags (none)" ;; esac ;;
	3) g=$(ls "$MD/new" | head -1)
	   [ -n "$g" ] && mv "$MD/new/$g" "$MD/cur/$g:2,"; echo "new->cur $g" ;;
	esac
}

mutate_mb() {
	size=$(stat -c %s "$MB")
	case $((RANDOM % 5)) in
	0) mboxrd_add "$MB" "$(pick)"; echo append ;;
	1) # drop the Nth message, somewhere in the middle
	   perl -0777 -i -pe 'BEGIN { $n = shift @ARGV } my @m = split /(?=^From \S+ Mon Jan)/m; splice(@m, $n % @m, 1) if @m > 1; $_ = join "", @m' "$RANDOM" "$MB"
	   echo "delete in the middle" ;;
	2) n=$((RANDOM % 20 + 1))
	   perl -i -pe 'BEGIN { $n = shift @ARGV } s/^(Subject: .*)$/$1 x/ if /^Subject: / && ++$c == $n' "$n" "$MB"
	   echo "rewrite subject $n" ;;
	3) [ "$size" -gt 0 ] && truncate -s $((RANDOM * 7 % size)) "$MB"; echo truncate ;;
	4) mboxrd_add "$TRASH/one" "$(pick)"
	   head -c $(( $(stat -c %s "$TRASH/one") / 2 )) "$TRASH/one" >>"$MB"
	   rm -f "$TRASH/one"; echo "partial append" ;;
	esac
}

step=0 bad=0 runs=0 start=$SECONDS
while [ $step -lt $minsteps ] || { [ $step -lt $maxsteps ] &&
	[ $((SECONDS - start)) -lt $budget ]; }; do
	step=$((step + 1))
	what="$(mutate_md); $(mutate_mb)"
	for t in "$(pick)" "$(pick)"; do
		id=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$t" | head -1)
		for box in "$MD" "$MB"; do
			runs=$((runs + 1))
			idx_cmp "$TRASH/o" /dev/null --thread -m "$box" "$id" || {
				bad=$((bad + 1))
				echo "# step $step ($what): --thread -m ${box##*/} $id"
			}
		done
	done
	idx_cmp "$TRASH/o" /dev/null -m "$MB" -m "$MD" r@example.org ||
		{ bad=$((bad + 1)); echo "# step $step ($what): am r@example.org"; }
	runs=$((runs + 1))
done
echo "# $step steps, $runs compared runs, $((SECONDS - start)) s"
is "$bad" 0 "after every random change, indexed = --no-index (seed $seed)"
check "the mbox's index is sound" \
	sh -c "[ \"\$(sqlite3 '$(idx_db "$MB")' 'PRAGMA integrity_check')\" = ok ]"
check "the maildir's index is sound" \
	sh -c "[ \"\$(sqlite3 '$(idx_db "$MD")' 'PRAGMA integrity_check')\" = ok ]"
is "$(idx_sql "$MD" 'SELECT count(*) FROM msg')" \
   "$(ls "$MD/cur" "$MD/new" | grep -vc -e '^$' -e ':$')" \
   "the maildir's index has a row per file"

done_testing
