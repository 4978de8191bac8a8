/*
 * source.c - the source interface and the local mailbox source (mbox file,
 * maildir, or an mbox on stdin): through its index (mdindex.h) it hands the
 * thread the target's reply tree; without one, every message it holds, and
 * the thread then keeps the target's reply tree. A mailbox not made yet is
 * an empty one.
 */
#include "source/source.h"
#include "mail/mbox.h"
#include "source/mdindex.h"
#include "core/say.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

GQuark
source_error_quark(void)
{
	return g_quark_from_static_string("lore-am-source-error");
}

char *
source_size_text(guint64 n)
{
	static const char *const units[] = {"KiB", "MiB", "GiB"};
	double v = n;
	int u = -1;

	if (n < 1024)
		return g_strdup_printf("%" G_GUINT64_FORMAT " bytes", n);
	while (v >= 1024 && u < 2) {
		v /= 1024;
		u++;
	}
	if (v == (guint64)v)
		return g_strdup_printf("%" G_GUINT64_FORMAT " %s", (guint64)v,
				       units[u]);
	return g_strdup_printf("%.1f %s", v, units[u]);
}

char *
source_over_text(guint64 max, guint n)
{
	g_autofree char *cap = source_size_text(max);

	return g_strdup_printf("the thread would take more than %s of memory "
			       "(%u messages so far, each counted with %u "
			       "bytes of overhead; see lore-am.max-size)",
			       cap, n, THREAD_MSG_COST);
}

int
source_over_budget(struct source *src, const char *what, guint n, GError **err)
{
	g_autofree char *safe = lore_term_safe(what, -1);
	g_autofree char *why = source_over_text(src->max_cost, n);

	g_set_error(err, LORE_ERROR, LORE_EUSAGE, "cannot read %s: %s", safe,
		    why);
	return LORE_EUSAGE;
}

struct add_ctx {
	struct thread *t;
	const char *origin;
	guint added;
	guint64 max;   /* the thread's bound, 0: none */
	gboolean over; /* it was passed: read no more */
};

static void
add_one(const char *msg, size_t len, void *data)
{
	struct add_ctx *c = data;

	if (c->over)
		return;
	if (thread_add_raw(c->t, msg, len, c->origin))
		c->added++;
	if (c->max && c->t->cost > c->max)
		c->over = TRUE;
}

struct mbox_src {
	char *path;
	gboolean noted; /* the note on a mailbox not made yet was given */
};

/*
 * A mailbox that is not there yet holds nothing: a delivery agent makes it
 * with its first delivery, and a mail filter run on that first mail must
 * not fail for it. TRUE (with one note per run) when @p->path is missing.
 */
static gboolean
not_made_yet(struct mbox_src *p)
{
	GStatBuf st;
	g_autofree char *safe = NULL;

	if (!strcmp(p->path, "-") || g_stat(p->path, &st) == 0 ||
	    errno != ENOENT)
		return FALSE;
	if (!p->noted) {
		safe = lore_term_safe(p->path, -1);
		lore_info("NOTE: '%s' does not exist (yet): read as an empty "
			  "mailbox",
			  safe);
		p->noted = TRUE;
	}
	return TRUE;
}

static int
mbox_fetch(struct source *src, const char *msgid, struct thread *t,
	   GError **err)
{
	struct mbox_src *p = src->priv;
	struct add_ctx c = {t, src->name, 0, src->max_cost, FALSE};
	g_autofree char *what = NULL;
	int rc;

	if (not_made_yet(p))
		return LORE_OK;
	rc = mdindex_gather(p->path, msgid, t, src->name, src->max_cost,
			    &c.added);
	if (rc == LORE_OK)
		src->added += c.added;
	if (rc == LORE_OK)
		return LORE_OK;
	if (rc == MDINDEX_PLAIN) {
		c.added = 0;
		if (!mbox_read_path_until(p->path, add_one, &c, &c.over, err))
			return LORE_EUSAGE;
		src->added += c.added;
		if (!c.over)
			return LORE_OK;
		c.added = t->msgs->len;
	}
	what = g_strdup_printf("'%s'", p->path);
	return source_over_budget(src, what, c.added, err);
}

gboolean
source_query_fits(const struct source_query *q, const struct message *m)
{
	return m->from_email && !g_ascii_strcasecmp(m->from_email, q->from) &&
	       m->date >= q->since && m->date <= q->until;
}

struct find_ctx {
	struct add_ctx add;
	const struct source_query *q;
};

/* Parse each message of the folder; keep those that fit the query. */
static void
find_one(const char *msg, size_t len, void *data)
{
	struct find_ctx *c = data;
	struct message *m;

	if (c->add.over)
		return;
	m = message_parse(msg, len, NULL);
	if (!m || !m->msgid || !source_query_fits(c->q, m)) {
		message_free(m);
		return;
	}
	if (thread_add(c->add.t, m, c->add.origin))
		c->add.added++;
	if (c->add.max && c->add.t->cost > c->add.max)
		c->add.over = TRUE;
}

/*
 * The whole folder read for the mail that fits @q: an index keeps the
 * reply graph, not senders and dates, and a series sent unthreaded is
 * what this is for. Bounded as a fetch is, by max_cost.
 */
static int
mbox_find(struct source *src, const struct source_query *q, struct thread *t,
	  GError **err)
{
	struct mbox_src *p = src->priv;
	struct find_ctx c = {{t, src->name, 0, src->max_cost, FALSE}, q};
	g_autofree char *what = NULL;

	/* standard input was read by the fetch, and cannot be read twice */
	if (!strcmp(p->path, "-") || not_made_yet(p))
		return LORE_ENOTFOUND;
	if (!mbox_read_path_until(p->path, find_one, &c, &c.add.over, err))
		return LORE_EUSAGE;
	src->added += c.add.added;
	if (c.add.over) {
		what = g_strdup_printf("'%s'", p->path);
		return source_over_budget(src, what, t->msgs->len, err);
	}
	return c.add.added ? LORE_OK : LORE_ENOTFOUND;
}

static void
mbox_free(struct source *src)
{
	struct mbox_src *p = src->priv;

	g_free(p->path);
	g_free(p);
}

struct source *
source_mbox_new(const char *path)
{
	struct source *s = g_new0(struct source, 1);

	/* what the summary calls it: "Sources: maildir 25 messages" */
	s->name = strcmp(path, "-") && g_file_test(path, G_FILE_TEST_IS_DIR)
		      ? "maildir"
		      : "mbox";
	s->fetch = mbox_fetch;
	s->find = mbox_find;
	s->free = mbox_free;
	/* standard input cannot be read twice */
	s->reask = strcmp(path, "-") != 0;
	s->priv = g_new0(struct mbox_src, 1);
	((struct mbox_src *)s->priv)->path = g_strdup(path);
	s->label = g_strdup(path);
	return s;
}

static int
mails_fetch(struct source *src, const char *msgid, struct thread *t,
	    GError **err)
{
	GPtrArray *mails = src->priv;
	struct add_ctx c = {t, src->name, 0, src->max_cost, FALSE};
	guint i;

	for (i = 0; i < mails->len && !c.over; i++) {
		gsize n;
		const char *p = g_bytes_get_data(mails->pdata[i], &n);

		add_one(p, n, &c);
	}
	src->added += c.added;
	if (c.over)
		return source_over_budget(src, src->label, t->msgs->len, err);
	return LORE_OK;
}

static void
mails_free(struct source *src)
{
	g_ptr_array_unref(src->priv);
}

struct source *
source_mails_new(GPtrArray *mails, const char *label)
{
	struct source *s = g_new0(struct source, 1);

	s->name = "stdin";
	s->fetch = mails_fetch;
	s->free = mails_free;
	s->priv = g_ptr_array_ref(mails);
	s->label = g_strdup(label);
	return s;
}

int
source_fetch(struct source *src, const char *msgid, struct thread *t,
	     GError **err)
{
	guint had = src->added;
	int rc = src->fetch(src, msgid, t, err);

	/* -d: which source was asked, and what it gave */
	if (rc == LORE_OK)
		lore_dbg("%s (%s) asked for <%s>: %u message%s added",
			 src->label ? src->label : src->name, src->name,
			 msgid ? msgid : "*", src->added - had,
			 src->added - had == 1 ? "" : "s");
	else
		lore_dbg("%s (%s) asked for <%s>: %s",
			 src->label ? src->label : src->name, src->name,
			 msgid ? msgid : "*",
			 err && *err ? (*err)->message : "nothing");
	return rc;
}

void
source_free(struct source *src)
{
	if (!src)
		return;
	if (src->free)
		src->free(src);
	g_free(src->label);
	g_free(src);
}
