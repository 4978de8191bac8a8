/*
 * nmlib.c - loading libnotmuch on first use (GModule, the portable
 * dlopen): the library of the major version notmuch.h was built against,
 * each function nm.c needs looked up once.
 */
#ifndef LORE_NO_NOTMUCH

#define NMLIB_NO_REDIRECT
#include "source/nmlib.h"
#include "source/nm.h"
#include "core/util.h"

struct nmlib nmlib;

#define NMLIB_SYM(f) {#f, (gpointer *)&nmlib.f},
static const struct lore_sym syms[] = {NMLIB_FUNCTIONS(NMLIB_SYM)};
#undef NMLIB_SYM

static struct lore_lib lib = {
    .soname = "libnotmuch.so." G_STRINGIFY(LIBNOTMUCH_MAJOR_VERSION),
    .syms = syms,
    .n = G_N_ELEMENTS(syms),
};

gboolean
nmlib_load(GError **err)
{
	if (lore_lib_need(&lib))
		return TRUE;
	g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
		    "cannot load the notmuch library: %s", lib.failed);
	return FALSE;
}

#endif
