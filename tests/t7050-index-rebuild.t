#!/bin/bash
# The -m index's own faults: a file in its place that is another program's
# database (with or without lore-am's user_version), and an index that lost
# a message's row (a hand edit), are built again in the same run, with one
# NOTE that says so, and give the plain scan's bytes; the next run uses the
# new index without a note. A cache folder too full for the index (a small
# tmpfs, in a private mount namespace) does not keep the unfinished index
# and its WAL: they are removed, the NOTE says to free space or turn the
# index off, and later runs do not fill the folder again until it has room.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"

command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"
command -v unshare >/dev/null || skip_all "unshare not installed"
plan 18

MD=$TRASH/md
idx_small_thread "$MD"
DB=$(idx_db "$MD")
"$LORE_AM" --no-index -m "$MD" r@example.org >"$TRASH/want" 2>/dev/null
[ -s "$TRASH/want" ] || echo "# the plain scan gave nothing"
# run: the indexed run of the series; stdout in out, stderr in err
run() { "$LORE_AM" -m "$MD" r@example.org >"$TRASH/out" 2>"$TRASH/err"; }
notes() { grep -c NOTE "$TRASH/err"; }
# rebuilt DESC WHY: this run gave the plain scan's bytes with one NOTE,
# "the index of MD WHY: built again", and the index is lore-am's again
rebuilt() {
	if cmp -s "$TRASH/out" "$TRASH/want" && [ "$(notes)" = 1 ] &&
	   grep -qx "NOTE: the index of '$MD' $2: built again" "$TRASH/err" &&
	   [ "$(idx_sql "$MD" 'PRAGMA application_id')" = 1282556269 ] &&
	   [ "$(idx_sql "$MD" 'SELECT count(*) FROM msg')" = 8 ]; then
		ok 0 "$1"
	else
		ok 1 "$1"
		sed 's/^/#   /' "$TRASH/err" | head -5
	fi
}

# the directories' times must be old enough to be recorded as they are
sleep 0.2
run
is "$?:$(notes)" 0:0 "a good run builds the index"

# another program's database where the index goes
rm -f "$DB" "$DB-wal" "$DB-shm"
sqlite3 "$DB" 'CREATE TABLE notes (x); INSERT INTO notes VALUES (1);'
run
rebuilt "another program's database: built again in the same run" \
	"is not lore-am's (another program's database)"
run
is "$(notes)" 0 "... and the next run uses it without a note"

# the same with lore-am's user_version (the note once said "not an error"
# and the file stayed)
rm -f "$DB" "$DB-wal" "$DB-shm"
sqlite3 "$DB" 'CREATE TABLE notes (x); PRAGMA user_version = 1;'
run
rebuilt "one with lore-am's user_version: built again too" \
	"is not lore-am's (another program's database)"

# an index of an older lore-am (no application_id)
idx_sql "$MD" 'PRAGMA application_id = 0'
run
rebuilt "an older lore-am's index: built again" \
	"is from another version of lore-am"

# a row deleted by hand: the series came out "missing 1/2" on every run
rm -f "$DB" "$DB-wal" "$DB-shm"
run
idx_sql "$MD" "DELETE FROM msg WHERE msgid = 'a@example.org'"
run
is "$?" 0 "an index that lost a message's row: exit 0, the series whole"
rebuilt "... built again in the same run" \
	"lacks a message's row (a reference names a row that is gone)"
run
is "$?:$(notes)" 0:0 "... and the next run uses it without a note"

# a cache folder too full for the index: a tmpfs of 256 KiB on the index
# folder, in a mount namespace of its own (as root, or as a user through
# a user namespace), for a maildir whose index needs about 700 KiB
BIG=$TRASH/big
mkdir -p "$BIG/cur" "$BIG/new"
perl -e 'for my $i (1..3000) { open my $f, ">", "$ARGV[0]/cur/b$i.host:2,S" or die;
	print $f "From: B <b\@example.org>\nSubject: b $i\nMessage-ID: <b$i\@example.org>\n",
		"References: <x$i-a-longer-id-to-fill-the-index\@example.org>\n\nbody\n" }' "$BIG"
"$LORE_AM" --no-index --thread -m "$BIG" b1@example.org >"$TRASH/want.big" 2>/dev/null
IDX=$XDG_CACHE_HOME/lore-am/index
cat >"$TRASH/full.sh" <<EOS
mount -t tmpfs -o size=256k tmpfs "$IDX" || exit 125
for i in 1 2; do
	"$LORE_AM" --thread -m "$BIG" b1@example.org >"$TRASH/full\$i.out" 2>"$TRASH/full\$i.err"
	echo \$? >"$TRASH/full\$i.rc"
	ls -A "$IDX" >"$TRASH/full\$i.ls"
done
mount -o remount,size=8m "$IDX" &&
	"$LORE_AM" --thread -m "$BIG" b1@example.org >"$TRASH/full3.out" 2>"$TRASH/full3.err"
echo \$? >"$TRASH/full3.rc"
ls -A "$IDX" >"$TRASH/full3.ls"
EOS
if [ "$(id -u)" = 0 ]; then ns="unshare -m"; else ns="unshare -Urm"; fi
$ns sh "$TRASH/full.sh"
if [ "$?" = 125 ] || [ ! -e "$TRASH/full1.rc" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "cannot mount a tmpfs here"; done
else
	is "$(cat "$TRASH/full1.rc")" 0 "a full cache folder: exit 0"
	same_file "$TRASH/full1.out" "$TRASH/want.big" "... the plain scan's bytes"
	grep -qx "NOTE: the index of '$BIG' was not used: the cache folder '$IDX' is full (database or disk is full); the whole mailbox was read and the unfinished index removed ([0-9.]* [KM]iB freed): free some space there, or set lore-am.index=false" "$TRASH/full1.err"
	ok $? "... one NOTE says so and what to do"
	is "$(grep -c 'sqlite3' "$TRASH/full1.ls")" 1 \
		"... neither the index nor its WAL is kept (only a note of the room it wants)"
	is "$(cat "$TRASH/full2.rc"):$(grep -c NOTE "$TRASH/full2.err")" 0:1 \
		"the next run: exit 0, one NOTE"
	grep -qx "NOTE: the index of '$BIG' was not built: the cache folder '$IDX' has [0-9.]* [KM]iB free and it needs about [0-9.]* [KM]iB; the whole mailbox was read (free some space there, or set lore-am.index=false)" "$TRASH/full2.err"
	ok $? "... which says the folder still has too little room"
	same_file "$TRASH/full2.out" "$TRASH/want.big" "... the plain scan's bytes, the folder not filled again"
	same_file "$TRASH/full2.ls" "$TRASH/full1.ls" "... nothing written there"
	is "$(cat "$TRASH/full3.rc"):$(grep -c NOTE "$TRASH/full3.err")" 0:0 \
		"with room again, the index is built, without a note"
	same_file "$TRASH/full3.out" "$TRASH/want.big" "... and gives the same bytes"
fi

done_testing
