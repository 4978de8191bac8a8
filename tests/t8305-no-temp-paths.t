#!/bin/bash
# What the keys show names no temporary path: notmuch-lore-thread, when
# the thread cannot be fetched, says lore-am's reason and its own, not
# lore-am-pipe's line about a folder under $TMPDIR it made and removed;
# lore-am-pipe range-diff (aerc's Alt-d, mutt's Esc D) hands the pager the
# text on its standard input, so that less shows no temporary file name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-hooks.sh"
. "$(dirname "$0")/lib-thread.sh"
plan 7

cd "$TRASH" || exit 1
hooks_path
export TMPDIR=$TRASH/tmpdir
mkdir -p "$TMPDIR"

# ------------------------------------------------- notmuch-lore-thread
if command -v notmuch >/dev/null; then
	. "$TEST_DIR/lib-nm.sh"
	printf '%s\n' 'From: A <a@example.org>' 'Subject: [PATCH] x: y' \
		'Date: Mon, 1 Jan 2024 10:00:00 +0000' 'Message-ID: <c@example.org>' \
		'' 'body' >c.eml
	nm_init "$TRASH/mail"
	maildir_add "$NM_MAIL/inbox" c.eml
	nm_new || { echo "Bail out! notmuch new fails"; exit 1; }
	ln -sf "$SRC_DIR/notmuch/notmuch-lore-thread" "$TRASH/bin/"
	ln -s missing.mbox "$TRASH/missing.mbox"
	notmuch-lore-thread -a "-m $TRASH/missing.mbox" <c.eml 2>err
	is "$?" 1 "notmuch-lore-thread: a thread that cannot be fetched fails"
	check "... saying lore-am's reason and its own" eval \
		"grep -q \"^lore-am: cannot read '$TRASH/missing.mbox'\" err &&
		 grep -qx 'notmuch-lore-thread: nothing added' err"
	check "... and no temporary path" eval "! grep -qF '$TMPDIR' err"
else
	skip "notmuch not installed"; skip "notmuch not installed"
	skip "notmuch not installed"
fi

# ------------------------------------------------- range-diff's pager
two_revisions "$TRASH/r" >/dev/null 2>&1 || { echo "Bail out! no revisions"; exit 1; }
to_mbox "$TRASH/both.mbox" "$TRASH"/p1/*.patch "$TRASH"/p2/*.patch
cat >"$TRASH/bin/record-pager" <<EOS
#!/bin/sh
printf '%s\n' "\$#" "\$@" >"$TRASH/pager.args"
cat >"$TRASH/pager.in"
EOS
chmod +x "$TRASH/bin/record-pager"
# a terminal, as aerc's and mutt's pipes give
LORE_AM_PAGER=record-pager script -qec \
	"lore-am-pipe -a '-m $TRASH/both.mbox' -r '$TRASH/r' range-diff <'$TRASH/p2/v2-0001-c-add-c.patch'" \
	/dev/null >pipe.out 2>&1
is "$?" 0 "lore-am-pipe range-diff on a terminal"
is "$(head -1 "$TRASH/pager.args" 2>/dev/null)" 0 "the pager is given no file name"
check "... and reads the range-diff on its standard input" \
	grep -q 'c: add c' "$TRASH/pager.in"
check "... which names no temporary path" eval "! grep -qF '$TMPDIR' '$TRASH/pager.in'"
