/*
 * dynlib.c - loading an optional library with GModule (the portable
 * dlopen): lazy binding, so that a function is resolved when first
 * called, and local, so that its symbols stay its own and those of the
 * libraries it brings; then each function of its table looked up once.
 */
#include "core/dynlib.h"

#include <gmodule.h>

#define DYNLIB_LOADED 1
#define DYNLIB_FAILED 2

G_DEFINE_QUARK(lore - am - dynlib - error - quark, dynlib_error)

static gsize
load(struct dynlib *l)
{
	GModule *m;
	guint i;

	m = g_module_open(l->soname, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
	if (!m)
		goto fail;
	for (i = 0; i < l->n; i++)
		if (!g_module_symbol(m, l->syms[i].name, l->syms[i].slot))
			break;
	if (i == l->n)
		return DYNLIB_LOADED;
	/* a library without one of them is another library: none is kept */
	while (i--)
		*l->syms[i].slot = NULL;
fail:
	l->why =
	    g_strdup_printf("cannot load %s: %s", l->soname, g_module_error());
	if (m)
		g_module_close(m);
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
