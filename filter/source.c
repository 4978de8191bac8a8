/*
 * source.c - the source interface and the local mailbox source (mbox file,
 * maildir, or an mbox on stdin): through its index (mdindex.h) it hands the
 * thread the target's reply tree; without one, every message it holds, and
 * the thread then keeps the target's reply tree. A mailbox not made yet is
 * an empty one.
 */
#include "source.h"
#include "mbox.h"
#include "mdindex.h"
#include "util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

GQuark
source_error_quark(void)
{
	return g_quark_from_static_string("lore-am-source-error");
}

struct add_ctx {
	struct thread *t;
	const char *origin;
	guint added;
};

static void
add_one(const char *msg, size_t len, void *data)
{
	struct add_ctx *c = data;

	if (thread_add_raw(c->t, msg, len, c->origin))
		c->added++;
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
	struct add_ctx c = {t, src->name, 0};

	if (not_made_yet(p))
		return LORE_OK;
	if (mdindex_gather(p->path, msgid, t, src->name, &c.added) == LORE_OK) {
		src->added += c.added;
		return LORE_OK;
	}
	if (!mbox_read_path(p->path, add_one, &c, err))
		return LORE_EUSAGE;
	src->added += c.added;
	return LORE_OK;
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
	s->free = mbox_free;
	/* standard input cannot be read twice */
	s->reask = strcmp(path, "-") != 0;
	s->priv = g_new0(struct mbox_src, 1);
	((struct mbox_src *)s->priv)->path = g_strdup(path);
	s->label = g_strdup(path);
	return s;
}

int
source_fetch(struct source *src, const char *msgid, struct thread *t,
	     GError **err)
{
	return src->fetch(src, msgid, t, err);
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
