#!/bin/bash
# How the thread and the target are named: argument forms, stdin forms,
# mboxrd and maildir input; and bad input, each with its one-line error
# and exit status, and nothing on stdout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 34

series_repo "$TRASH/repo" 2 >/dev/null
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
P=$TRASH/p
to_mbox "$TRASH/t.mbox" "$P"/*.patch
id=$(msgid_of "$P/0001-part-add-piece-1.patch")
"$LORE_AM" -q -m "$TRASH/t.mbox" "$id" > "$TRASH/ref.mbx"
is "$?" 0 "a bare Message-ID"

n=0
for arg in "<$id>" "id:$id" "https://lore.kernel.org/linux-kernel/$id/" \
	"https://lore.kernel.org/all/$id/T/#u" "https://lore.kernel.org/r/$id" \
	"https://patch.msgid.link/$id" "https://lore.kernel.org/netdev/${id//@/%40}/t.mbox.gz" \
	"  $id  "; do
	"$LORE_AM" -q -m "$TRASH/t.mbox" "$arg" > "$TRASH/a.mbx" 2>&1
	same_file "$TRASH/a.mbx" "$TRASH/ref.mbx" "argument form '$arg'"
done

# stdin: with and without From_ line, CRLF, notmuch show --format=raw style
"$LORE_AM" -q -m "$TRASH/t.mbox" < "$P/0002-part-add-piece-2.patch" > "$TRASH/s1.mbx"
same_file "$TRASH/s1.mbx" "$TRASH/ref.mbx" "a message on stdin with a From_ line"
sed 1d "$P/0002-part-add-piece-2.patch" | sed 's/$/\r/' | "$LORE_AM" -q -m "$TRASH/t.mbox" > "$TRASH/s2.mbx"
same_file "$TRASH/s2.mbx" "$TRASH/ref.mbx" "without one, with CRLF"

# the thread as mboxrd on stdin (-m -), with quoted From_ lines
perl -pe 's/^(>*From )/>$1/ unless /^From [0-9a-f]{40} /' "$TRASH/t.mbox" > "$TRASH/rd.mbox"
"$LORE_AM" -q -m - "$id" < "$TRASH/rd.mbox" > "$TRASH/s3.mbx"
same_file "$TRASH/s3.mbx" "$TRASH/ref.mbx" "-m - reads an mboxrd thread from stdin"
# a maildir
mkdir -p "$TRASH/md/cur" "$TRASH/md/new" "$TRASH/md/tmp"
i=0; for f in "$P"/*.patch; do i=$((i + 1)); sed 1d "$f" > "$TRASH/md/cur/$i.host:2,S"; done
"$LORE_AM" -q -m "$TRASH/md" "$id" > "$TRASH/s4.mbx"
same_file "$TRASH/s4.mbx" "$TRASH/ref.mbx" "a maildir"
# two mailboxes, the thread split between them, one message in both
to_mbox "$TRASH/half1.mbox" "$P"/0000-* "$P"/0001-*
to_mbox "$TRASH/half2.mbox" "$P"/0001-* "$P"/0002-*
"$LORE_AM" -q -m "$TRASH/half1.mbox" -m "$TRASH/half2.mbox" "$id" > "$TRASH/s5.mbx"
same_file "$TRASH/s5.mbx" "$TRASH/ref.mbx" "-m twice, duplicates dropped"
# messages not in the target's reply tree are dropped
{ echo "From: Spammer <s@example.com>"; echo "Subject: [PATCH 1/2] part: add piece 1"
  echo "Message-Id: <unrelated@example.com>"; echo "Date: Tue, 2 Jan 2024 00:00:00 +0000"
  echo; sed '1,/^$/d' "$P/0001-part-add-piece-1.patch" | sed 's/piece 1/piece 9/'; } > "$TRASH/unrel"
to_mbox "$TRASH/u.mbox" "$P"/*.patch "$TRASH/unrel"
"$LORE_AM" -q -m "$TRASH/u.mbox" "$id" > "$TRASH/s6.mbx"
same_file "$TRASH/s6.mbx" "$TRASH/ref.mbx" "a same-subject message outside the reply tree is ignored"

# bad input: one line on stderr, the documented status, nothing on stdout
bad() {
	# bad STATUS DESCRIPTION lore-am-args... (stdin from $BAD_IN)
	want=$1 d=$2; shift 2
	"$LORE_AM" "$@" < "${BAD_IN:-/dev/null}" > "$TRASH/bad.out" 2> "$TRASH/bad.err"
	rc=$?
	if [ $rc -eq "$want" ] && [ ! -s "$TRASH/bad.out" ] && [ "$(wc -l < "$TRASH/bad.err")" -eq 1 ] &&
	   grep -q '^lore-am: ' "$TRASH/bad.err"; then ok 0 "$d"; else
		ok 1 "$d (exit $rc)"; sed 's/^/# /' "$TRASH/bad.err" | head -3; fi
}
BAD_IN=/dev/null bad 2 "empty stdin and no argument"
head -c 3000 /dev/urandom > "$TRASH/garbage"
BAD_IN=$TRASH/garbage bad 2 "binary garbage on stdin"
sed '/^Message-I[dD]:/d' "$P/0001-part-add-piece-1.patch" > "$TRASH/noid"
BAD_IN=$TRASH/noid bad 2 "a message without Message-ID" -m "$TRASH/t.mbox"
BAD_IN= bad 2 "a bad argument" -m "$TRASH/t.mbox" "<>"
BAD_IN= bad 1 "an id that is not in the mailbox" -m "$TRASH/t.mbox" nothere@example.com
BAD_IN= bad 1 "a missing mbox file is an empty one: the id is not in it" -q -m "$TRASH/nope.mbox" "$id"
mkdir "$TRASH/notmd"
BAD_IN= bad 2 "a folder that is not a maildir" -m "$TRASH/notmd" "$id"
BAD_IN= bad 1 "-m - without an id: stdin is the mailbox, an empty one" -q -m -
BAD_IN= bad 2 "an unknown option" --frobnicate
BAD_IN= bad 2 "two ids" -m "$TRASH/t.mbox" a@b c@d
to_mbox "$TRASH/nopatch.mbox" "$TRASH/unrel"
sed -i '/^diff --git/,$d' "$TRASH/nopatch.mbox"
BAD_IN= bad 1 "a thread without patches" -q -m "$TRASH/nopatch.mbox" unrelated@example.com
"$LORE_AM" --version | grep -q '^lore-am [0-9]'; ok $? "--version"
"$LORE_AM" --help | grep -q -- '--cherry-pick'; ok $? "--help lists the options"
# a maildir whose file names sort against the order the mail came in (a
# maildrop name carries a pid, and pids wrap): the follow-up trailers still
# come in the order the replies were sent, as from the mbox
EX=$SRC_DIR/examples
mkdir -p "$TRASH/exsplit" "$TRASH/exmd/cur" "$TRASH/exmd/new" "$TRASH/exmd/tmp"
git mailsplit -o"$TRASH/exsplit" "$EX/thread.mbox" >/dev/null
i=0
for f in $(ls "$TRASH/exsplit" | sort -r); do
	i=$((i + 1))
	sed 1d "$TRASH/exsplit/$f" >"$TRASH/exmd/cur/1700000000.$((10000 + i))_1.host"
done
"$LORE_AM" -q -m "$EX/thread.mbox" <"$EX/patch.eml" >"$TRASH/ex-mbox.mbx"
"$LORE_AM" -q -m "$TRASH/exmd" <"$EX/patch.eml" >"$TRASH/ex-md.mbx"
check "the example's patches get several follow-up trailers" \
	test "$(grep -c -e '^Tested-by:' -e '^Reviewed-by:' -e '^Acked-by:' "$TRASH/ex-mbox.mbx")" -ge 4
same_file "$TRASH/ex-md.mbx" "$TRASH/ex-mbox.mbx" \
	"a maildir in reverse delivery order: the same trailers, in the same order"
# gzip-compressed input cut short: the thread's mbox is a usage error, a
# maildir's file is unreadable (its patch missing, nothing written); an
# empty one is no message
gzip -c "$TRASH/t.mbox" >"$TRASH/t.mbox.gz"
head -c $(($(wc -c <"$TRASH/t.mbox.gz") - 40)) "$TRASH/t.mbox.gz" >"$TRASH/cut.mbox.gz"
BAD_IN= bad 2 "a truncated .gz mbox" -q -m "$TRASH/cut.mbox.gz" "$id"
check "... said so" grep -q "^lore-am: cannot decompress '.*cut.mbox.gz': the gzip data ends early" "$TRASH/bad.err"
mkdir -p "$TRASH/gzmd/cur" "$TRASH/gzmd/new" "$TRASH/gzmd/tmp"
i=0; for f in "$P"/*.patch; do i=$((i + 1)); sed 1d "$f" | gzip -c >"$TRASH/gzmd/cur/$i.host:2,S.gz"; done
gzip -c </dev/null >"$TRASH/gzmd/cur/9.host:2,S.gz"
"$LORE_AM" -q -m "$TRASH/gzmd" "$id" >"$TRASH/gzmd.mbx"
same_file "$TRASH/gzmd.mbx" "$TRASH/ref.mbx" "a gzipped maildir with an empty .gz file"
f=$TRASH/gzmd/cur/3.host:2,S.gz
head -c $(($(wc -c <"$f") - 30)) "$f" >"$f.cut" && mv "$f.cut" "$f"
"$LORE_AM" -q -m "$TRASH/gzmd" "$id" >"$TRASH/gzcut.mbx" 2>"$TRASH/gzcut.err"
is "$?:$(wc -c <"$TRASH/gzcut.mbx")" "1:0" \
	"a maildir file whose gzip data ends early: no half patch, exit 1, nothing written"
done_testing
