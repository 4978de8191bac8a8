/*
 * rdopts.c - rangediff_opts() (rangediff.h): --range-diff-opts read as
 * a shell splits it, each option checked against those of git range-diff
 * that only change what is shown.
 */
#include "git/rangediff.h"
#include "core/util.h"

#include <string.h>

/* What --range-diff-opts may pass: options that change what is shown. */
static const char *const shown_flags[] = {
    "--no-dual-color",
    "--left-only",
    "--right-only",
    "--no-notes",
    "--stat",
    "--no-stat",
    "--word-diff",
    "--no-color",
    "--color",
    "--minimal",
    "--patience",
    "--histogram",
    "--ignore-space-change",
    "--ignore-all-space",
    "--ignore-blank-lines",
    "--ignore-space-at-eol",
    "--ignore-cr-at-eol",
    "-w",
    "-b",
    "--no-abbrev",
    "--full-index",
    "--indent-heuristic",
    "--no-indent-heuristic",
    "--color-moved",
    "--no-color-moved",
    "--function-context",
    "-W",
};
/* ... and those with a value (after '='), a plain word */
static const char *const shown_valued[] = {
    "--creation-factor",
    "--word-diff",
    "--color",
    "--color-moved",
    "--color-moved-ws",
    "--diff-algorithm",
    "--abbrev",
    "--unified",
    "--stat",
    "--inter-hunk-context",
};

#define RANGEDIFF_MAX_OPTS 16

static gboolean
plain_word(const char *v)
{
	return *v && strlen(v) <= 64 &&
	       strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789,_-") == strlen(v);
}

static gboolean
shown_only(const char *a)
{
	const char *eq = strchr(a, '=');
	guint i;

	for (i = 0; !eq && i < G_N_ELEMENTS(shown_flags); i++)
		if (!strcmp(a, shown_flags[i]))
			return TRUE;
	for (i = 0; eq && i < G_N_ELEMENTS(shown_valued); i++)
		if (strlen(shown_valued[i]) == (gsize)(eq - a) &&
		    !strncmp(a, shown_valued[i], eq - a))
			return plain_word(eq + 1);
	/* -U<n>: the lines of context */
	return a[0] == '-' && a[1] == 'U' && a[2] && strlen(a) <= 6 &&
	       strspn(a + 2, "0123456789") == strlen(a + 2);
}

char **
rangediff_opts(const char *text, GError **err)
{
	char **argv = NULL;
	GError *e = NULL;
	int argc = 0, i;

	if (!text)
		return NULL;
	if (!*text)
		return g_new0(char *, 1);
	if (!g_shell_parse_argv(text, &argc, &argv, &e)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "--range-diff-opts: %s", e->message);
		g_error_free(e);
		return NULL;
	}
	if (argc > RANGEDIFF_MAX_OPTS) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "--range-diff-opts: %d options are more than %d",
			    argc, RANGEDIFF_MAX_OPTS);
		g_strfreev(argv);
		return NULL;
	}
	for (i = 0; i < argc; i++) {
		if (!shown_only(argv[i])) {
			g_autofree char *s = lore_term_safe(argv[i], -1);

			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "--range-diff-opts: '%s' is not an option "
				    "of what git range-diff shows",
				    s);
			g_strfreev(argv);
			return NULL;
		}
	}
	return argv;
}
