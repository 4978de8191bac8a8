#!/bin/bash
# The -m index when things go wrong: it is never trusted blindly. A cache
# folder that cannot be made, is read-only or is full, an index file that
# is corrupt, from another version or that disagrees with the mail, all
# give the plain scan's bytes with one NOTE line, and a bad index is built
# again at once; an update killed halfway leaves a usable index. --no-index and
# lore-am.index=false make none.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-index.sh"
plan 33

MD=$TRASH/md
idx_small_thread "$MD"
DB=$(idx_db "$MD")
plain() { "$LORE_AM" --no-index --thread -m "$MD" r@example.org 2>/dev/null; }
plain >"$TRASH/want"
[ -s "$TRASH/want" ] || echo "# the plain scan gave nothing"
# run: the indexed run, its output in out, its stderr in err
run() { "$LORE_AM" --thread -m "$MD" r@example.org >"$TRASH/out" 2>"$TRASH/err"; }
notes() { grep -c NOTE "$TRASH/err"; }

"$LORE_AM" --no-index --thread -m "$MD" r@example.org >/dev/null 2>&1
check "--no-index makes no index" test ! -e "$DB"
git config --global lore-am.index false
run
check "lore-am.index=false makes none either" test ! -e "$DB"
git config --global --unset lore-am.index

# the cache folder cannot be made (a file is in the way)
: >"$TRASH/notadir"
XDG_CACHE_HOME=$TRASH/notadir/cache run
is "$?" 0 "a cache folder that cannot be made: exit 0"
same_file "$TRASH/out" "$TRASH/want" "and the plain scan's bytes"
is "$(notes)" 1 "with one NOTE line"
check "that names the mailbox and the cause" \
	grep -q "NOTE: the index of '$MD' was not used (cannot create its folder: Not a directory)" "$TRASH/err"

run
check "a good run builds the index" test -s "$DB"
is "$(notes)" 0 "without a NOTE"

# a read-only cache folder, a new mail to index: nothing can be written
mk_msg "$TRASH/late" late@example.org "Mon, 1 Jan 2024 11:00:00 +0000" \
	e@example.org "r@example.org e@example.org" "Re: [PATCH 1/2] widget: one"
cp "$TRASH/late" "$MD/new/late.host"
plain >"$TRASH/want"
if [ "$(id -u)" != 0 ]; then
	chmod a-w "$(dirname "$DB")"
	run; rc=$?
	chmod u+w "$(dirname "$DB")"
else
	# root writes anywhere: make the folder read-only with a bind mount
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		exec "$2" --thread -m "$3" r@example.org' sh "$(dirname "$DB")" \
		"$LORE_AM" "$MD" >"$TRASH/out" 2>"$TRASH/err"
	rc=$?
fi
is "$rc" 0 "a read-only cache folder: exit 0"
same_file "$TRASH/out" "$TRASH/want" "and the plain scan's bytes, the new mail in"
is "$(notes)" 1 "with one NOTE line"
run
check "once writable, the index takes the new mail" \
	grep -q '^Message-ID: <late@example.org>' "$TRASH/out"
is "$(notes)" 0 "without a NOTE"

# a full disk (a file size limit here): the update fails, nothing is lost
mkdir -p "$TRASH/big/cur" "$TRASH/big/new"
perl -e 'for my $i (1..300) { open my $f, ">", "$ARGV[0]/cur/b$i.host:2,S" or die;
	print $f "From: B <b\@example.org>\nSubject: b $i\nMessage-ID: <b$i\@example.org>\n",
		"References: <x$i-a-longer-id-to-fill-the-index\@example.org>\n\nbody\n" }' "$TRASH/big"
(ulimit -f 8; "$LORE_AM" --thread -m "$TRASH/big" b1@example.org >"$TRASH/out" 2>"$TRASH/err")
is "$?" 0 "a full cache folder: exit 0"
"$LORE_AM" --no-index --thread -m "$TRASH/big" b1@example.org >"$TRASH/want.big" 2>/dev/null
same_file "$TRASH/out" "$TRASH/want.big" "and the plain scan's bytes"
check "with one NOTE line" sh -c "[ \$(grep -c NOTE '$TRASH/err') = 1 ]"

# corrupt: the file's header overwritten (its WAL copied in and removed
# first, as the sqlite3 shell does when it closes the file: a header
# under a WAL that holds page 1 is not read, and a checkpoint mends it)
plain >"$TRASH/want"
idx_sql "$MD" 'SELECT count(*) FROM state' >/dev/null
check "the index's WAL copied into the file" test ! -e "$DB-wal"
printf 'this is no database at all, not even close...........' |
	dd of="$DB" conv=notrunc 2>/dev/null
run
same_file "$TRASH/out" "$TRASH/want" "a corrupt index: the plain scan's bytes"
check "one NOTE: damaged, built again" \
	sh -c "[ \$(grep -c \"^NOTE: the index of '$MD' is damaged (.*): built again\$\" '$TRASH/err') = 1 ] && [ \$(grep -c NOTE '$TRASH/err') = 1 ]"
run
is "$(notes):$(idx_sql "$MD" 'SELECT count(*) FROM msg')" "0:$(ls "$MD/cur" "$MD/new" | grep -c host)" \
   "it was built again whole: the next run uses it without a NOTE"

# from another version
idx_sql "$MD" 'PRAGMA user_version = 99'
run
check "an index from another version is not used, and said so" \
	grep -q 'another version of lore-am.*built again' "$TRASH/err"
same_file "$TRASH/out" "$TRASH/want" "the plain scan's bytes"

# rows that say something else than the mail they point at
run
idx_sql "$MD" "UPDATE msg SET refs = 'elsewhere@example.org' || char(10) WHERE msgid = 'c@example.org'"
run
check "an index that disagrees with the mail is not trusted" \
	grep -q 'disagrees with the mailbox' "$TRASH/err"
same_file "$TRASH/out" "$TRASH/want" "the plain scan's bytes"

# SQLite is linked into the binary (core/sqlitelib.h): no libsqlite3.so
# is needed or loaded, so none can be missing or another version
maps_sqlite() { grep -q 'file=libsqlite3[^ ]*\.so' "$1"; }
ldd "$LORE_AM_REAL" >"$TRASH/ldd" 2>&1
check "the binary does not need libsqlite3.so" \
	test -s "$TRASH/ldd" -a -z "$(grep sqlite "$TRASH/ldd")"
LD_DEBUG=files "$LORE_AM_REAL" --thread -m "$MD" r@example.org \
	>"$TRASH/out" 2>"$TRASH/ld.index"
check "an indexed run loads no libsqlite3.so" \
	eval '! maps_sqlite "$TRASH/ld.index"'
same_file "$TRASH/out" "$TRASH/want" "... and gives the plain scan's bytes"
without_lib libsqlite3.so.0 "$LORE_AM_REAL" --thread -m "$MD" r@example.org \
	>"$TRASH/out" 2>"$TRASH/err"
is "$?:$(notes)" "0:0" "libsqlite3.so that cannot be loaded: no matter, no NOTE"
same_file "$TRASH/out" "$TRASH/want" "... the same bytes"

# SIGKILL during the first build of a large folder
mkdir -p "$TRASH/k/cur" "$TRASH/k/new"
perl -e 'for my $i (1..3000) { open my $f, ">", "$ARGV[0]/cur/k$i.host:2,S" or die;
	print $f "From: K <k\@example.org>\nSubject: k $i\nMessage-ID: <k$i\@example.org>\n",
		($i > 1 ? "In-Reply-To: <k" . int($i / 2) . "\@example.org>\n" : ""), "\nbody\n" }' "$TRASH/k"
KDB=$(idx_db "$TRASH/k")
"$LORE_AM_REAL" --thread -m "$TRASH/k" k1@example.org >/dev/null 2>&1 &
kpid=$!
i=0
while [ ! -s "$KDB-wal" ] && [ $i -lt 200 ] && kill -0 "$kpid" 2>/dev/null; do
	sleep 0.01; i=$((i + 1))
done
kill -KILL "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
is "$?" 137 "the first build was killed halfway"
"$LORE_AM" --thread -m "$TRASH/k" k7@example.org >"$TRASH/out" 2>"$TRASH/err"
is "$?:$(grep -c NOTE "$TRASH/err")" "0:0" "after a SIGKILL the index is usable, without a NOTE"
"$LORE_AM" --no-index --thread -m "$TRASH/k" k7@example.org >"$TRASH/want.k" 2>/dev/null
same_file "$TRASH/out" "$TRASH/want.k" "and gives the plain scan's bytes"
is "$(sqlite3 "$KDB" 'PRAGMA integrity_check')" ok "the killed index is sound"

done_testing
