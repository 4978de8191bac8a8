/*
 * tyfile.c - b4 ty's list_tracked() and parse_int_range() in C: the
 * folder's *.am and *.pr files sorted by modification time, each read
 * whole (bounded: TYJSON_MAX_BYTES) and checked for the fields b4 ty
 * uses; a broken one stays in the list, with the reason, and on disk.
 */
#include "git/tyfile.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* more files than any maintainer keeps; past it the folder is refused */
#define TYFILE_MAX_FILES 100000

struct entry {
	struct ty_series *s;
	gint64 mtime_ns;
};

static void
series_free(struct ty_series *s)
{
	g_free(s->name);
	g_free(s->path);
	g_free(s->error);
	g_free(s->patches);
	g_free(s->commits);
	tyjson_free(s->json);
	g_free(s);
}

static const char *
field(struct ty_series *s, const char *key, gboolean *ok)
{
	const char *v = tyjson_str(tyjson_get(s->json, key));

	if (!v && *ok) {
		s->error = g_strdup_printf("no \"%s\" text in it", key);
		*ok = FALSE;
	}
	return v ? v : "";
}

/* "patches": [[title, hash, msgid, "NN/MM"], ...] */
static gboolean
read_patches(struct ty_series *s)
{
	const struct tyjson *ps = tyjson_get(s->json, "patches");
	guint i, j;

	if (!ps || ps->type != TYJSON_ARRAY) {
		s->error = g_strdup("no \"patches\" list in it");
		return FALSE;
	}
	s->npatches = tyjson_len(ps);
	s->patches = g_new0(struct ty_patch, s->npatches + 1);
	for (i = 0; i < s->npatches; i++) {
		const struct tyjson *p = tyjson_at(ps, i);
		const char *v[4] = {NULL};

		for (j = 0; j < 4; j++)
			v[j] = tyjson_str(tyjson_at(p, j));
		if (!v[0] || !v[1] || !v[2]) {
			s->error = g_strdup_printf(
			    "patch %u is not [title, hash, message-id, ...]",
			    i + 1);
			return FALSE;
		}
		s->patches[i] = (struct ty_patch){v[0], v[1], v[2], v[3]};
	}
	return TRUE;
}

/* "commits": [[N, "id" or null], ...], N from 1 to the patch count */
static gboolean
read_commits(struct ty_series *s)
{
	const struct tyjson *cs = tyjson_get(s->json, "commits");
	guint i;

	if (!cs)
		return TRUE;
	s->commits = g_new0(char *, s->npatches + 1);
	for (i = 0; i < tyjson_len(cs); i++) {
		const struct tyjson *n = tyjson_at(tyjson_at(cs, i), 0);
		const struct tyjson *id = tyjson_at(tyjson_at(cs, i), 1);
		guint64 at;

		if (!n || n->type != TYJSON_NUMBER ||
		    !g_ascii_string_to_unsigned(n->str, 10, 1, s->npatches, &at,
						NULL) ||
		    (id && id->type != TYJSON_NULL && !tyjson_str(id))) {
			s->error = g_strdup_printf(
			    "commit %u is not [patch number, commit id]",
			    i + 1);
			return FALSE;
		}
		s->commits[at - 1] = (char *)tyjson_str(id);
	}
	return TRUE;
}

static void
read_one(struct ty_series *s)
{
	g_autofree char *text = NULL;
	GError *e = NULL;
	const struct tyjson *cp;
	gsize len;
	gboolean ok = TRUE;
	struct stat st;

	if (g_stat(s->path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (gsize)st.st_size > TYJSON_MAX_BYTES) {
		s->error = g_strdup_printf(
		    "not a file of at most %" G_GSIZE_FORMAT " bytes",
		    TYJSON_MAX_BYTES);
		return;
	}
	if (!g_file_get_contents(s->path, &text, &len, &e) ||
	    !(s->json = tyjson_parse(text, len, &e))) {
		s->error = g_strdup(e->message);
		g_error_free(e);
		return;
	}
	if (s->json->type != TYJSON_OBJECT) {
		s->error = g_strdup("not a JSON object");
		return;
	}
	s->msgid = field(s, "msgid", &ok);
	s->subject = field(s, "subject", &ok);
	s->fromname = field(s, "fromname", &ok);
	s->fromemail = field(s, "fromemail", &ok);
	s->sentdate = field(s, "sentdate", &ok);
	cp = tyjson_get(s->json, "cherrypick");
	s->cherrypick = cp && cp->type == TYJSON_BOOL && cp->b;
	if (ok && !s->pr && read_patches(s))
		read_commits(s);
}

static gint
by_age(gconstpointer a, gconstpointer b)
{
	const struct entry *x = a, *y = b;

	if (x->mtime_ns != y->mtime_ns)
		return x->mtime_ns < y->mtime_ns ? -1 : 1;
	return strcmp(x->s->name, y->s->name);
}

GPtrArray *
tyfile_list(const char *dir, GError **err)
{
	GPtrArray *out =
	    g_ptr_array_new_with_free_func((GDestroyNotify)series_free);
	GArray *es = g_array_new(FALSE, FALSE, sizeof(struct entry));
	GDir *d = NULL;
	GError *e = NULL;
	const char *name;
	guint i;

	/* no folder yet: nothing was tracked */
	if (g_file_test(dir, G_FILE_TEST_EXISTS) &&
	    !(d = g_dir_open(dir, 0, &e))) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read '%s': %s", dir, e->message);
		g_error_free(e);
		goto fail;
	}
	while (d && (name = g_dir_read_name(d))) {
		struct entry en = {g_new0(struct ty_series, 1), 0};
		struct stat st;

		/* Python's Path.suffix: the last one, never a dot file's */
		if (name[0] == '.' || (!g_str_has_suffix(name, ".am") &&
				       !g_str_has_suffix(name, ".pr"))) {
			g_free(en.s);
			continue;
		}
		en.s->name = g_strdup(name);
		en.s->path = g_build_filename(dir, name, NULL);
		en.s->pr = g_str_has_suffix(name, ".pr");
		if (g_stat(en.s->path, &st) == 0)
			en.mtime_ns = (gint64)st.st_mtim.tv_sec * 1000000000 +
				      st.st_mtim.tv_nsec;
		g_array_append_val(es, en);
		if (es->len > TYFILE_MAX_FILES) {
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "'%s' holds more than %d tracking files",
				    dir, TYFILE_MAX_FILES);
			goto fail;
		}
	}
	g_array_sort(es, by_age);
	for (i = 0; i < es->len; i++) {
		struct ty_series *s = g_array_index(es, struct entry, i).s;

		read_one(s);
		g_ptr_array_add(out, s);
	}
	g_array_free(es, TRUE);
	if (d)
		g_dir_close(d);
	return out;
fail:
	for (i = 0; i < es->len; i++)
		series_free(g_array_index(es, struct entry, i).s);
	g_array_free(es, TRUE);
	if (d)
		g_dir_close(d);
	g_ptr_array_unref(out);
	return NULL;
}

gboolean
tyfile_retire(const struct ty_series *s, const char *suffix, GError **err)
{
	guint n;

	/* link() refuses to replace a name; then the old one goes */
	for (n = 1; n < 1000; n++) {
		g_autofree char *to =
		    n == 1 ? g_strdup_printf("%s.%s", s->path, suffix)
			   : g_strdup_printf("%s.%u.%s", s->path, n, suffix);

		if (link(s->path, to) == 0) {
			if (g_unlink(s->path) != 0) {
				int e = errno;

				g_unlink(to);
				errno = e;
				break;
			}
			return TRUE;
		}
		if (errno != EEXIST)
			break;
	}
	g_set_error(err, LORE_ERROR, LORE_EIO, "cannot move '%s' to %s: %s",
		    s->path, suffix, g_strerror(errno));
	return FALSE;
}

static gboolean
number(const char *s, guint64 *n)
{
	return *s && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT, n, NULL);
}

/* one part of a spec: N, <N, A-B or A- */
static gboolean
pick_part(const char *p, guint count, GArray *out)
{
	g_auto(GStrv) ab = NULL;
	guint64 a, b, i;

	if (number(p, &a)) {
		b = a;
	} else if (p[0] == '<' && number(p + 1, &b)) {
		a = 1;
		if (b-- == 0)
			return FALSE;
	} else {
		ab = g_strsplit(p, "-", 2);
		if (!ab[0] || !ab[1] || !number(ab[0], &a))
			return FALSE;
		b = *ab[1] ? 0 : count;
		if (*ab[1] && !number(ab[1], &b))
			return FALSE;
	}
	if (a == 0 || b > count)
		return FALSE;
	for (i = a; i <= b; i++) {
		guint v = (guint)i;

		g_array_append_val(out, v);
	}
	return TRUE;
}

GArray *
tyfile_pick(const char *spec, guint count, GError **err)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(guint));
	GString *clean = g_string_new(NULL);
	g_auto(GStrv) parts = NULL;
	const char *p;
	guint i;

	for (p = spec; *p; p++)
		if (!g_ascii_isspace(*p))
			g_string_append_c(clean, *p);
	if (!strcmp(clean->str, "all")) {
		for (i = 1; i <= count; i++)
			g_array_append_val(out, i);
		g_string_free(clean, TRUE);
		return out;
	}
	parts = g_strsplit(clean->str, ",", -1);
	for (i = 0; !i || parts[i]; i++) {
		if (!parts[i] || !pick_part(parts[i], count, out)) {
			g_autofree char *s =
			    lore_term_safe(parts[i] ? parts[i] : "", -1);

			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "'%s' is no number from 1 to %u, nor a "
				    "range of them (1,3-5,7- or all)",
				    s, count);
			g_array_free(out, TRUE);
			out = NULL;
			break;
		}
	}
	g_string_free(clean, TRUE);
	return out;
}
