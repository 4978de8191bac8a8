/*
 * sqlitelib.h - SQLite, linked into the binary from its static library
 * (Makefile), and started once a run with the settings every connection
 * shares. Only an indexed -m mailbox (source/mdindex) and the queue's
 * state (queue/) use it; they include this instead of <sqlite3.h> and
 * call sqlitelib_start() before their first sqlite3_open_v2().
 *
 * Why linked statically, not loaded on first use as the other optional
 * libraries are (core/dynlib.h): Debian's libsqlite3.so is built with
 * BIND_NOW and without -Bsymbolic, so loading it bound all of its 1 238
 * PLT slots and 320 symbol relocations at once, even bound its own
 * functions first: 0.94 M instructions, most of what the queue cost a
 * mail beyond the run without it (bench/RESULTS.md); linked as a shared
 * library it cost every run 1.46 M before main(). Linked statically its
 * relocations are relative ones, cheap, and 41 against libc's functions
 * (its table of system calls): 0.08 M in every run, also in one that
 * opens no database. The price: a fix to SQLite reaches lore-am when
 * lore-am is built again (doc/SECURITY.md).
 *
 * Ownership: SQLite's global state is the library's; this module only
 * sets it up, once.
 */
#ifndef LORE_SQLITELIB_H
#define LORE_SQLITELIB_H

#include <sqlite3.h>

/*
 * Set SQLite up for this run, the first time it is asked (thread-safe);
 * later calls give the first answer: SQLITE_OK, or the result code of
 * sqlite3_initialize(), which the caller reports in its own words.
 */
int sqlitelib_start(void);

#endif
