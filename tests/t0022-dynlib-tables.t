#!/bin/bash
# t0022-dynlib-tables.t - each table of a library core/dynlib.c loads
# (GMime, libcurl, libnotmuch, libopendkim, libsodium, GPGME)
# lists only functions lore-am calls: every name in it is bound by
# dlsym(3) when the library loads, a call or not. A call is what the
# preprocessor makes of DYNLIB_CALL(), "(*(TABLE).p_NAME)", in the
# sources of filter/ as they are compiled (a call through one of GMime's
# own macros, G_TYPE_CHECK_INSTANCE_TYPE's *_get_type(), counts).
. "$(dirname "$0")/lib.sh"

command -v cc >/dev/null || skip_all "cc not installed"
command -v pkg-config >/dev/null || skip_all "pkg-config not installed"
plan 3

cd "$SRC_DIR" || exit 1
flags="-D_GNU_SOURCE -Ifilter $(pkg-config --cflags gmime-3.0)"
fails=""
for f in filter/*/*.c; do
	# shellcheck disable=SC2086
	cc -E -P $flags "$f" 2>>"$TRASH/cpp.err" ||
		{ fails="$fails $f"; continue; }
done | grep -o '(\*([a-z]*)\.p_[A-Za-z_0-9]*)' | sort -u >"$TRASH/calls"
is "$fails:$(head -3 "$TRASH/cpp.err")" ":" "every source of filter/ preprocessed"

# each table: its variable and the names its X-macro lists
grep -ho '[A-Z]*_FUNCTIONS(DYNLIB_SYM, [a-z]*)' filter/*/*.c |
	sed 's/(DYNLIB_SYM, / /; s/)$//' >"$TRASH/tables"
: >"$TRASH/unused"
n=0
while read -r macro var; do
	awk -v m="#define $macro(X, lib)" '
		index($0, m) == 1 { on = 1 }
		on { print; if ($0 !~ /\\$/) exit }' filter/*/*.[ch] |
		grep -o 'X(lib, [A-Za-z_0-9]*)' | sed 's/X(lib, //; s/)$//' |
		while read -r name; do
			echo "$var $name"
		done >"$TRASH/names.$var"
	n=$((n + $(wc -l <"$TRASH/names.$var")))
	while read -r _ name; do
		grep -qxF "(*($var).p_$name)" "$TRASH/calls" ||
			echo "$var: $name" >>"$TRASH/unused"
	done <"$TRASH/names.$var"
done <"$TRASH/tables"
check "six tables, $n names (GMime's among them)" eval \
	'[ "$(wc -l <"$TRASH/tables")" = 6 ] && [ -s "$TRASH/names.gmimelib" ]'
is "$(tr '\n' ' ' <"$TRASH/unused")" "" "every name in them is called"
done_testing
