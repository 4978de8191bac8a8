#!/bin/bash
# --thread from a real notmuch database (made by `notmuch new`), alone and
# completed by an mbox that holds the rest of the discussion: thread order,
# one copy of each message across sources, the files notmuch indexed come
# back byte for byte, --no-parent, and --maildir run twice.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"
. "$TEST_DIR/lib-thread.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 18

cd "$TRASH" || exit 1
small_thread w
# notmuch has the cover letter, patch 1/2 and its sub-thread, and the
# other discussion; the mbox has patch 2/2's branch and a copy of 1/2
rm -f part.mbox
mboxrd_add part.mbox w/b.eml w/d.eml w/a.eml
nm_init "$TRASH/mail"
# the files exactly as sent (nm_add would keep mailsplit's blank line)
maildir_add "$NM_MAIL/list" w/r.eml w/a.eml w/c.eml w/e.eml w/u.eml
check "notmuch new indexes the maildir" nm_new

"$LORE_AM" --thread -N c@example.org >nm-only.mbox 2>err
is "$?" 0 "--thread -N exits 0"
is "$(entry_ids nm-only.mbox | tr '\n' ' ')" \
	"r@example.org a@example.org c@example.org e@example.org " \
	"the thread notmuch holds, in thread order"
check "summary: notmuch gave 4" grep -qx 'Sources: notmuch 4 messages' err
split_by_id nm-only.mbox got
same=0
for m in r a c e; do
	f=$(nm_file "$m@example.org")
	# git mailsplit keeps the blank line that ends each mbox entry
	{ cat "$f"; echo; } | cmp -s - "got/$m@example.org" &&
		cmp -s "$f" "w/$m.eml" && same=$((same + 1))
done
is "$same" 4 "each message is the file notmuch indexed, byte for byte"

# auto: the -m file first, then notmuch, asked because a thread (unlike a
# series) is never known to be complete: the mbox holds d and both
# patches, which is all the am path would want
"$LORE_AM" --thread -m part.mbox d@example.org >both.mbox 2>err
is "$?" 0 "--thread -m with notmuch as the fallback exits 0"
is "$(entry_ids both.mbox | tr '\n' ' ')" \
	"r@example.org b@example.org d@example.org a@example.org c@example.org e@example.org " \
	"mbox and notmuch together give the whole thread, in order"
is "$(entry_ids both.mbox | sort | uniq -d | wc -l)" 0 \
	"the message both hold is written once"
check "summary: the mbox's 3, then notmuch's 3 new ones" \
	grep -qx 'Sources: mbox 3 messages, notmuch 3 messages' err
"$LORE_AM" -m part.mbox d@example.org >/dev/null 2>err
check "(the am path, which has its series there, does not ask notmuch)" \
	grep -qx 'Sources: mbox 3 messages' err
"$LORE_AM" -q --thread -m w/all.mbox c@example.org >ref.mbox
same_file both.mbox ref.mbox "the same bytes as from one mbox that has it all"

"$LORE_AM" -q --thread -N -m part.mbox e@example.org >forced.mbox
same_file forced.mbox ref.mbox "-N with -m: the same thread"

# a mail client on top of notmuch pipes the file it shows
"$LORE_AM" --thread -N <"$(nm_file e@example.org)" >piped.mbox 2>err
same_file piped.mbox nm-only.mbox "the piped message names the thread"
check "the piped copy is not counted: notmuch's is used" \
	grep -qx 'Sources: notmuch 4 messages' err

"$LORE_AM" -q --thread -N --no-parent a@example.org >np.mbox
is "$(entry_ids np.mbox | tr '\n' ' ')" \
	"a@example.org c@example.org e@example.org " \
	"--no-parent with notmuch"

"$LORE_AM" --maildir md -m part.mbox r@example.org 2>err
grep -q "^Delivered 6 new messages to maildir 'md' (0 already there)$" err
ok $? "--maildir from mbox + notmuch: six new"
"$LORE_AM" --maildir md -N r@example.org 2>err
grep -q "^Delivered 0 new messages to maildir 'md' (4 already there)$" err
ok $? "... then from notmuch alone: nothing new"
is "$(ls md/cur | wc -l)" 6 "... six files in all"
done_testing
