#!/bin/bash
# t9445-queue-cost.t - what the queue costs the mail filter, where a test
# can see it (the figures are bench/queue-bench.sh's): libsqlite3, loaded
# for the queue, binds its own functions first (RTLD_DEEPBIND), not after
# a search of the twenty libraries lore-am links; a build with a sanitizer,
# which refuses that flag, binds it as the other libraries. The mail and
# its state come out the same.
. "$(dirname "$0")/lib.sh"

plan 4

hello_series lists.example.org p1@example.org p2@example.org \
	r1@example.org >"$TRASH/box.mbox"
mkdir -p "$TRASH/split"
git mailsplit -o"$TRASH/split" "$TRASH/box.mbox" >/dev/null
reply=$TRASH/split/0003

# the dynamic loader prints each loaded object's lookup scopes with
# LD_DEBUG=scopes: "object=PATH [0]", then " scope 0: PATH PATH ..."
LD_DEBUG=scopes "$LORE_AM" --passthrough --status-header -q \
	-o "$TRASH/out" -m "$TRASH/box.mbox" <"$reply" \
	>"$TRASH/mail" 2>"$TRASH/ld"
is "$?" 0 "the reply passes through with the queue on"
check "... its header says the state of its series" \
	grep -q '^X-Lore-Am: .*revision=1; .*state=complete; reviews=1,0' \
	"$TRASH/mail"

# the first object of libsqlite3's first scope
first=$(awk '/object=.*libsqlite3\.so/ { s = 1; next }
	s && /scope 0:/ { print $4; exit }' "$TRASH/ld")
case $first in
*/lore-am | */lore-am.*) where=program ;;
*libsqlite3.so*) where=own ;;
*) where="none ($first)" ;;
esac
if [ "$LORE_AM_TOOL" = sanitize ]; then
	is "$where" program "libsqlite3 looked up from the program first (sanitizer build)"
else
	is "$where" own "libsqlite3 binds its own functions first"
fi
check "... and the mail comes out whole" eval \
	'grep -v "^X-Lore-Am:" "$TRASH/mail" | cmp -s - "$reply"'
done_testing
