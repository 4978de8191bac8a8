#!/bin/bash
# t0020-foreign-symbols.t - the optional libraries (libcurl, libnotmuch,
# libopendkim, libsodium, GPGME) and GMime are loaded by core/dynlib.c and
# called through their symbol tables: the binary defines no function under
# one of their names, and exports nothing from its dynamic symbol table
# for a library loaded later to bind to (no -Wl,--export-dynamic). SQLite
# is linked in from libsqlite3.a (core/sqlitelib.h): its functions in the
# binary are all SQLite's own, none exported.
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null || skip_all "nm not installed"
plan 5

# the names of the seven libraries' functions
FOREIGN='^(curl_|sqlite3_|notmuch_|dkim_|gpgme_|sodium_|crypto_sign|g_mime_|internet_address_)'
# those of the six loaded ones
LOADED='^(curl_|notmuch_|dkim_|gpgme_|sodium_|crypto_sign|g_mime_|internet_address_)'

nm -D --defined-only "$LORE_AM_REAL" >"$TRASH/dyn" 2>"$TRASH/dyn.err"
is "$?:$(cat "$TRASH/dyn.err")" 0: "nm reads the dynamic symbol table"
is "$(awk '{ print $NF }' "$TRASH/dyn" | grep -E "$FOREIGN" | tr '\n' ' ')" "" \
	"no library function's name is exported"
is "$(awk '$2 == "T" { print $NF }' "$TRASH/dyn" |
	grep -E '^(lore_|main$|series_|thread_|gather_)' | tr '\n' ' ')" "" \
	"nor any of lore-am's own functions"

# the static symbol table: no wrapper under a library's own name, which
# that library's calls to itself could bind to
nm --defined-only "$LORE_AM_REAL" >"$TRASH/all" 2>&1
is "$(grep -c ' T lore_err$' "$TRASH/all"):$(awk '$2 ~ /^[TtWw]$/ { print $NF }' "$TRASH/all" |
	grep -E "$LOADED" | tr '\n' ' ')" "1:" \
	"no function of lore-am's has a loaded library's function's name"

# every sqlite3_ function of the binary is one libsqlite3.a defines
SQLITE_A=$(pkg-config --variable=libdir sqlite3)/libsqlite3.a
nm --defined-only "$SQLITE_A" 2>/dev/null | awk '$2 ~ /^[TtWw]$/ { print $NF }' |
	sort -u >"$TRASH/sqlite"
awk '$2 ~ /^[TtWw]$/ && $NF ~ /^sqlite3_/ { print $NF }' "$TRASH/all" | sort -u \
	>"$TRASH/ours"
is "$(wc -l <"$TRASH/ours" | awk '{ print ($1 > 100) }'):$(comm -23 "$TRASH/ours" "$TRASH/sqlite" | tr '\n' ' ')" \
	"1:" "the binary's sqlite3_ functions are all SQLite's own"

done_testing
