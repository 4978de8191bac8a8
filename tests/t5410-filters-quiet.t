#!/bin/bash
# The mail filters on real mail stay quiet unless something needs the
# user: the LKML corpus delivered by the real procmail through
# hooks/procmailrc, and indexed by a real `notmuch new` with
# notmuch/post-new, logs no line for a reply (or a cover letter) whose
# patches are not in the mailbox (before: 19 and 12 lines); the lines
# left are about patch mails. A [PATCH] mail in which no patch is found
# is still said.
. "$(dirname "$0")/lib.sh"

CORPUS=$SHARED_DIR/corpora/lkml
[ -d "$CORPUS/cur" ] || skip_all_no_data "lkml corpus not present"
plan 9

# the ids of the corpus' mails that hold no diff
for f in "$CORPUS"/cur/*; do
	grep -q '^diff --git \|^--- a/\|^Index: ' "$f" && continue
	sed -n 's/^Message-I[dD]: *<\([^>]*\)>.*/\1/p' "$f" | head -1
done | sort -u >"$TRASH/nodiff"
# a patch mail without a patch in it (the diff is only linked)
nopatch='<no-diff-patch@example.org>'
cat >"$TRASH/nopatch.eml" <<EOF
From: Pat Contributor <pat@example.com>
To: list@example.org
Subject: [PATCH] mm: the fix, at the link below
Date: Mon, 15 Jan 2024 10:00:00 +0000
Message-ID: $nopatch

The patch is at https://example.org/fix.patch, no diff here.
EOF
# lines saying a series is not there or not whole, that name a mail
# without a diff (an id between <> that is in $TRASH/nodiff)
about_nodiff() {
	grep -E 'no patches found|is incomplete' "$1" |
		grep -o '<[^<>]*@[^<>]*>' | tr -d '<>' | sort -u |
		comm -12 - "$TRASH/nodiff" | wc -l
}

# ---------------------------------------------------------------- procmail
if command -v procmail >/dev/null; then
	box=$TRASH/box
	mkdir -p "$box/cur" "$box/new" "$box/tmp"
	{
		echo "SHELL=/bin/sh"
		echo "PATH=$PATH"
		echo "LORE_AM=$LORE_AM"
		echo "LOGFILE=$TRASH/procmail.log"
		for v in LORE_AM_REAL LORE_TOOL_LOGS; do
			[ -z "${!v:-}" ] || echo "$v=\"${!v}\""
		done
		echo "LORE_AM_ARGS=\"-m $box\""
		echo "LORE_AM_DIR=$TRASH/patches"
		echo "XDG_DATA_HOME=$TRASH/data"
		echo "INCLUDERC=$SRC_DIR/hooks/procmailrc"
		echo ":0"
		echo "$box/"
	} >"$TRASH/rc"
	chmod 600 "$TRASH/rc"
	fails=0
	for f in "$CORPUS"/cur/* "$TRASH/nopatch.eml"; do
		procmail -m "$TRASH/rc" <"$f" 2>>"$TRASH/procmail.err" ||
			fails=$((fails + 1))
	done
	is "$fails" 0 "procmail delivers the 211 mails"
	grep '^lore-am' "$TRASH/procmail.log" >"$TRASH/plines"
	echo "# procmail log: $(wc -l <"$TRASH/plines") lines from lore-am"
	is "$(about_nodiff "$TRASH/plines")" 0 \
		"procmail's log holds no line about a mail without a diff"
	check "... but still says incomplete series, by their patch mails" \
		grep -q 'is incomplete, missing' "$TRASH/plines"
	check "... and a [PATCH] mail in which no patch is found" \
		grep -qF "lore-am: $nopatch: no patches found in the thread" "$TRASH/plines"
else
	skip "procmail not installed"; skip "procmail not installed"
	skip "procmail not installed"; skip "procmail not installed"
fi

# ----------------------------------------------------------------- notmuch
if command -v notmuch >/dev/null; then
	mail=$TRASH/mail
	mkdir -p "$mail/lists" "$TRASH/hooks"
	cp -r "$CORPUS/cur" "$mail/lists/" && chmod -R u+w "$mail"
	mkdir -p "$mail/lists/new" "$mail/lists/tmp"
	cp "$TRASH/nopatch.eml" "$mail/lists/cur/nopatch:2,"
	export NOTMUCH_CONFIG=$TRASH/notmuch-config
	printf '[database]\npath=%s\nhook_dir=%s\n[new]\ntags=new;unread\n' \
		"$mail" "$TRASH/hooks" >"$NOTMUCH_CONFIG"
	cp "$SRC_DIR/notmuch/post-new" "$TRASH/hooks/post-new"
	notmuch config set lore-am.outdir "$TRASH/nm-patches"
	LORE_AM=$LORE_AM notmuch new >/dev/null 2>"$TRASH/nm.err"
	is "$?" 0 "notmuch new with the hook succeeds"
	echo "# notmuch hook: $(wc -l <"$TRASH/nm.err") lines"
	is "$(about_nodiff "$TRASH/nm.err")" 0 \
		"the hook says nothing about a mail without a diff"
	check "... but names a [PATCH] mail in which no patch is found" \
		grep -qF "lore-am post-new: $nopatch: no patches found in its thread" "$TRASH/nm.err"
	is "$(notmuch count tag:am-ready and not tag:am-incomplete)" \
		"$(notmuch count tag:am-ready)" "... while it tags the series it finds"
	check "... which it does" test "$(notmuch count tag:am-ready)" -gt 0
else
	skip "notmuch not installed"; skip "notmuch not installed"
	skip "notmuch not installed"; skip "notmuch not installed"
	skip "notmuch not installed"
fi
