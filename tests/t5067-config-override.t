#!/bin/bash
# b4's -c NAME=VALUE (b4 0.14): a git config value for this run only,
# above the config files, before b4's word (as b4 takes it) and after it;
# an override of b4.KEY wins over lore-am.KEY from the files too. A
# malformed -c is one line and exit 2.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-series.sh"
plan 11

series_repo "$TRASH/repo" 2 >/dev/null || exit 1
fmt "$TRASH/repo" "$TRASH/p" || exit 1
to_mbox "$TRASH/t.mbox" "$TRASH"/p/*.patch
ID=$(msgid_of "$TRASH"/p/0001-*)
# the Link: trailers' hosts, one a patch
links() { sed -n 's|^Link: https://\([^/]*\)/.*|\1|p' "$TRASH/$1.out" | tr '\n' ' '; }

git config --global b4.linktrailermask 'Link: https://files.example/%s'
lore files -l -m "$TRASH/t.mbox" "$ID"
is "$(links files)" "files.example files.example " \
	"git config b4.linktrailermask: the Link: the files say"
lore before -c 'b4.linktrailermask=Link: https://run.example/%s' am -l -o - -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/before.rc"):$(links before)" "0:run.example run.example " \
	"-c b4.linktrailermask=... before the word: this run's value"
lore after am -l -c 'b4.linktrailermask=Link: https://run.example/%s' -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/after.rc"):$(links after)" "0:run.example run.example " \
	"... after the word: the same"
lore long --config='b4.linktrailermask=Link: https://run.example/%s' -l -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/long.rc"):$(links long)" "0:run.example run.example " \
	"... --config=NAME=VALUE, no word: the same"
git config --global lore-am.linktrailermask 'Link: https://own.example/%s'
lore own -c 'b4.linktrailermask=Link: https://run.example/%s' -l -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/own.rc"):$(links own)" "0:run.example run.example " \
	"-c b4.KEY wins over lore-am.KEY in the files: it is this run's setting"
GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=lore-am.linktrailermask \
	GIT_CONFIG_VALUE_0='Link: https://env.example/%s' \
	lore env -c 'lore-am.linktrailermask=Link: https://run.example/%s' -l -m "$TRASH/t.mbox" "$ID"
is "$(cat "$TRASH/env.rc"):$(links env)" "0:run.example run.example " \
	"... and over a setting only git reads (GIT_CONFIG_COUNT): git config asked, -c still above it"
lore none -l -m "$TRASH/t.mbox" "$ID"
is "$(links none)" "own.example own.example " "without -c: the files' value again"

lore unknown -c core.editor=vi am -m "$TRASH/t.mbox" "$ID"
fails unknown 2 "-c 'core.editor=vi': not NAME=VALUE with NAME a key of lore-am\.\*, b4\.\*, lore\.\* or user\.\*" \
	"-c of a key lore-am does not read: one line, exit 2"
lore nodot -c linkmask=x -m "$TRASH/t.mbox" "$ID"
fails nodot 2 "-c 'linkmask=x': not NAME=VALUE" "-c NAME without its section: one line, exit 2"
lore nl -c "b4.linkmask=a$(printf '\nb')" am -m "$TRASH/t.mbox" "$ID"
fails nl 2 "-c b4.linkmask: the value is one line of at most 4096 bytes" \
	"a value of two lines: one line, exit 2"
lore big -c "b4.linkmask=$(head -c 5000 /dev/zero | tr '\0' x)" am -m "$TRASH/t.mbox" "$ID"
fails big 2 "-c b4.linkmask: the value is one line of at most 4096 bytes" \
	"a value past 4096 bytes: one line, exit 2"
