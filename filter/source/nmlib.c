/*
 * nmlib.c - libnotmuch's table for core/dynlib.c: the soname of the major
 * version notmuch.h describes, and the functions nmlib.h lists; whether
 * notmuch is set up at all, before it is loaded.
 */
#ifndef LORE_NO_NOTMUCH

#include "source/nmlib.h"

struct nmlib nmlib;

static const struct dynlib_sym syms[] = {NMLIB_FUNCTIONS(DYNLIB_SYM, nmlib)};

struct nmlib nmlib = {
    .dl = DYNLIB_INIT("libnotmuch.so." G_STRINGIFY(LIBNOTMUCH_MAJOR_VERSION),
		      syms)};

gboolean
nmlib_configured(void)
{
	const char *home = g_getenv("HOME");
	const char *xdg = g_getenv("XDG_CONFIG_HOME");
	const char *profile = g_getenv("NOTMUCH_PROFILE");
	g_autofree char *xdg_file = NULL, *dot_file = NULL;

	/* no $HOME: libnotmuch's own answer, whatever it is */
	if (g_getenv("NOTMUCH_CONFIG") || !home)
		return TRUE;
	xdg_file = g_strdup_printf("%s%s/notmuch/%s/config", xdg ? xdg : home,
				   xdg ? "" : "/.config",
				   profile ? profile : "default");
	dot_file = g_strdup_printf("%s/.notmuch-config%s%s", home,
				   profile ? "." : "", profile ? profile : "");
	return g_file_test(xdg_file, G_FILE_TEST_EXISTS) ||
	       g_file_test(dot_file, G_FILE_TEST_EXISTS);
}

#endif
