#!/bin/bash
# shazam-merge-template (b4's, lore-am. or b4.): --apply=merge's message
# from the user's template file, b4's variables filled as b4 fills them
# (lines starting with '#' left out, $$ a dollar, an unknown $name left),
# the same message real b4 0.12's shazam -M writes with that template; a
# template that cannot be read stops the run before anything is applied.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-series.sh"
plan 7

make_repo "$TRASH/repo"
(cd "$TRASH/repo" && git checkout -q -b topic &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 sed -i 's/^line 2$/line two/' file.c && git commit -qam "file: spell out two" \
	-m "Signed-off-by: Pat Contributor <pat@example.com>" &&
 echo new > new.c && git add new.c &&
 git commit -qm "new: add new.c" -m "Signed-off-by: Pat Contributor <pat@example.com>")
fmt "$TRASH/repo" "$TRASH/p" --cover-letter
cover_letter "Spell and add" "This series spells two out.\n\nIt also adds a file." "$TRASH"/p/0000-*
to_mbox "$TRASH/thread.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH"/p/0001-*)
cat >"$HOME/merge.tpl" <<'EOF'
# my merge template: this line is left out
Merge branch '${seriestitle}' (${patch_or_series} by ${authorname})

From <${authoremail}>, it costs $$5 and $unknown stays:
${covermessage}

Link: ${midurl}
EOF
user() { user_clone "$1" base; }

git config --global lore-am.shazam-merge-template "~/merge.tpl"
user "$TRASH/u"
(cd "$TRASH/u" && git commit -q --allow-empty -m "later work" &&
 "$LORE_AM" -m "$TRASH/thread.mbox" --apply=merge "$id" >/dev/null 2>"$TRASH/u.err" </dev/null)
is "$?" 0 "--apply=merge with a template: exit 0"
git -C "$TRASH/u" log -1 --format=%B >"$TRASH/merge.la"
check "the template's first line, filled" \
	grep -qx "Merge branch 'Spell and add' (patch series by Test Maintainer)" "$TRASH/merge.la"
check "\$\$ a dollar, an unknown \$name left as written" \
	grep -qx 'From <maintainer@example.org>, it costs \$5 and \$unknown stays:' "$TRASH/merge.la"
check "no '#' line" eval '! grep -q "my merge template" "$TRASH/merge.la"'

if command -v b4 >/dev/null; then
	git config --global --unset lore-am.shazam-merge-template
	git config --global b4.shazam-merge-template "~/merge.tpl"
	user "$TRASH/b4"
	git -C "$TRASH/b4" config b4.linkmask 'https://patch.msgid.link/%s'
	(cd "$TRASH/b4" && git commit -q --allow-empty -m "later work" &&
	 printf '\n' | GIT_EDITOR=true b4 --offline-mode shazam -M \
		-m "$TRASH/thread.mbox" "$id" >/dev/null 2>&1)
	git -C "$TRASH/b4" log -1 --format=%B >"$TRASH/merge.b4"
	same_file "$TRASH/merge.la" "$TRASH/merge.b4" \
		"the message real b4 shazam -M writes with the template (b4.'s key read too)"
else
	skip "b4 is not installed"
fi

git config --global b4.shazam-merge-template "$HOME/nothing-here.tpl"
user "$TRASH/n"
before=$(git -C "$TRASH/n" rev-parse HEAD)
(cd "$TRASH/n" && "$LORE_AM" -m "$TRASH/thread.mbox" --apply=merge "$id" >/dev/null 2>"$TRASH/n.err" </dev/null)
is "$?:$(git -C "$TRASH/n" rev-parse HEAD)" "2:$before" \
	"a template that cannot be read: exit 2, nothing applied"
check "... said in one line naming it" \
	grep -q "^lore-am: shazam-merge-template '$HOME/nothing-here.tpl' cannot be used" "$TRASH/n.err"
