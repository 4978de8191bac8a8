/*
 * rdfake.c - a revision's base made of the blobs its patches start from
 * (see rdfake.h): the ids asked of `git cat-file --batch-check` in one
 * process ("ID TYPE SIZE", "NAME missing" or "NAME ambiguous" a line, in
 * the order asked), the missing ones rebuilt from the hunks where they
 * hold the whole file, then update-index, write-tree and commit-tree
 * (smalltree_index_commit()).
 */
#include "git/rdfake.h"
#include "git/preimage.h"
#include "git/prep3way.h"
#include "git/smalltree.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <stdarg.h>
#include <string.h>

static int refused(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static int
refused(GError **err, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *text = NULL;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(err, LORE_ERROR, LORE_ENOTFOUND, text);
	return RDFAKE_REFUSED;
}

/* a full object id as git writes one that starts with @pre */
static gboolean
full_id(const char *s, gsize n, const char *pre)
{
	return (n == 40 || n == 64) && strspn(s, "0123456789abcdef") >= n &&
	       !strncmp(s, pre, strlen(pre));
}

/* One answer of cat-file for @f: its index entry added to @info. */
static int
one_blob(const char *wt, const struct preimage *f, const char *line,
	 GString *info, GError **err)
{
	g_autofree char *path = lore_term_safe(f->path, -1);
	const char *sp = strchr(line, ' ');
	g_autofree char *id = NULL;

	if (sp && !strcmp(sp, " missing")) {
		if (!f->old || !(id = prep3way_write_blob(wt, f->old, f->pre)))
			return refused(err,
				       "the blob %s that '%s' starts from is "
				       "not in this repository (nor whole in "
				       "the patch)",
				       f->pre, path);
	} else if (sp && !strcmp(sp, " ambiguous")) {
		return refused(err,
			       "the index line of '%s' names %s, which is "
			       "more than one object here",
			       path, f->pre);
	} else if (!sp || !full_id(line, sp - line, f->pre)) {
		g_autofree char *l = lore_term_safe(line, -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "git cat-file said '%s' of %s", l, f->pre);
		return LORE_ENOTFOUND;
	} else if (strncmp(sp, " blob ", 6)) {
		const char *t = sp + 1, *end = strchr(t, ' ');
		g_autofree char *type =
		    lore_term_safe(t, end ? end - t : (gssize)strlen(t));

		return refused(err,
			       "the index line of '%s' names %s, a %s here, "
			       "not a file's blob",
			       path, f->pre, type);
	} else {
		id = g_strndup(line, sp - line);
	}
	g_string_append_printf(info, "%s %s\t%s", f->mode, id, f->path);
	g_string_append_c(info, '\0');
	return LORE_OK;
}

/* Every pre-image of @set found (or rebuilt) and put in @info. */
static int
blobs(const char *wt, const struct preimage_set *set, GString *info,
      GError **err)
{
	const char *const argv[] = {"cat-file", "--batch-check", NULL};
	GString *in = g_string_new(NULL), *out = g_string_new(NULL);
	GString *e = g_string_new(NULL);
	const char *l;
	size_t pos = 0, n;
	guint i = 0;
	int rc = LORE_OK;

	for (i = 0; i < set->files->len; i++) {
		const struct preimage *f = set->files->pdata[i];

		g_string_append_printf(in, "%s\n", f->pre);
	}
	if (set->files->len &&
	    gitrun(wt, argv, in->str, in->len, out, e, err) != 0) {
		g_autofree char *why = gitrun_reason(e);

		g_clear_error(err);
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "git cat-file failed: %s", why);
		rc = LORE_ENOTFOUND;
		goto out;
	}
	for (i = 0; rc == LORE_OK && i < set->files->len &&
		    lore_next_line(out->str, out->len, &pos, &l, &n);
	     i++) {
		g_autofree char *line = g_strndup(l, n);

		rc = one_blob(wt, set->files->pdata[i], line, info, err);
	}
	if (rc == LORE_OK && i < set->files->len) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "git cat-file answered %u of %u lines", i,
			    set->files->len);
		rc = LORE_ENOTFOUND;
	}
out:
	g_string_free(in, TRUE);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

int
rdfake_commit(const char *wt, const GString *mbox, char **start, GError **err)
{
	struct preimage_set set;
	GString *info = g_string_new(NULL);
	int rc;

	*start = NULL;
	if (!preimage_read(mbox, &set))
		rc = refused(err, "%s", set.refused ? set.refused : "?");
	else if (!set.indexed)
		rc = RDFAKE_NONE;
	else if ((rc = blobs(wt, &set, info, err)) == LORE_OK)
		rc = smalltree_index_commit(wt, info, start, err);
	preimage_clear(&set);
	g_string_free(info, TRUE);
	return rc;
}
