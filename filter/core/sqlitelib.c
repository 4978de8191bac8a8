/*
 * sqlitelib.c - SQLite's one set-up a run (see sqlitelib.h).
 */
#include "core/sqlitelib.h"

#include <glib.h>

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
