/*
 * queuescan.c - the applied scan (queuescan.h). A series counts as
 * applied only when every patch of its latest revision is found: a patch
 * changed on the way (a fix folded in, a conflict resolved) has another
 * patch-id, and the series stays as it was, for the maintainer to mark.
 */
#include "cli/queuescan.h"
#include "cli/deps.h"
#include "cli/queuetag.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/applied.h"
#include "git/treecheck.h"
#include "queue/queue.h"

/* the series looked for in one scan, the most recently seen first */
#define SCAN_SERIES_MAX 2000

/* "FIRST^..LAST" (abbreviated), the commits @found[0..n) became; NULL
 * when one is missing */
static char *
found_note(char **found, guint n)
{
	guint i;

	for (i = 0; i < n; i++)
		if (!found[i])
			return NULL;
	if (n == 1)
		return g_strdup_printf("%.12s", found[0]);
	return g_strdup_printf("%.12s^..%.12s", found[0], found[n - 1]);
}

/* What a scan of @pend as deep as @lookback looked for (g_free) */
static char *
memo(GPtrArray *pend, guint lookback)
{
	g_autofree char *d = queue_pending_digest(pend);

	return g_strdup_printf("%s %u", d, lookback);
}

/* HEAD's commit id (g_free), or NULL (no commit yet, no git) */
static char *
head_id(void)
{
	const char *const argv[] = {"rev-parse", "-q", "--verify",
				    "HEAD^{commit}", NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	int st = gitrun(NULL, argv, NULL, 0, out, e, NULL);

	g_string_free(e, TRUE);
	if (st != 0 || out->len < 40 || out->len > 65) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_strstrip(g_string_free(out, FALSE));
}

/* The scan of @pend's patch-ids; the series not found left in @rest
 * (borrowed). FALSE when git could not tell. */
static gboolean
scan(GPtrArray *pend, guint lookback, GPtrArray *rest, GPtrArray *marked)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new();
	char **found;
	GError *err = NULL;
	guint i, at = 0;
	gboolean ok;

	for (i = 0; i < pend->len; i++)
		g_ptr_array_extend(
		    ids, ((struct queue_pending *)pend->pdata[i])->ids, NULL,
		    NULL);
	found = g_new0(char *, ids->len);
	ok = !applied_find((const char *const *)ids->pdata, ids->len, NULL,
			   lookback, found, &err);
	if (!ok) {
		lore_err("warning: cannot tell which series the tree has: %s",
			 err ? err->message : "git failed");
		g_clear_error(&err);
	}
	for (i = 0; ok && i < pend->len; i++) {
		struct queue_pending *p = pend->pdata[i];
		g_autofree char *note = found_note(found + at, p->ids->len);

		at += p->ids->len;
		if (!note) {
			g_ptr_array_add(rest, p);
		} else if (queue_mark_note(p->root, "applied", note, &err)) {
			lore_err("warning: the queue does not say it is "
				 "applied: %s",
				 err->message);
			g_clear_error(&err);
		} else {
			g_ptr_array_add(marked, p->root);
		}
	}
	for (i = 0; i < ids->len; i++)
		g_free(found[i]);
	g_free(found);
	return ok;
}

gboolean
queuescan_run(struct config *cfg, GError **err)
{
	const char *on = config_get(cfg, "queue-scan", NULL);
	g_autofree char *top = NULL, *head = NULL, *digest = NULL;
	g_autofree char *left = NULL;
	g_autoptr(GPtrArray) pend = NULL;
	g_autoptr(GPtrArray) rest = g_ptr_array_new();
	g_autoptr(GPtrArray) marked = g_ptr_array_new();
	struct queue *q;
	GError *e = NULL;

	if ((on && !config_bool(on)) || !(top = treecheck_toplevel()))
		return TRUE;
	/* a queue that cannot be opened: the listing says so */
	if (!(q = queue_open(&e))) {
		g_clear_error(&e);
		return TRUE;
	}
	pend = queue_pending(q, SCAN_SERIES_MAX, &e);
	if (pend && pend->len && (head = head_id())) {
		guint lookback = deps_lookback(cfg);

		digest = memo(pend, lookback);
		/* the same HEAD, series and depth: nothing new to find */
		if (!queue_scan_seen(q, top, head, digest) &&
		    scan(pend, lookback, rest, marked)) {
			left = memo(rest, lookback);
			queue_scan_done(q, top, head, left, &e);
		}
	}
	queue_close(q);
	if (marked->len)
		queuetag_move(cfg, marked);
	if (!e)
		return TRUE;
	g_propagate_prefixed_error(
	    err, e, "the series were not looked for in the tree: ");
	return FALSE;
}
