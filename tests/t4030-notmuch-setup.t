#!/bin/bash
# t4030-notmuch-setup.t - finding the notmuch set-up as notmuch does
# (NOTMUCH_CONFIG, profiles), a clear error when -N asks for a set-up that
# is not there, a silent skip when the automatic mode merely looked, and
# the build without libnotmuch.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-nm.sh"

nm_have || skip_all "notmuch not installed, or lore-am built without it"
plan 18

gen_thread || exit 1
mbox_without "$mbox" "$TRASH/partial.mbox" "$p3"
"$LORE_AM" -q -m "$mbox" "$cover" >"$TRASH/ref.mbx" 2>/dev/null
export XDG_CONFIG_HOME=$TRASH/xdg-config XDG_DATA_HOME=$TRASH/xdg-data
unset NOTMUCH_CONFIG NOTMUCH_DATABASE NOTMUCH_PROFILE

# no notmuch configuration anywhere
"$LORE_AM" -N "$p2" >"$TRASH/o" 2>"$TRASH/e"
is "$?" 2 "-N without a notmuch config: exit 2"
check "a clear message" grep -qx \
	'lore-am: no notmuch configuration found (NOTMUCH_CONFIG, ~/.notmuch-config)' "$TRASH/e"
check "nothing written" test ! -s "$TRASH/o"
"$LORE_AM" -m "$TRASH/partial.mbox" "$p2" >/dev/null 2>"$TRASH/e"
is "$?" 1 "automatic mode without notmuch: the incomplete mbox stays incomplete"
check "and notmuch is not mentioned" sh -c "! grep -qi notmuch '$TRASH/e'"
# nothing local and no notmuch: the archive is the source (offline here:
# no test reaches the network)
"$LORE_AM" --offline "$p2" </dev/null >/dev/null 2>"$TRASH/e"
is "$?" 1 "no -m and no notmuch: the archive is asked (offline: exit 1)"
check "and the message says the cache lacks it" grep -q 'not in the cache' "$TRASH/e"

# a config whose database does not exist
printf '[database]\npath=%s\n' "$TRASH/nowhere" >"$TRASH/nm-config"
export NOTMUCH_CONFIG=$TRASH/nm-config
"$LORE_AM" -N "$p2" >"$TRASH/o" 2>"$TRASH/e"
is "$?" 2 "-N with a missing database: exit 2"
check "the message names the database" grep -qx \
	"lore-am: cannot open the notmuch database: Cannot open database at $TRASH/nowhere: No such file or directory" \
	"$TRASH/e"
"$LORE_AM" -m "$TRASH/partial.mbox" "$p2" >/dev/null 2>"$TRASH/e"
check "the automatic mode skips it silently" sh -c "! grep -qi notmuch '$TRASH/e'"
"$LORE_AM" -N --source mbox -m "$mbox" "$p2" >/dev/null 2>"$TRASH/e"
is "$?" 2 "-N and --source mbox: exit 2"
check "they contradict each other" grep -qx \
	'lore-am: -N and --source mbox contradict each other' "$TRASH/e"
unset NOTMUCH_CONFIG

# notmuch's profile rules: $XDG_CONFIG_HOME/notmuch/PROFILE/config
mkdir -p "$XDG_CONFIG_HOME/notmuch/work"
nm_init "$TRASH/work-mail"
mv "$NOTMUCH_CONFIG" "$XDG_CONFIG_HOME/notmuch/work/config"
unset NOTMUCH_CONFIG
nm_add "$mbox"
NOTMUCH_PROFILE=work nm_new || exit 1
NOTMUCH_PROFILE=work "$LORE_AM" -q -N "$p2" >"$TRASH/w.mbx" 2>/dev/null
same_file "$TRASH/w.mbx" "$TRASH/ref.mbx" "NOTMUCH_PROFILE picks the profile's config and database"
"$LORE_AM" -q -N "$p2" >/dev/null 2>&1
is "$?" 2 "without NOTMUCH_PROFILE that profile is not used"

# built without libnotmuch
mkdir "$TRASH/src"
cp -R "$SRC_DIR/filter" "$SRC_DIR/Makefile" "$TRASH/src/"
(cd "$TRASH/src" && make clean && make -j2 NO_NOTMUCH=1 CFLAGS=-O0 lore-am) \
	>"$TRASH/build.out" 2>&1
is "$?" 0 "make NO_NOTMUCH=1 builds"
NOTMUCH_PROFILE=work "$TRASH/src/lore-am" -N "$p2" >"$TRASH/o" 2>"$TRASH/e"
is "$?" 2 "-N in that build: exit 2"
check "it says notmuch is not compiled in" grep -qx \
	'lore-am: -N: notmuch support is not compiled in (built with NO_NOTMUCH=1)' \
	"$TRASH/e"
"$TRASH/src/lore-am" -q -m "$mbox" "$p2" >"$TRASH/nb.mbx" 2>/dev/null
same_file "$TRASH/nb.mbx" "$TRASH/ref.mbx" "and -m works as before"
done_testing
