#!/bin/bash
# --format=json is the am run's summary: with --maildir or --append (the
# thread mode, b4 mbox's) it would mean nothing, and is refused in one
# line before anything is read or written, as with --thread.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
plan 4

series_repo "$TRASH/repo" 2 >/dev/null || exit 1
fmt "$TRASH/repo" "$TRASH/p" || exit 1
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
ID=$(msgid_of "$TRASH"/p/0001-*)

lore md --format=json --maildir "$TRASH/md" -m "$TRASH/t.mbox" "$ID"
fails md 2 "--format=json is the am run's summary: not with --thread, --maildir, --append, " \
	"--format=json --maildir: refused in one line, exit 2"
check "... no maildir made" test ! -e "$TRASH/md"
cp "$TRASH/t.mbox" "$TRASH/keep.mbox"
lore ap --format=json --append "$TRASH/keep.mbox" -m "$TRASH/t.mbox" "$ID"
fails ap 2 "--format=json is the am run's summary: not with --thread, --maildir, --append, " \
	"--format=json --append: refused in one line, exit 2"
same_file "$TRASH/keep.mbox" "$TRASH/t.mbox" "... the mbox left as it was"
