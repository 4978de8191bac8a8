/*
 * sources.c - combining thread sources: ask the local ones in order, stop
 * asking fallbacks once the series is there, and go to the archive only
 * for what is missing. Merging is the thread's first-copy-wins dedup by
 * Message-ID, so asking local sources first is what prefers local copies.
 */
#include "sources.h"
#include "nm.h"
#include "series.h"
#include "util.h"

#include <string.h>

gboolean
sources_parse_mode(const char *name, enum sources_mode *out)
{
	static const char *const names[] = {"auto", "notmuch", "lore", "mbox"};
	guint i;

	for (i = 0; name && i < G_N_ELEMENTS(names); i++) {
		if (!g_ascii_strcasecmp(name, names[i])) {
			*out = (enum sources_mode)i;
			return TRUE;
		}
	}
	return FALSE;
}

struct sources *
sources_new(void)
{
	struct sources *s = g_new0(struct sources, 1);

	s->local = g_ptr_array_new_with_free_func((GDestroyNotify)source_free);
	s->roles = g_array_new(FALSE, FALSE, sizeof(enum sources_role));
	s->notes = g_ptr_array_new_with_free_func(g_free);
	s->asked = g_ptr_array_new();
	return s;
}

void
sources_free(struct sources *s)
{
	if (!s)
		return;
	g_ptr_array_free(s->local, TRUE);
	g_array_free(s->roles, TRUE);
	source_free(s->archive);
	g_ptr_array_free(s->notes, TRUE);
	g_ptr_array_free(s->asked, TRUE);
	g_free(s);
}

void
sources_add_local(struct sources *s, struct source *src, enum sources_role role)
{
	g_ptr_array_add(s->local, src);
	g_array_append_val(s->roles, role);
}

void
sources_set_archive(struct sources *s, struct source *archive)
{
	source_free(s->archive);
	s->archive = archive;
}

gboolean
sources_have_series(struct thread *t, const char *msgid, int use_version,
		    gboolean no_parent)
{
	struct series_set *set;
	gboolean ok;

	if (!msgid || !thread_get(t, msgid))
		return FALSE;
	thread_prune(t, msgid, no_parent);
	set = series_outline(t);
	ok = series_complete(set, use_version);
	series_set_free(set);
	return ok;
}

/* sources_have_series() for the one target of a gather: the thread only
 * grows (and pruning for the same target is stable), so an unchanged
 * length means an unchanged answer */
static gboolean
have_series(struct sources *s, const char *msgid, struct thread *t)
{
	if (s->checked == t && s->checked_len == t->msgs->len)
		return s->checked_ok;
	s->checked_ok = sources_have_series(t, msgid, s->use_version,
					    s->no_parent);
	s->checked = t;
	s->checked_len = t->msgs->len;
	return s->checked_ok;
}

static int
ask_locals(struct sources *s, const char *msgid, struct thread *t, GError **err)
{
	guint i;

	for (i = 0; i < s->local->len; i++) {
		struct source *src = s->local->pdata[i];
		enum sources_role role =
		    g_array_index(s->roles, enum sources_role, i);
		GError *e = NULL;
		int rc;

		if (role == SOURCES_FALLBACK &&
		    (!msgid || (!s->whole_thread && have_series(s, msgid, t))))
			continue;
		rc = source_fetch(src, msgid, t, &e);
		if (rc == LORE_OK) {
			g_ptr_array_add(s->asked, src->label);
			continue;
		}
		if (role == SOURCES_FALLBACK &&
		    g_error_matches(e, NM_ERROR, NM_ERROR_UNAVAILABLE)) {
			g_error_free(e);
			continue;
		}
		/* a database busy all the retry time (notmuch new, compact)
		 * is no reason to fail when the archive can answer */
		if (role == SOURCES_FALLBACK && s->archive &&
		    g_error_matches(e, NM_ERROR, NM_ERROR_BUSY)) {
			g_ptr_array_add(
			    s->notes,
			    g_strdup_printf("%s was not read (%s); the archive "
					    "was asked instead",
					    src->label, e->message));
			g_error_free(e);
			continue;
		}
		g_propagate_error(err, e);
		return rc;
	}
	return LORE_OK;
}

int
sources_gather(struct sources *s, const char *msgid, struct thread *t,
	       GError **err)
{
	GError *e = NULL;
	gboolean have;
	int rc;

	rc = ask_locals(s, msgid, t, err);
	if (rc || !msgid)
		return rc;
	have = thread_get(t, msgid) != NULL;
	if (have && !s->complete && !s->whole_thread &&
	    have_series(s, msgid, t))
		return LORE_OK;
	if (!s->archive) {
		if (have && !s->whole_thread && !have_series(s, msgid, t))
			g_ptr_array_add(
			    s->notes,
			    g_strdup("the local thread's series is "
				     "incomplete and there is no archive "
				     "source to complete it from"));
		return LORE_OK;
	}
	rc = source_fetch(s->archive, msgid, t, &e);
	if (rc == LORE_OK) {
		g_ptr_array_add(s->asked, s->archive->label);
		return LORE_OK;
	}
	/* a piped message alone is no local copy to work from */
	if (!have || !s->asked->len) {
		g_propagate_error(err, e);
		return rc;
	}
	g_ptr_array_add(s->notes,
			g_strdup_printf("could not complete the thread from %s "
					"(%s): working from the local copy",
					s->archive->label ? s->archive->label
							  : s->archive->name,
					e->message));
	g_error_free(e);
	return LORE_OK;
}

char *
sources_summary(struct thread *t)
{
	GPtrArray *names = g_ptr_array_new();
	GHashTable *counts = g_hash_table_new(g_str_hash, g_str_equal);
	GString *out = g_string_new("Sources:");
	guint i;

	for (i = 0; i < t->msgs->len; i++) {
		const struct message *m = t->msgs->pdata[i];
		const char *o = m->origin ? m->origin : "?";
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, o));

		if (!n)
			g_ptr_array_add(names, (gpointer)o);
		g_hash_table_insert(counts, (gpointer)o,
				    GUINT_TO_POINTER(n + 1));
	}
	for (i = 0; i < names->len; i++) {
		guint n = GPOINTER_TO_UINT(
		    g_hash_table_lookup(counts, names->pdata[i]));

		g_string_append_printf(out, "%s %s %u message%s", i ? "," : "",
				       (char *)names->pdata[i], n,
				       n == 1 ? "" : "s");
	}
	if (!names->len)
		g_string_append(out, " none");
	g_ptr_array_free(names, TRUE);
	g_hash_table_destroy(counts);
	return g_string_free(out, FALSE);
}
