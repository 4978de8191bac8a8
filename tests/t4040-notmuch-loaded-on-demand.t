#!/bin/bash
# t4040-notmuch-loaded-on-demand.t - libnotmuch (and the Xapian and C++
# libraries it brings) is loaded only when the notmuch source is asked: a
# run that reads an mbox never maps it, a -N run does and still works.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
command -v ldd >/dev/null || skip_all "ldd not installed"
plan 10

# the dynamic loader lists every object it maps with LD_DEBUG=files
maps_notmuch() { grep -q 'file=libnotmuch\.so' "$1"; }

ldd "$LORE_AM" >"$TRASH/ldd" 2>&1
check "the binary does not need libnotmuch at start-up" \
	test -s "$TRASH/ldd" -a -z "$(grep notmuch "$TRASH/ldd")"

G=$TRASH/g
cover=$(gen_series "$G" --preset small) || exit 1
mbox=$G/thread.mbox

LD_DEBUG=files "$LORE_AM" -q -m "$mbox" "$cover" </dev/null \
	>"$TRASH/out.mbx" 2>"$TRASH/ld.mbox"
is "$?" 0 "the series from an mbox"
check "reading an mbox never loads libnotmuch" eval '! maps_notmuch "$TRASH/ld.mbox"'

nm_init "$TRASH/mail"
nm_add "$mbox"
nm_new || exit 1
LD_DEBUG=files "$LORE_AM" -q -N "$cover" </dev/null \
	>"$TRASH/nm.mbx" 2>"$TRASH/ld.nm"
is "$?" 0 "the series from notmuch (-N)"
check "-N loads libnotmuch" maps_notmuch "$TRASH/ld.nm"
same_file "$TRASH/nm.mbx" "$TRASH/out.mbx" "the same series either way"

# a libnotmuch that cannot be loaded: one clear line and status 2 for -N;
# the mbox runs do not notice
without_lib libnotmuch.so.5 "$LORE_AM" -q -N "$cover" </dev/null \
	>"$TRASH/none.mbx" 2>"$TRASH/none.err"
rc=$?
if [ "$rc" = 125 ]; then
	skip "no private mount namespace here to hide libnotmuch"
	skip "no private mount namespace here to hide libnotmuch"
	skip "no private mount namespace here to hide libnotmuch"
	skip "no private mount namespace here to hide libnotmuch"
else
	is "$rc" 2 "-N without a loadable libnotmuch: status 2"
	check "... one line that says the library cannot be loaded" eval \
		'[ "$(wc -l <"$TRASH/none.err")" = 1 ] &&
		grep -q "^lore-am: cannot load libnotmuch\.so\.5: " "$TRASH/none.err"'
	without_lib libnotmuch.so.5 "$LORE_AM" -q -m "$mbox" "$cover" \
		</dev/null >"$TRASH/none-m.mbx" 2>"$TRASH/none-m.err"
	is "$?:$(cat "$TRASH/none-m.err")" 0: \
		"... and an mbox run still works, silently with -q"
	same_file "$TRASH/none-m.mbx" "$TRASH/out.mbx" "... and writes the same series"
fi
done_testing
