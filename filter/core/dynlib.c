/*
 * dynlib.c - loading an optional library with dlopen: lazy binding, so
 * that a function is resolved when first called, and local, so that its
 * symbols stay its own and those of the libraries it brings; then each
 * function of its table looked up once. (GModule, used before, has no
 * way to ask for RTLD_DEEPBIND, and added nothing else on glibc.)
 */
#include "core/dynlib.h"

#include <dlfcn.h>

#define DYNLIB_LOADED 1
#define DYNLIB_FAILED 2

/* A sanitizer's runtime refuses RTLD_DEEPBIND (it would bypass its
 * malloc): such a build binds every library the same way. */
#if defined(__SANITIZE_ADDRESS__)
#define DYNLIB_NO_DEEPBIND 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DYNLIB_NO_DEEPBIND 1
#endif
#endif

G_DEFINE_QUARK(lore - am - dynlib - error - quark, dynlib_error)

static int
open_flags(const struct dynlib *l)
{
	int flags = RTLD_LAZY | RTLD_LOCAL;

#if defined(RTLD_DEEPBIND) && !defined(DYNLIB_NO_DEEPBIND)
	if (l->own_first)
		flags |= RTLD_DEEPBIND;
#else
	(void)l;
#endif
	return flags;
}

static gsize
load(struct dynlib *l)
{
	void *h;
	guint i;

	h = dlopen(l->soname, open_flags(l));
	if (!h) {
		l->why =
		    g_strdup_printf("cannot load %s: %s", l->soname, dlerror());
		return DYNLIB_FAILED;
	}
	for (i = 0; i < l->n; i++)
		if (!(*l->syms[i].slot = dlsym(h, l->syms[i].name)))
			break;
	if (i == l->n)
		return DYNLIB_LOADED;
	/* a library without one of them is another library: none is kept */
	{
		const char *e = dlerror();

		l->why = g_strdup_printf("cannot load %s: %s", l->soname,
					 e ? e : l->syms[i].name);
	}
	while (i--)
		*l->syms[i].slot = NULL;
	dlclose(h);
	return DYNLIB_FAILED;
}

gboolean
dynlib_load(struct dynlib *l, GError **err)
{
	if (g_once_init_enter(&l->state))
		g_once_init_leave(&l->state, load(l));
	if (l->state == DYNLIB_LOADED)
		return TRUE;
	g_set_error_literal(err, DYNLIB_ERROR, DYNLIB_ERROR_MISSING, l->why);
	return FALSE;
}
