/*
 * amflags.c - shazam-am-flags checked word by word against the git am
 * flags a trial run can take (see amflags.h). A list of what is allowed,
 * not of what is refused: a flag a later git adds, or a prefix git would
 * expand, is refused until it is known to be harmless here.
 */
#include "git/amflags.h"
#include "core/util.h"

#include <string.h>

/* the words taken as they are */
static const char *const plain[] = {
    "-s",
    "--signoff",
    "--no-signoff",
    "-k",
    "--keep",
    "--no-keep",
    "--keep-non-patch",
    "--keep-cr",
    "--no-keep-cr",
    "-c",
    "--scissors",
    "--no-scissors",
    "-m",
    "--message-id",
    "--no-message-id",
    "-q",
    "--quiet",
    "-u",
    "--utf8",
    "--no-utf8",
    "-3",
    "--3way",
    "--no-3way",
    "--ignore-space-change",
    "--ignore-whitespace",
    "--committer-date-is-author-date",
    "--ignore-date",
    "-S",
    "--gpg-sign",
    "--no-gpg-sign",
    "--rerere-autoupdate",
    "--no-rerere-autoupdate",
    "--no-verify",
};

/* the flags whose value follows "=" in the same word */
static const char *const with_value[] = {
    "--whitespace=",   "--quoted-cr=", "--empty=",
    "--patch-format=", "--gpg-sign=",
};

static gboolean
digits(const char *s)
{
	if (!*s)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_isdigit(*s))
			return FALSE;
	return TRUE;
}

static gboolean
allowed(const char *w)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(plain); i++)
		if (!strcmp(w, plain[i]))
			return TRUE;
	for (i = 0; i < G_N_ELEMENTS(with_value); i++)
		if (g_str_has_prefix(w, with_value[i]) &&
		    w[strlen(with_value[i])])
			return TRUE;
	/* -C<n> (context lines), -S<keyid> (a key to sign with) */
	if (g_str_has_prefix(w, "-C") && digits(w + 2))
		return TRUE;
	return g_str_has_prefix(w, "-S") && w[2] && w[2] != '-';
}

char **
amflags_parse(const char *text, GError **err)
{
	char **argv = NULL;
	GError *e = NULL;
	guint i;

	if (!text || strspn(text, " \t\n") == strlen(text))
		return g_new0(char *, 1);
	if (!g_shell_parse_argv(text, NULL, &argv, &e)) {
		g_autofree char *why = lore_term_safe(e->message, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "shazam-am-flags cannot be read: %s", why);
		g_error_free(e);
		return NULL;
	}
	for (i = 0; argv[i]; i++) {
		if (allowed(argv[i]))
			continue;
		{
			g_autofree char *w = lore_term_safe(argv[i], -1);

			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "shazam-am-flags: '%s' is not a git am "
				    "flag --apply can give (see lore-am(1))",
				    w);
		}
		g_strfreev(argv);
		return NULL;
	}
	return argv;
}
