/*
 * source.c - the source interface and the local mailbox source (mbox file,
 * maildir, or an mbox on stdin): through its index (mdindex.h) it hands the
 * thread the target's reply tree; without one, every message it holds, and
 * the thread then keeps the target's reply tree.
 */
#include "source.h"
#include "mbox.h"
#include "mdindex.h"
#include "util.h"

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

static int
mbox_fetch(struct source *src, const char *msgid, struct thread *t,
	   GError **err)
{
	struct add_ctx c = {t, src->name, 0};

	if (mdindex_gather(src->priv, msgid, t, src->name, &c.added) ==
	    LORE_OK) {
		src->added += c.added;
		return LORE_OK;
	}
	if (!mbox_read_path(src->priv, add_one, &c, err))
		return LORE_EUSAGE;
	src->added += c.added;
	return LORE_OK;
}

static void
mbox_free(struct source *src)
{
	g_free(src->priv);
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
	s->priv = g_strdup(path);
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
