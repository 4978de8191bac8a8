#!/bin/bash
# make install with DESTDIR and PREFIX puts the program, the wrappers and
# every integration file where the pages say, and the installed wrapper
# works from there.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
plan 5

dest=$TRASH/dest
make -s -C "$SRC_DIR" install DESTDIR="$dest" PREFIX=/opt/la >"$TRASH/out" 2>&1
is $? 0 "make install DESTDIR=... PREFIX=... succeeds"
is "$(cd "$dest" && find . -type f | sort | tr '\n' ' ')" \
	"./opt/la/bin/lore-am ./opt/la/bin/lore-am-pipe ./opt/la/bin/notmuch-lore-thread ./opt/la/share/lore-am/aerc-binds.conf ./opt/la/share/lore-am/lore-am.el ./opt/la/share/lore-am/lore-am.muttrc ./opt/la/share/lore-am/maildrop ./opt/la/share/lore-am/notmuch-post-new ./opt/la/share/lore-am/procmailrc ./opt/la/share/man/man1/lore-am.1 " \
	"the program, the wrappers, the snippets and the man page"
share=$dest/opt/la/share/lore-am
same=0
for f in mutt/lore-am.muttrc hooks/aerc-binds.conf hooks/procmailrc \
	hooks/maildrop notmuch/lore-am.el; do
	cmp -s "$SRC_DIR/$f" "$share/${f##*/}" || same=1
done
cmp -s "$SRC_DIR/notmuch/post-new" "$share/notmuch-post-new" || same=1
cmp -s "$SRC_DIR/notmuch/notmuch-lore-thread" \
	"$dest/opt/la/bin/notmuch-lore-thread" || same=1
ok $same "the installed snippets are the shipped ones"
is "$(stat -c %a "$dest/opt/la/bin/lore-am-pipe" "$dest/opt/la/bin/notmuch-lore-thread" "$share/notmuch-post-new" "$share/procmailrc" | tr '\n' ' ')" \
	"755 755 755 644 " "scripts are executable, snippets are not"

hooks_series || { echo "Bail out! cannot generate the test thread"; exit 1; }
to_maildir "$TRASH/one.mbox" "$TRASH/in"
p2=$(grep -l "^Message-I[dD]: <$ONE_P2>" "$TRASH"/in/cur/*)
PATH=$dest/opt/la/bin:$PATH LORE_AM_ARGS="-m $TRASH/one.mbox" \
	lore-am-pipe save <"$p2" >/dev/null 2>&1
is "$(find "$HOME/patches" -name '*.mbx' | wc -l)" 1 \
	"the installed lore-am-pipe saves into ~/patches by default"
done_testing
