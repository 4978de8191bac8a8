/*
 * sqlitelib.c - libsqlite3's table for core/dynlib.c: its soname and the
 * functions sqlitelib.h lists.
 */
#include "core/sqlitelib.h"

struct sqlitelib sqlitelib;

static const struct dynlib_sym syms[] = {
    SQLITELIB_FUNCTIONS(DYNLIB_SYM, sqlitelib)};

/* libsqlite3's soname has been libsqlite3.so.0 since SQLite 3.0. It
 * binds its own functions first (dynlib.h): loading it cost 2.5 M
 * instructions, most of them spent looking for them in other libraries */
struct sqlitelib sqlitelib = {
    .dl = DYNLIB_INIT_OWN_FIRST("libsqlite3.so.0", syms)};
