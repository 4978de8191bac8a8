#!/bin/bash
# t7031-index-row-damage.t - an index row of a maildir message that lacks
# its file's name or the name's unique part (a damaged or tampered index
# file: lore-am writes both for every maildir row) is damage, not a
# message: when the update compares a changed folder's files with the
# rows, or a thread's rows are read, the run builds the index again and
# gives the plain scan's bytes with one NOTE line. A row without its
# unique part crashed the update (SIGSEGV: the missing part hashed as a
# string); one without its name was taken there for a file gone, and
# crashed the reading of a thread it is in (the rows sorted by name).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 not installed"
plan 16

MD=$TRASH/md
idx_small_thread "$MD"
run() { "$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/out" 2>"$TRASH/err"; }
run
is "$?" 0 "the index is built"

# damage COLUMN: the row of u2 (a message of another thread) loses
# COLUMN, then u2's file leaves the folder
damage() {
	idx_sql "$MD" "UPDATE msg SET $1 = NULL WHERE name LIKE 'u2.%'" &&
		mv "$MD"/cur/u2.* "$TRASH/" &&
		touch "$MD/cur"
}
# back: u2's file in the folder again, the index up to date
back() { mv "$TRASH"/u2.* "$MD/cur/" && run; }
plain() {
	"$LORE_AM" --no-index --thread -m "$MD" r@example.org 2>/dev/null
}

for col in uniq name; do
	damage "$col" || echo "# cannot damage the index"
	plain >"$TRASH/want"
	run
	is "$?" 0 "a row without its $col, the folder changed: exit 0"
	same_file "$TRASH/out" "$TRASH/want" "and the plain scan's bytes"
	check "with one NOTE: the index damaged, built again" \
		eval "[ \$(grep -c NOTE '$TRASH/err') = 1 ] &&
		grep -q \"NOTE: the index of '.*' has a maildir row without its file's name: built again\" '$TRASH/err'"
	is "$(idx_sql "$MD" "SELECT count(*) FROM msg WHERE dir < 2 AND
		(name IS NULL OR uniq IS NULL)")" 0 \
		"the index built again has no such row"
	back
done
check "the index read again as it was" test -s "$(idx_db "$MD")"

# The folder unchanged (its times settled, so that the update reads no
# row): a row without its name met when the thread is read, alone (c) or
# as one of two copies of a message (a, copied to a2), crashed the sort
# of the rows; it is damage too.
touch -d '2024-01-02' "$MD/cur" "$MD/new"
run
plain >"$TRASH/want"
# walk WHERE WHAT: the rows WHERE lose their name; the run reads them
walk() {
	idx_sql "$MD" "UPDATE msg SET name = NULL WHERE $1" ||
		echo "# cannot damage the index"
	run
	is "$?" 0 "$2 without its name, the folder unchanged: exit 0"
	same_file "$TRASH/out" "$TRASH/want" "and the plain scan's bytes"
	check "with one NOTE: the index damaged, built again" \
		eval "[ \$(grep -c NOTE '$TRASH/err') = 1 ] &&
		grep -q \"NOTE: the index of '.*' disagrees with the mailbox: built again\" '$TRASH/err'"
}
walk "msgid = 'c@example.org'" "a reply's row"
cp "$MD/cur/a.host:2,S" "$MD/cur/a2.host:2,S"
touch -d '2024-01-03' "$MD/cur"
run
plain >"$TRASH/want"
walk "name LIKE 'a2.%'" "one copy's row of two"

done_testing
