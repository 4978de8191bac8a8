/*
 * record.c - what a run saw of a series: each revision's patches present
 * and the reviews per patch (the trailers stage's count: a reply's
 * trailers, an identical patch's of another revision, the cover letter's,
 * and the patch's own), the files it touches; store.c writes it.
 */
#include "queue/queue-int.h"
#include "core/util.h"
#include "mail/message.h"
#include "mail/subject.h"
#include "series/newer.h"
#include "trailers/followup.h"
#include "trailers/trailer.h"

#include <stdio.h>
#include <string.h>

/* --mine reads this many of a revision's files, no more */
#define FILES_MAX 500
#define PATH_MAX_LEN 1024

/* The review trailers of one patch, each counted once. */
static void
count_reviews(GPtrArray *list, int *r, int *a, int *t)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new();
	guint i;

	for (i = 0; i < list->len; i++) {
		struct trailer *tr = list->pdata[i];
		int *n = !strcmp(tr->lname, "reviewed-by") ? r
			 : !strcmp(tr->lname, "acked-by")  ? a
			 : !strcmp(tr->lname, "tested-by") ? t
							   : NULL;

		if (!n || trailer_in(seen, tr))
			continue;
		g_ptr_array_add(seen, tr);
		(*n)++;
	}
}

/* The patch's own trailers: its commit message, up to the "---" */
static GPtrArray *
own_trailers(struct message *m)
{
	const char *body = message_body(m);
	const char *cut = body ? strstr(body, "\n---\n") : NULL;
	g_autofree char *msg =
	    body ? g_strndup(body, cut ? (gsize)(cut - body) : strlen(body))
		 : NULL;
	GPtrArray *t = trailer_array_new();

	if (msg)
		trailer_find(msg, FALSE, t, NULL);
	return t;
}

/* "diff --git a/X b/Y": Y, each file once, within bounds */
static void
add_files(GString *files, GHashTable *seen, struct message *m)
{
	const char *body = message_body(m);
	size_t pos = 0, len = body ? strlen(body) : 0, ll;
	const char *l;

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		const char *b;
		char *f;

		if (g_hash_table_size(seen) >= FILES_MAX)
			return;
		if (ll > PATH_MAX_LEN ||
		    !lore_has_prefix_ci(l, ll, "diff --git "))
			continue;
		b = g_strstr_len(l, (gssize)ll, " b/");
		if (!b)
			continue;
		f = g_strndup(b + 3, ll - (size_t)(b + 3 - l));
		if (!*f || strchr(f, '\n') || g_hash_table_contains(seen, f)) {
			g_free(f);
			continue;
		}
		g_hash_table_add(seen, f);
		g_string_append_printf(files, "%s%s", files->len ? "\n" : "",
				       f);
	}
}

static void
patch_info(struct followups *f, struct series *ser, struct series_entry *e,
	   struct rev_info *ri, GHashTable *files)
{
	int r = 0, a = 0, t = 0;

	if (e->p) {
		g_autoptr(GPtrArray) fu = followup_for(f, ser, e);
		g_autoptr(GPtrArray) own = own_trailers(e->p->msg);

		g_ptr_array_extend(fu, own, NULL, NULL);
		count_reviews(fu, &r, &a, &t);
		add_files(ri->files, files, e->p->msg);
		ri->present++;
		if (!ri->root)
			ri->root = e->p->msg;
	}
	if (r + a + t)
		ri->reviewed++;
	g_string_append_printf(ri->reviews, "%s%d/%d/%d",
			       ri->reviews->len ? " " : "", r, a, t);
}

static void
rev_info(struct followups *f, struct series *ser, struct rev_info *ri)
{
	struct spatch *cov = series_cover(ser);
	g_autoptr(GHashTable) files =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint i;

	ri->ser = ser;
	ri->revision = ser->revision;
	ri->expected = ser->expected;
	ri->reviews = g_string_new(NULL);
	ri->files = g_string_new(NULL);
	ri->root = cov ? cov->msg : NULL;
	for (i = 1; i < ser->slots->len; i++)
		patch_info(f, ser,
			   &g_array_index(ser->slots, struct series_entry, i),
			   ri, files);
}

static void
seen_clear(struct seen_series *ss)
{
	guint i;

	for (i = 0; ss->revs && i < ss->revs->len; i++) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);

		g_string_free(ri->reviews, TRUE);
		g_string_free(ri->files, TRUE);
		g_free(ri->kept_reviews);
	}
	if (ss->revs)
		g_array_unref(ss->revs);
	g_free(ss->change_id);
	g_free(ss->author);
	g_free(ss->title);
	g_free(ss->subject);
}

/* Each revision of @s, read with the trailers stage's @f; FALSE when
 * there is none with a patch. */
static gboolean
seen_read(struct series_set *s, struct followups *f, struct seen_series *ss)
{
	g_autoptr(GArray) revs = series_revisions(s);
	guint i;

	if (!revs->len)
		return FALSE;
	ss->revs = g_array_new(FALSE, TRUE, sizeof(struct rev_info));
	for (i = 0; i < revs->len; i++) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));
		struct rev_info ri = {0};

		if (!ser)
			continue;
		rev_info(f, ser, &ri);
		if (!ri.root) {
			g_string_free(ri.reviews, TRUE);
			g_string_free(ri.files, TRUE);
			continue;
		}
		g_array_append_val(ss->revs, ri);
	}
	for (i = ss->revs->len; i-- > 0;) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);
		struct subject sj;

		if (!ss->subject) {
			ss->subject = g_strdup(
			    ri->root->subject ? ri->root->subject : "");
			subject_parse(ss->subject, &sj);
			ss->title =
			    g_utf8_strdown(sj.title ? sj.title : "", -1);
			subject_clear(&sj);
			ss->author = g_ascii_strdown(
			    ri->root->from_email ? ri->root->from_email : "",
			    -1);
			ss->latest = ri->revision;
		}
		if (!ss->change_id)
			ss->change_id = newer_change_id(message_body(ri->root));
	}
	return ss->revs->len > 0;
}

gboolean
queue_enabled(struct config *cfg)
{
	const char *on = config_get(cfg, "queue", NULL);

	return !on || config_bool(on);
}

void
queue_note(struct config *cfg, struct series_set *s, struct followups *f,
	   const char *target, struct queue_seen *seen)
{
	struct seen_series ss = {0};
	struct queue *q;
	GError *err = NULL;

	if (!queue_enabled(cfg) || !s || !f)
		return;
	if (!seen_read(s, f, &ss)) {
		seen_clear(&ss);
		return;
	}
	q = queue_open(&err);
	if (q)
		queue_seen_only(q);
	if (q && queue_store(q, s, f, &ss, target, seen, &err))
		queue_close(q);
	else if (q)
		queue_failed(q, &err);
	if (err) {
		lore_err_take(err);
		if (seen)
			queue_seen_clear(seen);
	}
	seen_clear(&ss);
}
