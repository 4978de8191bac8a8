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

gen_thread || exit 1

LD_DEBUG=files "$LORE_AM" -q -m "$mbox" "$cover" </dev/null \
	>"$TRASH/out.mbx" 2>"$TRASH/ld.mbox"
is "$?" 0 "the series from an mbox"
check "reading an mbox never loads libnotmuch" eval '! maps_notmuch "$TRASH/ld.mbox"'

nm_maildir "$TRASH/mail" "$mbox" || exit 1
LD_DEBUG=files "$LORE_AM" -q -N "$cover" </dev/null \
	>"$TRASH/nm.mbx" 2>"$TRASH/ld.nm"
is "$?" 0 "the series from notmuch (-N)"
check "-N loads libnotmuch" maps_notmuch "$TRASH/ld.nm"
same_file "$TRASH/nm.mbx" "$TRASH/out.mbx" "the same series either way"

# a libnotmuch that cannot be loaded: one clear line and status 2 for -N;
# the mbox runs do not notice
loaded_on_demand libnotmuch.so.5 2 -N "cannot load libnotmuch\\.so\\.5: " \
	"$mbox" "$TRASH/out.mbx" "$cover" -N
done_testing
