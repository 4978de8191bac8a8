#!/bin/bash
# notmuch/notmuch-lore-thread on a real notmuch database that holds one
# message of a thread: it inserts the others, byte for byte as sent,
# tagged lore-am, in the lore-am folder; run again it adds nothing;
# Message-IDs with a double quote or parentheses, or in a folded
# lower-case header, are found in the database; MSGID and -f work; when
# the thread cannot be fetched, nothing is added.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"
. "$(dirname "$0")/lib-nm.sh"

command -v notmuch >/dev/null || skip_all "notmuch not installed"
plan 15

cd "$TRASH" || exit 1
hooks_path
small_thread w
# two replies whose ids a notmuch query must quote with care
printf '%s\n' 'From: Person q1 <p-q1@example.org>' 'To: list@example.org' \
	'Subject: Re: [PATCH 0/2] widget: cover' \
	'Date: Mon, 1 Jan 2024 10:40:00 +0000' \
	'Message-ID: <quote"d@example.org>' 'In-Reply-To: <r@example.org>' \
	'References: <r@example.org>' '' 'A quote in my id.' >w/q1.eml
printf '%s\n' 'From: Person q2 <p-q2@example.org>' 'To: list@example.org' \
	'Subject: Re: [PATCH 0/2] widget: cover' \
	'Date: Mon, 1 Jan 2024 10:50:00 +0000' 'message-id:' \
	' <fold(ed)@example.org>' \
	'In-Reply-To: <quote"d@example.org>' \
	'References: <r@example.org> <quote"d@example.org>' '' \
	'A folded id.' >w/q2.eml
mboxrd_add w/all.mbox w/q1.eml w/q2.eml
# the database has c (of the thread) and u (of another one)
nm_init "$TRASH/mail"
maildir_add "$NM_MAIL/inbox" w/c.eml w/u.eml
nm_new || { echo "Bail out! notmuch new fails"; exit 1; }
ln -sf "$SRC_DIR/notmuch/notmuch-lore-thread" "$TRASH/bin/"

tid=$(notmuch search --output=threads id:c@example.org)
nm_ids() { notmuch search --output=messages "$1" | sort | tr '\n' ' '; }

notmuch-lore-thread -a "-m $TRASH/w/all.mbox" <w/c.eml >out 2>err
is "$?" 0 "notmuch-lore-thread succeeds"
is "$(cat err)" \
	"notmuch-lore-thread: 7 new messages added to lore-am, tagged lore-am; 1 were there" \
	"... and says what it added"
is "$(nm_ids "$tid")" \
	"id:a@example.org id:b@example.org id:c@example.org id:d@example.org id:e@example.org id:fold(ed)@example.org id:quote\"d@example.org id:r@example.org " \
	"the database's thread now has all 8 messages"
is "$(nm_ids tag:lore-am)" "$(nm_ids "$tid and not id:c@example.org")" \
	"the 7 new ones are tagged lore-am, the one that was there is not"
same=0
for m in r a b d e q1 q2; do
	f=$(notmuch search --output=files "$tid and from:p-$m@example.org")
	case $f in "$NM_MAIL"/lore-am/*) ;; *) same=1 ;; esac
	cmp -s "$f" "w/$m.eml" || same=1
done
ok $same "each one is in the folder lore-am, byte for byte as sent"
is "$(notmuch count tag:new) $(notmuch count tag:inbox)" "9 0" \
	"they get new.tags (here: new), as notmuch insert gives"

before=$(find "$NM_MAIL" -type f | sort)
notmuch-lore-thread -a "-m $TRASH/w/all.mbox" <w/e.eml 2>err
is "$? $(cat err)" \
	"0 notmuch-lore-thread: 0 new messages added to lore-am, tagged lore-am; 8 were there" \
	"run again, from another message, it adds nothing"
is "$(find "$NM_MAIL" -type f | sort)" "$before" "... not even a file"
is "$(notmuch count --output=files "$tid")" 8 \
	"... and every message has one file"

# Message-ID as an argument, another folder
notmuch-lore-thread -a "-m $TRASH/w/all.mbox" -f lists/other \
	'<u2@example.org>' </dev/null 2>err
is "$? $(cat err)" \
	"0 notmuch-lore-thread: 1 new messages added to lists/other, tagged lore-am; 1 were there" \
	"with a Message-ID and -f FOLDER, the other thread's reply is added"
f=$(notmuch search --output=files id:u2@example.org)
is "${f%/*/*}" "$NM_MAIL/lists/other" "... into that folder"

# the thread cannot be fetched (a mailbox lore-am cannot read: a link to
# itself): nothing is added
ln -s missing.mbox "$TRASH/missing.mbox"
before=$(find "$NM_MAIL" -type f | sort)
notmuch-lore-thread -a "-m $TRASH/missing.mbox" <w/c.eml 2>err
is "$?" 1 "a thread that cannot be fetched fails"
grep -q "^lore-am: cannot read '$TRASH/missing.mbox'" err &&
	grep -q '^notmuch-lore-thread: nothing added$' err
ok $? "... with lore-am's error and what came of it"
is "$(find "$NM_MAIL" -type f | sort)" "$before" "... and nothing added"

notmuch-lore-thread -a "-m $TRASH/w/all.mbox" a b </dev/null 2>err
is "$?" 2 "two Message-IDs are a usage error"
done_testing
