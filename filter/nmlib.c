/*
 * nmlib.c - loading libnotmuch on first use (GModule, the portable
 * dlopen): the library of the major version notmuch.h was built against,
 * each function nm.c needs looked up once.
 */
#ifndef LORE_NO_NOTMUCH

#define NMLIB_NO_REDIRECT
#include "nmlib.h"
#include "nm.h"
#include "util.h"

struct nmlib nmlib;

gboolean
nmlib_load(GError **err)
{
	static const char name[] =
	    "libnotmuch.so." G_STRINGIFY(LIBNOTMUCH_MAJOR_VERSION);
#define NMLIB_SYM(f) { #f, (gpointer *)&nmlib.f },
	static const struct lore_sym syms[] = { NMLIB_FUNCTIONS(NMLIB_SYM) };
#undef NMLIB_SYM
	static gboolean loaded;
	static char *failed; /* why the first attempt failed */

	if (!loaded && !failed) {
		const char *missing;

		loaded = lore_lib_load(name, syms, G_N_ELEMENTS(syms), &failed,
				       &missing);
		if (!loaded && !failed)
			failed = g_strdup_printf("%s has no %s", name, missing);
	}
	if (loaded)
		return TRUE;
	g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
		    "cannot load the notmuch library: %s", failed);
	return FALSE;
}

#endif
