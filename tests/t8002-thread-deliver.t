#!/bin/bash
# --maildir and --append: only what is new is added (by Message-ID), so a
# second run adds nothing; messages land whole (tmp/ then cur/; an append
# that fails is taken back); --append waits for other holders of the
# mailbox's dotlock, flock and fcntl locks, and gives up with exit 75.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-thread.sh"

command -v flock >/dev/null || skip_all "flock(1) not installed"
PY=$(command -v python3) || skip_all "python3 not installed"

plan 51

cd "$TRASH" || exit 1
small_thread w
id=$("$SRC_DIR/bench/gen-thread.sh" --preset small -s 5 -o gen.mbox)
split_by_id gen.mbox gen

# the state of a folder: names and contents
state() { (cd "$1" && find . -type f | sort | xargs -r md5sum); }

# ---------------------------------------------------------------- maildir
"$LORE_AM" --maildir md -m w/all.mbox c@example.org 2>err
is "$?" 0 "--maildir into a new folder exits 0"
is "$(ls md/cur | wc -l):$(ls md/new | wc -l):$(ls md/tmp | wc -l)" "6:0:0" \
	"six messages in cur/, none left in tmp/"
grep -q "^Delivered 6 new messages to maildir 'md' (0 already there)$" err
ok $? "summary: six new"
is "$(ls md/cur | grep -vc ':2,$')" 0 "not flagged seen by default"
same=0
for m in r a b c d e; do
	f=$(grep -l "^Message-ID: <$m@example.org>" md/cur/*) &&
		cmp -s "$f" "w/$m.eml" && same=$((same + 1))
done
is "$same" 6 "each file is the message, byte for byte"
before=$(state md)
"$LORE_AM" --maildir md -m w/all.mbox a@example.org 2>err
is "$?" 0 "second run exits 0"
grep -q "^Delivered 0 new messages to maildir 'md' (6 already there)$" err
ok $? "second run: nothing new"
is "$(state md)" "$before" "second run: the maildir is unchanged"
"$LORE_AM" -q --thread -m md r@example.org >from-md.mbox
"$LORE_AM" -q --thread -m w/all.mbox r@example.org >from-mbox.mbox
same_file from-md.mbox from-mbox.mbox "the maildir reads back as the same thread"

# a maildir that already holds some of them, delivered by someone else
mkdir -p md2/cur md2/tmp md2/new
cp w/r.eml md2/new/1700000000.1.host
cp w/e.eml md2/cur/1700000000.2.host:2,S
"$LORE_AM" --maildir md2 --seen -m w/all.mbox r@example.org 2>err
grep -q "^Delivered 4 new messages to maildir 'md2' (2 already there)$" err
ok $? "messages already in new/ or cur/ are skipped"
is "$(ls md2/cur | grep -c ':2,S$'):$(ls md2/new | wc -l)" "5:1" \
	"--seen flags the new ones seen; the old ones are left alone"

mkdir empty
"$LORE_AM" -q --maildir empty -m w/all.mbox r@example.org
is "$?:$(ls empty/cur | wc -l)" "0:6" "an empty folder becomes a maildir"
mkdir notmd && echo hello >notmd/file
"$LORE_AM" -q --maildir notmd -m w/all.mbox r@example.org 2>err
is "$?" 2 "a folder that is not a maildir: usage error"
grep -q "lore-am: 'notmd' is a folder but not a maildir" err &&
	is "$(ls notmd)" "file" "... named, and nothing created in it"
echo x >plain
"$LORE_AM" -q --maildir plain -m w/all.mbox r@example.org 2>err
is "$?:$(cat plain)" "2:x" "a regular file as --maildir: usage error, untouched"

# a delivery that fails half-way (file size limit): what was delivered is
# whole, tmp/ is clean, and the next run adds the rest
(trap '' XFSZ; ulimit -f 2
 "$LORE_AM" -q --maildir gmd -m gen.mbox "$id" 2>err)
is "$?" 74 "maildir: a write that fails exits 74"
grep -q "new messages delivered, then: cannot deliver to maildir 'gmd'" err
ok $? "... and says how far it got"
n=$(ls gmd/cur | wc -l)
whole=0
for f in gmd/cur/*; do
	m=$(perl -ne 'if (/^Message-ID:\s*<([^>]+)>/i) { print $1; exit }' "$f")
	# git mailsplit keeps the blank line after each mbox entry
	head -c -1 "gen/$m" | cmp -s - "$f" && whole=$((whole + 1))
done
ok $((n == 0 || n >= 26 || whole != n)) "some ($n) but not all were delivered, each whole"
is "$(ls gmd/tmp | wc -l)" 0 "... and tmp/ is clean"
"$LORE_AM" --maildir gmd -m gen.mbox "$id" 2>err
grep -q "^Delivered $((26 - n)) new messages to maildir 'gmd' ($n already there)$" err
ok $? "re-running adds only the rest"
is "$(ls gmd/cur | wc -l)" 26 "... all 26 there, none twice"

# ---------------------------------------------------------------- append
rm -f box
mboxrd_add box w/u.eml w/u2.eml w/r.eml w/a.eml
cp box box.orig
"$LORE_AM" --append box -m w/all.mbox c@example.org 2>err
is "$?" 0 "--append exits 0"
grep -q "^Appended 4 new messages to 'box' (2 already there)$" err
ok $? "summary: four new, two already there"
cmp -s -n "$(stat -c %s box.orig)" box box.orig
ok $? "what was there is untouched"
is "$(entry_ids box | tr '\n' ' ')" \
	"u@example.org u2@example.org r@example.org a@example.org b@example.org d@example.org c@example.org e@example.org " \
	"the new ones follow, in thread order"
mkdir cnt
is "$(git mailsplit --mboxrd -ocnt box)" 8 "git mailsplit reads eight messages"
cp box box.1
"$LORE_AM" -q --append box -m w/all.mbox e@example.org
same_file box box.1 "second run: nothing added"
test ! -e box.lock
ok $? "no dotlock left behind"

"$LORE_AM" -q --append fresh.mbox -m w/all.mbox r@example.org
is "$?:$(entry_ids fresh.mbox | wc -l):$(stat -c %a fresh.mbox)" "0:6:600" \
	"a missing mbox is created (mode 600)"
printf 'From x@y Mon Jan  1 00:00:00 2024\nMessage-ID: <x@y>\n\nno newline' >nonl
"$LORE_AM" -q --append nonl -m w/all.mbox r@example.org
mkdir cnt2
is "$(git mailsplit --mboxrd -ocnt2 nonl)" 7 \
	"appending to an mbox whose last line has no newline"

# the mailbox is locked: a dotlock (of a live process, this shell), an
# flock, an fcntl lock
echo $$ >box.lock
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append box -m gen.mbox "$id" 2>err
is "$?" 75 "a dotlock held by someone else: exit 75"
grep -q "lore-am: 'box' is locked ('box.lock' exists" err
ok $? "... the error names the lock file"
same_file box box.1 "... the mailbox is unchanged"
is "$(cat box.lock)" $$ "... and the other holder's dotlock is left alone"
rm -f box.lock

# hold KIND FILE SECONDS [EXTRA]: one process that takes an flock or an
# fcntl lock on FILE, says so by creating "held", appends EXTRA's bytes to
# FILE while holding it, sleeps, and lets go (or is killed by its PID)
hold() {
	rm -f held
	"$PY" -c '
import fcntl, sys, time
kind, path, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
f = open(path, "r+b")
if kind == "flock":
    fcntl.flock(f, fcntl.LOCK_EX)
else:
    fcntl.lockf(f, fcntl.LOCK_EX)
open("held", "w").close()
time.sleep(secs)
if len(sys.argv) > 4:
    f.seek(0, 2)
    f.write(open(sys.argv[4], "rb").read())
    f.flush()
' "$@" &
	holder=$!
	at_exit "kill $holder 2>/dev/null"
	while [ ! -e held ]; do sleep 0.05; done
}

rm -f extra.mbox; mboxrd_add extra.mbox "gen/$id"
hold flock box 1 extra.mbox
"$LORE_AM" -q --append box -m gen.mbox "$id" 2>err
rc=$?
wait $holder
is "$rc" 0 "--append waits for an flock holder, then appends"
is "$(entry_ids box | sed -n 9p)" "$id" \
	"... after what the holder wrote (no interleaving)"
is "$(entry_ids box | sort | uniq -d | wc -l):$(entry_ids box | wc -l)" "0:34" \
	"... and skips what the holder had added meanwhile"

cp box box.2
hold flock box 30
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append box -m w/all.mbox r@example.org 2>err
is "$?" 75 "an flock held too long: exit 75"
grep -q "lore-am: 'box' is locked by another program" err
ok $? "... said so"
kill $holder; wait $holder 2>/dev/null

hold fcntl box 30
mk_msg late.eml late@example.org "Mon, 1 Jan 2024 11:00:00 +0000" \
	e@example.org "r@example.org e@example.org" "Re: late"
LORE_AM_LOCK_TIMEOUT=1 "$LORE_AM" -q --append box -m w/all.mbox <late.eml 2>err
is "$?" 75 "an fcntl lock held too long: exit 75"
same_file box box.2 "... the mailbox is unchanged, no dotlock left" &&
	test ! -e box.lock
kill $holder; wait $holder 2>/dev/null

# an append that fails half-way is taken back
(trap '' XFSZ; ulimit -f 64
 "$LORE_AM" -q --append box -m gen.mbox -m w/all.mbox <late.eml 2>err)
is "$?" 0 "(a small append fits under the limit)"
cp box box.3
big=$("$SRC_DIR/bench/gen-thread.sh" --preset medium -s 2 -o big.mbox)
(trap '' XFSZ; ulimit -f 64
 "$LORE_AM" -q --append box -m big.mbox "$big" 2>err)
is "$?" 74 "an append that fails half-way exits 74"
grep -q "lore-am: cannot append to 'box': .* (the mailbox is unchanged)" err
ok $? "... says so"
same_file box box.3 "... and the mailbox is exactly as it was"
(trap '' XFSZ; ulimit -f 64
 "$LORE_AM" -q --append new.mbox -m big.mbox "$big" 2>/dev/null)
test ! -e new.mbox && test ! -e new.mbox.lock
ok $? "a mailbox created for a failed append is removed again"

# refusals
LORE_AM_LOCK_TIMEOUT=soon "$LORE_AM" -q --append box -m w/all.mbox r@example.org 2>err
is "$?:$(cat err)" "2:lore-am: LORE_AM_LOCK_TIMEOUT is 'soon', not a number of seconds from 0 to 3600" \
	"a lock timeout that is not a number: usage error"
"$LORE_AM" -q --append box.gz -m w/all.mbox r@example.org 2>err
is "$?" 2 "--append to a .gz: usage error"
"$LORE_AM" -q --append md -m w/all.mbox r@example.org 2>err
is "$?" 2 "--append to a folder: usage error"
echo "just some text" >text
"$LORE_AM" -q --append text -m w/all.mbox r@example.org 2>err
is "$?:$(cat text)" "2:just some text" "--append to a file that is not an mbox: refused, untouched"
grep -q "lore-am: 'text' is not an mbox" err
ok $? "... with a clear error"
done_testing
