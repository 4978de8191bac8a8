/*
 * sqlitelib.c - SQLite's one set-up a run (see sqlitelib.h).
 */
#include "core/sqlitelib.h"

#include <glib.h>

/*
 * No lookaside (SQLite's own pool for its small allocations: a
 * statement's parse, a result column's text) when built with
 * AddressSanitizer, or with -DLORE_SQLITE_NO_LOOKASIDE (make CFLAGS='-O2
 * -g -DLORE_SQLITE_NO_LOOKASIDE' valgrind-check): each is then malloc's,
 * and a read after the step, reset or finalize that freed it is one the
 * tools see. Debian's SQLite is built without one (SQLITE_OMIT_LOOKASIDE:
 * the setting changes nothing there); other builds have one.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(LORE_SQLITE_NO_LOOKASIDE)
#define SQLITELIB_LOOKASIDE_OFF 1
#else
#define SQLITELIB_LOOKASIDE_OFF 0
#endif

static int
start(void)
{
	/* SQLite's count of the memory it holds, kept by default, takes a
	 * global lock and updates its figures on every allocation: 0.20 M
	 * of a mail's 2.46 M instructions in the queue (schema read,
	 * statements prepared). lore-am never asks for the count. It can be
	 * changed only before the library starts, so here, for the index's
	 * connections as for the queue's. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (SQLITELIB_LOOKASIDE_OFF)
		sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0);
	return sqlite3_initialize();
}

int
sqlitelib_start(void)
{
	static gsize once;
	static int rc;

	if (g_once_init_enter(&once)) {
		rc = start();
		g_once_init_leave(&once, 1);
	}
	return rc;
}
