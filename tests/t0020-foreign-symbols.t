#!/bin/bash
# t0020-foreign-symbols.t - the optional libraries (libcurl, libsqlite3,
# libnotmuch, libopendkim, libsodium, GPGME) and GMime are loaded by
# core/dynlib.c and called through their symbol tables: the binary defines no function under
# one of their names, and exports nothing from its dynamic symbol table
# for a library loaded later to bind to (no -Wl,--export-dynamic).
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null || skip_all "nm not installed"
plan 4

# the names of the seven libraries' functions
FOREIGN='^(curl_|sqlite3_|notmuch_|dkim_|gpgme_|sodium_|crypto_sign|g_mime_|internet_address_)'

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
	grep -E "$FOREIGN" | tr '\n' ' ')" "1:" \
	"no function of lore-am's has a library function's name"

done_testing
