#!/bin/bash
# The checks a reviewer's trailer passes before it is added, as b4 0.16
# and later make them: a Fixes: without a commit id (6 or more hex
# digits) is named in the summary and not added; a Link: naming a
# message the patch already links, on another host (lore.kernel.org/r/,
# /all/, patch.msgid.link), is not added twice, nor is -l's; an address
# gmane mangled is added as sent and named in the summary. git am of the
# output is what is checked.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 16

R=$TRASH/repo
series_repo "$R" 2 >/dev/null
# patch 1 links the message it answers, as lore's /all/ names it
(cd "$R" && git checkout -q topic~1 && git commit -q --amend \
	-m "part: add piece 1" -m "This adds piece 1 of the feature." \
	-m "Link: https://lore.kernel.org/all/older.1@example.com/
Signed-off-by: Pat Contributor <pat@example.com>" &&
 git cherry-pick topic >/dev/null && git branch -q -f topic HEAD && git checkout -q topic)
fmt "$R" "$TRASH/p"
p1=$TRASH/p/0001-part-add-piece-1.patch
p2=$TRASH/p/0002-part-add-piece-2.patch
old1=$(msgid_of "$p1")
sed -i "s/$old1/p1@example.com/" "$p1" "$p2"

rev='Rev Iewer <rev@example.com>'
gm='Jeff Layton <jlayton-eUNUBHrolfbYtjvyW6yDsg@public.gmane.org>'
reply "$TRASH/r1" "$p1" "$rev" "Fixes: the earlier rework of pieces"
reply "$TRASH/r2" "$p1" "$rev" 'Fixes: 1234567890ab ("part: add piece 0")'
reply "$TRASH/r3" "$p1" "$rev" "Link: https://patch.msgid.link/older.1@example.com"
reply "$TRASH/r4" "$p1" "$rev" "Link: https://lore.kernel.org/r/other.2@example.com"
reply "$TRASH/r5" "$p2" "$gm" "Reviewed-by: $gm"
reply "$TRASH/r6" "$p2" "$rev" "Fixes: deadbee"
to_mbox "$TRASH/t.mbox" "$p1" "$p2" "$TRASH"/r[1-6]

cd "$TRASH" || exit 1
"$LORE_AM" -m t.mbox p1@example.com >out.mbx 2>err
is "$?" 0 "exit 0"
apply_into "$TRASH/out.mbx" am || echo "# git am failed"
t1=$(trailers_of am HEAD~1)
t2=$(trailers_of am HEAD)

# Fixes:
check "a Fixes: without a commit id is not added" \
	eval '! grep -q "earlier rework" <<<"$t1"'
check "a Fixes: with a commit id is added" \
	grep -qx 'Fixes: 1234567890ab ("part: add piece 0")' <<<"$t1"
check "a bare 7-digit id is a commit id" grep -qx 'Fixes: deadbee' <<<"$t2"
check "the summary says which Fixes: was left out, and why" \
	grep -q '^NOTE: Fixes: trailers without a commit id (6 or more hex digits), not added:' err
check "... naming it and its sender" eval \
	'grep -qx "    ! Trailer: Fixes: the earlier rework of pieces" err &&
	 grep -qx "     Msg From: $rev" err'
check "the malformed Fixes: is not shown as added" \
	eval '! grep -q "^    + Fixes: the earlier" err'

# Link:
is "$(grep -c 'older\.1@example\.com' <<<"$t1")" 1 \
	"a Link: to the same message on another host is not added twice"
check "the patch's own Link: is kept as it was" \
	grep -qx 'Link: https://lore.kernel.org/all/older.1@example.com/' <<<"$t1"
check "a Link: to another message is added" \
	grep -qx 'Link: https://lore.kernel.org/r/other.2@example.com' <<<"$t1"
"$LORE_AM" -l -m t.mbox p1@example.com >l.mbx 2>l.err
apply_into "$TRASH/l.mbx" aml || echo "# git am failed"
is "$(trailers_of aml HEAD~1 | grep -c 'p1@example\.com')" 1 \
	"-l: the patch's Link: is added once"
# -l's own link, when the patch already names its message on lore
sed 's|^Link: https://lore.kernel.org/all/older.1@example.com/$|Link: https://lore.kernel.org/r/p1@example.com|' \
	t.mbox >self.mbox
"$LORE_AM" -l -m self.mbox p1@example.com >self.mbx 2>self.err
apply_into "$TRASH/self.mbx" ams || echo "# git am failed"
is "$(trailers_of ams HEAD~1 | grep -c 'p1@example\.com')" 1 \
	"-l: no second Link: when the patch links itself on lore.kernel.org/r/"

# gmane
check "a gmane-mangled address is added as sent" \
	grep -qxF "Reviewed-by: $gm" <<<"$t2"
check "and the summary says it is mangled" eval \
	'grep -q "^NOTE: addresses mangled by gmane, added as sent" err &&
	 grep -qxF "    ! Trailer: Reviewed-by: $gm" err'
check "a plain address is not called mangled" \
	eval '! grep -q "Trailer: .*rev@example.com" <(grep -A3 gmane err)'

# nothing to say: no NOTE
to_mbox clean.mbox "$p1" "$p2" r2
"$LORE_AM" -m clean.mbox p1@example.com >/dev/null 2>clean.err
# (the gate's own note, outside a git tree, is not the trailers')
check "a clean thread: no note" eval \
	'! grep "^NOTE" clean.err | grep -qv "^NOTE: gate: not in a git tree"'
