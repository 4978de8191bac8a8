/*
 * gmimelib.c - GMime's table for core/dynlib.c: its soname and the
 * functions gmimelib.h lists; and GMime's one start (gmimelib_need()).
 */
#include "mail/gmimelib.h"

struct gmimelib gmimelib;

static const struct dynlib_sym syms[] = {
    GMIMELIB_FUNCTIONS(DYNLIB_SYM, gmimelib)};

/* GMime 3's soname, libgmime-3.0.so.0, is the one pkg-config's
 * gmime-3.0 links. Its own functions bound first (dynlib.h): 0.7 M
 * instructions less to load it; GObject and GLib are still the
 * program's, the one copy of each that is loaded, so GMime's types are
 * the program's types. */
struct gmimelib gmimelib = {
    .dl = DYNLIB_INIT_OWN_FIRST("libgmime-3.0.so.0", syms)};

void (*gmimelib_missing)(const char *why);

/* 0 not started, then 1 started (g_once) */
static gsize started;

void
gmimelib_need(void)
{
	GError *err = NULL;

	if (!g_once_init_enter(&started))
		return;
	if (!dynlib_load(&gmimelib.dl, &err)) {
		if (gmimelib_missing)
			gmimelib_missing(err->message);
		g_error("%s", err->message);
	}
	DYNLIB_CALL(gmimelib, g_mime_init)();
	g_once_init_leave(&started, 1);
}

gboolean
gmimelib_loaded(void)
{
	return g_atomic_pointer_get(&started) != 0;
}

void
gmimelib_shutdown(void)
{
	if (gmimelib_loaded())
		DYNLIB_CALL(gmimelib, g_mime_shutdown)();
}
