#!/bin/bash
# t4020-notmuch-partial.t - sources that complete each other, and what
# happens when nothing can: a local thread missing a patch (no archive to
# ask), an mbox completed from notmuch in the automatic mode, the choice
# of source from --source and git config, and one message stored twice.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 22

gen_thread || exit 1
mbox_without "$mbox" "$TRASH/partial.mbox" "$p3"
mbox_pick "$mbox" "$p3" >"$TRASH/p3.mbox"
"$LORE_AM" -q -m "$mbox" "$cover" >"$TRASH/ref.mbx" 2>/dev/null

# a local thread without patch 3, and nothing to complete it from
nm_maildir "$TRASH/partial" "$TRASH/partial.mbox" || exit 1
"$LORE_AM" -N "$p2" >"$TRASH/out.mbx" 2>"$TRASH/err"
is "$?" 1 "a partial local series: exit 1"
check "the missing patch is named" grep -q 'lore-am: v1: missing 3/5' "$TRASH/err"
check "and what could not be completed" grep -qx \
	"NOTE: the local thread's series is incomplete and there is no archive source to complete it from" \
	"$TRASH/err"
check "nothing is written" test ! -s "$TRASH/out.mbx"
"$LORE_AM" -q -N --allow-incomplete "$p2" >"$TRASH/some.mbx" 2>/dev/null
is "$?" 0 "--allow-incomplete writes what there is"
is "$(grep -c '^Subject: \[PATCH' "$TRASH/some.mbx")" 4 "the four patches present"
(cd "$G/repo" && git checkout -q -b t base && git am -q "$TRASH/some.mbx") \
	>/dev/null 2>&1
is "$(git -C "$G/repo" rev-list --count base..t)" 4 "git am applies them"

# the automatic mode: an incomplete mbox, completed from notmuch
nm_maildir "$TRASH/full" "$mbox" || exit 1
"$LORE_AM" -m "$TRASH/partial.mbox" "$p2" >"$TRASH/auto.mbx" 2>"$TRASH/auto.err"
is "$?" 0 "an incomplete mbox is completed from notmuch"
same_file "$TRASH/auto.mbx" "$TRASH/ref.mbx" "the full series"
check "each source's share is said" \
	grep -qx 'Sources: mbox 25 messages, notmuch 1 message' "$TRASH/auto.err"
"$LORE_AM" -m "$mbox" "$p2" >/dev/null 2>"$TRASH/full.err"
check "a complete mbox needs no notmuch" \
	grep -qx 'Sources: mbox 26 messages' "$TRASH/full.err"

git config --global lore-am.source mbox
"$LORE_AM" -q -m "$TRASH/partial.mbox" "$p2" >/dev/null 2>&1
is "$?" 1 "lore-am.source=mbox: notmuch is not asked"
"$LORE_AM" -m "$TRASH/partial.mbox" --source notmuch "$p2" \
	>"$TRASH/cli.mbx" 2>"$TRASH/cli.err"
is "$?" 0 "--source notmuch overrides the config"
check "-m files join the forced source" \
	grep -qx 'Sources: mbox 25 messages, notmuch 1 message' "$TRASH/cli.err"
git config --global lore-am.source nonsense
"$LORE_AM" -m "$mbox" "$p2" >"$TRASH/bad.mbx" 2>"$TRASH/bad.err"
is "$?" 2 "an unknown lore-am.source: exit 2"
check "with a clear message" grep -qx \
	"lore-am: unknown source 'nonsense' in lore-am.source: use auto, notmuch, lore or mbox" \
	"$TRASH/bad.err"
git config --global --unset lore-am.source

# one message in two folders: either readable copy will do
nm_init "$TRASH/dup"
nm_add "$mbox"
nm_add "$TRASH/p3.mbox" lists/linux
nm_new || exit 1
is "$(notmuch search --output=files "id:$p3" | wc -l)" 2 \
	"notmuch holds two files for one message"
"$LORE_AM" -N "$p2" >"$TRASH/dup.mbx" 2>"$TRASH/dup.err"
same_file "$TRASH/dup.mbx" "$TRASH/ref.mbx" "the message counts once"
check "and once in the summary" \
	grep -qx 'Sources: notmuch 26 messages' "$TRASH/dup.err"
bad=0
for f in $(notmuch search --output=files "id:$p3"); do
	cp "$f" "$TRASH/saved"
	printf 'not a mail, no header at all\n' >"$f"
	"$LORE_AM" -q -N "$p2" >"$TRASH/dup2.mbx" 2>/dev/null &&
		cmp -s "$TRASH/dup2.mbx" "$TRASH/ref.mbx" || bad=$((bad + 1))
	cp "$TRASH/saved" "$f"
done
is "$bad" 0 "whichever copy no longer parses, the other one is used"
for f in $(notmuch search --output=files "id:$p3"); do
	printf 'not a mail, no header at all\n' >"$f"
done
"$LORE_AM" -N "$p2" >"$TRASH/dup3.mbx" 2>"$TRASH/dup3.err"
is "$?" 1 "no readable copy at all: the patch is missing"
check "a warning says a message could not be read" grep -qx \
	'lore-am: warning: 1 message of the notmuch thread could not be read from any of its files' \
	"$TRASH/dup3.err"
done_testing
