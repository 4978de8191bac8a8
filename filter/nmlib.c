/*
 * nmlib.c - loading libnotmuch on first use (GModule, the portable
 * dlopen): the library of the major version notmuch.h was built against,
 * each function nm.c needs looked up once.
 */
#ifndef LORE_NO_NOTMUCH

#define NMLIB_NO_REDIRECT
#include "nmlib.h"
#include "nm.h"

#include <gmodule.h>

struct nmlib nmlib;

gboolean
nmlib_load(GError **err)
{
	static const char name[] =
	    "libnotmuch.so." G_STRINGIFY(LIBNOTMUCH_MAJOR_VERSION);
	static GModule *mod;
	static char *failed; /* why the first attempt failed */

	if (mod)
		return TRUE;
	if (!failed) {
		GModule *m = g_module_open(name, G_MODULE_BIND_LAZY |
						     G_MODULE_BIND_LOCAL);

		if (!m)
			failed = g_strdup(g_module_error());
#define NMLIB_RESOLVE(f)                                                       \
	if (m && !failed && !g_module_symbol(m, #f, (gpointer *)&nmlib.f))     \
		failed = g_strdup_printf("%s has no %s", name, #f);
		NMLIB_FUNCTIONS(NMLIB_RESOLVE)
#undef NMLIB_RESOLVE
		if (!failed)
			mod = m;
		else if (m)
			g_module_close(m);
	}
	if (mod)
		return TRUE;
	g_set_error(err, NM_ERROR, NM_ERROR_UNAVAILABLE,
		    "cannot load the notmuch library: %s", failed);
	return FALSE;
}

#endif
