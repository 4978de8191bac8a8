/*
 * maintainers.c - the F: patterns a MAINTAINERS file gives to one
 * address, and files matched against them, as get_maintainer.pl does.
 */
#include "queue/maintainers.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* an M: line names @email: "Name <addr>" or the bare address */
static gboolean
names(const char *value, size_t len, const char *email)
{
	g_autofree char *v = g_ascii_strdown(value, (gssize)len);
	g_autofree char *e = g_ascii_strdown(email, -1);
	const char *p = strstr(v, e);
	size_t n = strlen(e);

	if (!n || !p)
		return FALSE;
	/* a whole address, not a part of a longer one */
	return (p == v || strchr("< \t", p[-1])) &&
	       (p[n] == '\0' || strchr("> \t", p[n]));
}

/* the value of an "X:" line of a section, its leading blanks skipped */
static gboolean
field(const char *l, size_t ll, char tag, const char **v, size_t *vl)
{
	if (ll < 2 || l[0] != tag || l[1] != ':')
		return FALSE;
	*v = l + 2;
	*vl = ll - 2;
	while (*vl && (**v == ' ' || **v == '\t')) {
		(*v)++;
		(*vl)--;
	}
	while (*vl && g_ascii_isspace((*v)[*vl - 1]))
		(*vl)--;
	return TRUE;
}

struct maintainers *
maintainers_parse(const char *text, gsize len, const char *email)
{
	struct maintainers *m = g_new0(struct maintainers, 1);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	gboolean mine = FALSE;
	size_t pos = 0, ll, vl;
	const char *l, *v;

	m->patterns = g_ptr_array_new_with_free_func(g_free);
	for (;;) {
		gboolean more = lore_next_line(text, len, &pos, &l, &ll);

		if (more && ll && l[ll - 1] == '\r')
			ll--;
		if (!more || !ll) {
			/* a section ends: its files are mine or not */
			while (files->len) {
				char *f = g_ptr_array_steal_index(files, 0);

				if (mine)
					g_ptr_array_add(m->patterns, f);
				else
					g_free(f);
			}
			mine = FALSE;
			if (!more)
				break;
			continue;
		}
		if (field(l, ll, 'M', &v, &vl) && names(v, vl, email))
			mine = TRUE;
		else if (field(l, ll, 'F', &v, &vl) && vl)
			g_ptr_array_add(files, g_strndup(v, vl));
	}
	return m;
}

struct maintainers *
maintainers_read(const char *path, const char *email, GError **err)
{
	g_autofree char *text = NULL;
	GStatBuf sb;
	gsize len;

	if (g_stat(path, &sb) < 0) {
		int e = errno;

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read '%s': %s", path, g_strerror(e));
		return NULL;
	}
	if ((guint64)sb.st_size > MAINTAINERS_MAX) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is larger than %zu MiB: not read", path,
			    MAINTAINERS_MAX >> 20);
		return NULL;
	}
	if (!g_file_get_contents(path, &text, &len, err))
		return NULL;
	return maintainers_parse(text, len, email);
}

void
maintainers_free(struct maintainers *m)
{
	if (!m)
		return;
	g_ptr_array_free(m->patterns, TRUE);
	g_free(m);
}

static gboolean
match_one(const char *pat, const char *file)
{
	size_t n = strlen(pat);

	if (strpbrk(pat, "*?")) {
		/* a glob takes the files of its own folder, not deeper */
		const char *slash = strrchr(file, '/');
		const char *pslash = strrchr(pat, '/');
		size_t depth_f = 0, depth_p = 0;
		const char *c;

		for (c = file; slash && *c; c++)
			depth_f += *c == '/';
		for (c = pat; pslash && *c; c++)
			depth_p += *c == '/';
		/* GLib's globs abort on bytes that are not UTF-8 */
		return depth_f == depth_p && g_utf8_validate(pat, -1, NULL) &&
		       g_utf8_validate(file, -1, NULL) &&
		       g_pattern_match_simple(pat, file);
	}
	if (n && pat[n - 1] == '/')
		return !strncmp(pat, file, n);
	return !strcmp(pat, file) || (!strncmp(pat, file, n) && file[n] == '/');
}

gboolean
maintainers_match(const struct maintainers *m, const char *file)
{
	guint i;

	for (i = 0; i < m->patterns->len; i++)
		if (match_one(m->patterns->pdata[i], file))
			return TRUE;
	return FALSE;
}
