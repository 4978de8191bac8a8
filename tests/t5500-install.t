#!/bin/bash
# make install with DESTDIR and PREFIX puts the program, the wrappers,
# every integration file and the pages where the pages say; the installed
# recipes and hooks name the installed programs by their full path, so
# procmail (which resets PATH) and notmuch find them outside /usr/local;
# make install-notmuch-hook puts the hook where notmuch says, and refuses
# when notmuch names no folder yet.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-nm.sh"
plan 19

dest=$TRASH/dest
make -s -C "$SRC_DIR" install DESTDIR="$dest" PREFIX=/opt/la >"$TRASH/out" 2>&1
is $? 0 "make install DESTDIR=... PREFIX=... succeeds"
is "$(cd "$dest" && find . -type f | sort | tr '\n' ' ')" \
	"./opt/la/bin/lore-am ./opt/la/bin/lore-am-pipe ./opt/la/bin/notmuch-lore-thread ./opt/la/share/doc/lore-am/SECURITY.md ./opt/la/share/doc/lore-am/aerc.md ./opt/la/share/doc/lore-am/mutt.md ./opt/la/share/doc/lore-am/notmuch.md ./opt/la/share/doc/lore-am/procmail.md ./opt/la/share/lore-am/aerc-binds.conf ./opt/la/share/lore-am/lore-am.el ./opt/la/share/lore-am/lore-am.muttrc ./opt/la/share/lore-am/maildrop ./opt/la/share/lore-am/notmuch-post-new ./opt/la/share/lore-am/procmailrc ./opt/la/share/man/man1/lore-am.1 " \
	"the program, the wrappers, the snippets, the man page and the pages"
share=$dest/opt/la/share/lore-am
# shipped and installed copies differ only in the programs' full paths
same=0 named=0
for f in mutt/lore-am.muttrc:lore-am.muttrc hooks/aerc-binds.conf:aerc-binds.conf \
	hooks/procmailrc:procmailrc hooks/maildrop:maildrop \
	notmuch/lore-am.el:lore-am.el notmuch/post-new:notmuch-post-new \
	hooks/lore-am-pipe:../../bin/lore-am-pipe \
	notmuch/notmuch-lore-thread:../../bin/notmuch-lore-thread; do
	got=$share/${f#*:}
	sed 's|/opt/la/bin/||g; s|/opt/la/share/lore-am|/usr/local/share/lore-am|g' \
		"$got" | cmp -s - "$SRC_DIR/${f%%:*}" || same=1
	grep -q '/opt/la/bin/\(lore-am\|notmuch-lore-thread\)' "$got" ||
		{ named=1; echo "# no full path in ${f#*:}"; }
done
ok $same "the installed files are the shipped ones but for the full paths"
ok $named "each installed file names the installed program by its full path"
is "$(stat -c %a "$dest/opt/la/bin/lore-am-pipe" "$dest/opt/la/bin/notmuch-lore-thread" "$share/notmuch-post-new" "$share/procmailrc" | tr '\n' ' ')" \
	"755 755 755 644 " "scripts are executable, snippets are not"
same_file "$dest/opt/la/share/doc/lore-am/procmail.md" "$SRC_DIR/doc/procmail.md" \
	"doc/*.md installed as they are"

# make example: the mbox alone on stdout, the build's lines elsewhere (in
# a copy of the built tree, so that the relinking touches no other test)
mkdir "$TRASH/copy" && cp -a "$SRC_DIR/Makefile" "$SRC_DIR/filter" \
	"$SRC_DIR/examples" "$SRC_DIR/lore-am" "$TRASH/copy/"
(cd "$TRASH/copy" && touch filter/cli/main.c &&
 make --no-print-directory example >"$TRASH/ex.mbx" 2>"$TRASH/ex.err")
is "$?.$(head -c 5 "$TRASH/ex.mbx")" "0.From " "make example: stdout starts with the mbox"
is "$(grep -c '^From ' "$TRASH/ex.mbx").$(grep -Ec '^(cc|ar|rm) ' "$TRASH/ex.mbx")" "5.0" \
	"make example: the five patches and no compiler line on stdout"
is "$(ls "$HOME/.local/share/lore-am" 2>/dev/null | grep -c queue)" 0 \
	"make example: nothing recorded in the user's queue"

hooks_series || { echo "Bail out! cannot generate the test thread"; exit 1; }
to_maildir "$TRASH/one.mbox" "$TRASH/in"
p2=$(grep -l "^Message-I[dD]: <$ONE_P2>" "$TRASH"/in/cur/*)
# (under DESTDIR the program is not yet where the wrapper will find it)
PATH=$dest/opt/la/bin:$PATH LORE_AM_ARGS="-m $TRASH/one.mbox" \
	LORE_AM=$dest/opt/la/bin/lore-am lore-am-pipe save <"$p2" >/dev/null 2>&1
is "$(find "$HOME/patches" -name '*.mbx' | wc -l)" 1 \
	"the installed lore-am-pipe saves into ~/patches by default"

# A real installation outside /usr/local, used by programs that do not
# have its bin folder on their PATH.
pfx=$TRASH/pfx
make -s -C "$SRC_DIR" install PREFIX="$pfx" >"$TRASH/out2" 2>&1
is $? 0 "make install PREFIX=... (no DESTDIR) succeeds"
if command -v procmail >/dev/null; then
	box=$TRASH/lists
	mkdir -p "$box/cur" "$box/new" "$box/tmp"
	{
		echo "SHELL=/bin/sh"
		echo "PATH=/usr/bin:/bin"
		echo "LOGFILE=$TRASH/procmail.log"
		echo "LORE_AM_ARGS=\"-m $box\""
		echo "LORE_AM_DIR=\"$HOME/pm-patches\""
		echo "XDG_DATA_HOME=\"$HOME/.local/share\""
		echo "INCLUDERC=$pfx/share/lore-am/procmailrc"
		echo ":0"
		echo "$box/"
	} >"$TRASH/pm.rc"
	chmod 600 "$TRASH/pm.rc"
	for f in "$TRASH"/in/cur/*; do
		env -i HOME="$HOME" PATH=/usr/bin:/bin procmail -m "$TRASH/pm.rc" <"$f"
	done
	"$LORE_AM" -q -m "$box" -o "$TRASH/pm-fresh" "$ONE_ID"
	check "procmail with PATH=/usr/bin:/bin runs the installed lore-am" \
		cmp "$(only_file "$HOME/pm-patches" '*.mbx')" \
		"$(only_file "$TRASH/pm-fresh" '*.mbx')"
	check "no 'not found' in procmail's log" \
		sh -c "! grep -q 'not found\|No such file' '$TRASH/procmail.log'"
else
	skip "procmail not installed"
	skip "procmail not installed"
fi

# make install-notmuch-hook: where notmuch says, never "/post-new"
if nm_have; then
	nm_init "$TRASH/nm"
	make -s -C "$SRC_DIR" install-notmuch-hook PREFIX="$pfx" \
		>"$TRASH/h.out" 2>"$TRASH/h.err"
	is $? 2 "before the first notmuch new: make install-notmuch-hook fails"
	check "it says notmuch names no hook folder" \
		grep -q '^install-notmuch-hook: notmuch names no hook folder' "$TRASH/h.err"
	check "nothing written into the mail root or /" \
		sh -c "! ls '$TRASH/nm/.notmuch/hooks/post-new' /post-new 2>/dev/null | grep -q ."
	nm_new
	make -s -C "$SRC_DIR" install-notmuch-hook PREFIX="$pfx" \
		>"$TRASH/h.out" 2>"$TRASH/h.err"
	hook=$(notmuch config get database.hook_dir)/post-new
	check "after notmuch new: the hook is installed, executable" test -x "$hook"
	# notmuch runs the hook with a PATH that lacks the installed bin
	rm -rf "$HOME/patches"
	nm_add "$TRASH/one.mbox" lkml
	env PATH=/usr/bin:/bin notmuch new --quiet 2>"$TRASH/nm.err"
	"$LORE_AM" -q -m "$TRASH/one.mbox" -o "$TRASH/nm-fresh" "$ONE_ID"
	check "notmuch new runs it: the series is written" \
		cmp "$(only_file "$HOME/patches" '*.mbx')" \
		"$(only_file "$TRASH/nm-fresh" '*.mbx')"
	echo '#!/bin/sh' >"$hook"
	make -s -C "$SRC_DIR" install-notmuch-hook PREFIX="$pfx" \
		>"$TRASH/h.out" 2>"$TRASH/h.err"
	is "$?.$(cat "$hook")" "2.#!/bin/sh" "a post-new hook of the user's own is left alone"
else
	for _ in 1 2 3 4 5 6; do skip "notmuch not installed or not built in"; done
fi
done_testing
