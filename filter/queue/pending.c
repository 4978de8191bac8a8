/*
 * pending.c - the series the applied scan looks for (cli/queuescan.c):
 * each one's latest revision, whole, not marked applied, thanked or
 * rejected, with the patch-id of every patch as stored (store.c). Ids
 * that are not hex (a file edited by hand) leave their series out. And
 * what the last scan of each tree saw, so that one is not done again.
 */
#include "queue/queue-int.h"

#include <string.h>

void
queue_pending_free(struct queue_pending *p)
{
	if (!p)
		return;
	g_free(p->root);
	if (p->ids)
		g_ptr_array_free(p->ids, TRUE);
	g_free(p);
}

/* git patch-id's: 40 (SHA-1) to 64 (SHA-256) lower-case hex digits */
static gboolean
is_patchid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= 40 && n <= 64 && !s[n];
}

/* @p into @out when it holds every patch, a valid id each; else freed */
static void
keep(GPtrArray *out, struct queue_pending *p, int expected, gboolean bad)
{
	if (p && !bad && expected > 0 && p->ids->len == (guint)expected)
		g_ptr_array_add(out, p);
	else
		queue_pending_free(p);
}

GPtrArray *
queue_pending(struct queue *q, guint max, GError **err)
{
	sqlite3_stmt *st = queue_stmt(
	    q,
	    "SELECT s.id, r.revision, r.root, r.expected, p.number, "
	    "p.patchid FROM series s JOIN revisions r ON r.series = s.id "
	    "AND r.revision = (SELECT max(revision) FROM revisions WHERE "
	    "series = s.id) JOIN patches p ON p.series = s.id AND p.revision "
	    "= r.revision WHERE r.expected > 0 AND r.present >= r.expected "
	    "AND s.applied != r.revision AND s.thanked != r.revision AND "
	    "s.rejected != r.revision ORDER BY s.last_seen DESC, s.id, "
	    "p.number",
	    err);
	GPtrArray *out;
	struct queue_pending *p = NULL;
	gint64 id = 0;
	int expected = 0, rc;
	gboolean bad = FALSE;

	if (!st)
		return NULL;
	out =
	    g_ptr_array_new_with_free_func((GDestroyNotify)queue_pending_free);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *pid = queue_col(st, 5);

		if (!p || sqlite3_column_int64(st, 0) != id) {
			keep(out, p, expected, bad);
			p = NULL;
			if (out->len >= max)
				break;
			p = g_new0(struct queue_pending, 1);
			id = sqlite3_column_int64(st, 0);
			p->revision = sqlite3_column_int(st, 1);
			p->root = g_strdup(queue_col(st, 2));
			p->ids = g_ptr_array_new_with_free_func(g_free);
			expected = sqlite3_column_int(st, 3);
			bad = FALSE;
		}
		/* numbers in order from 1: a gap is a patch without an id */
		if (sqlite3_column_int(st, 4) != (int)p->ids->len + 1)
			bad = TRUE;
		bad = bad || !is_patchid(pid);
		g_ptr_array_add(p->ids, g_strdup(pid));
	}
	keep(out, p, expected, bad);
	sqlite3_reset(st);
	if (!queue_check(q, rc, err)) {
		g_ptr_array_free(out, TRUE);
		return NULL;
	}
	return out;
}

char *
queue_pending_digest(GPtrArray *pend)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	char *out;
	guint i;

	for (i = 0; i < pend->len; i++) {
		struct queue_pending *p = pend->pdata[i];
		char rev[16];

		g_snprintf(rev, sizeof(rev), " %d\n", p->revision);
		g_checksum_update(c, (const guchar *)p->root, -1);
		g_checksum_update(c, (const guchar *)rev, -1);
	}
	out = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	return out;
}

/* @sql (kept, queue_stmt()) with a tree's top, HEAD and digest bound to
 * ?1, ?2, ?3; NULL with @err. */
static sqlite3_stmt *
scan_stmt(struct queue *q, const char *sql, const char *top, const char *head,
	  const char *digest, GError **err)
{
	sqlite3_stmt *st = queue_stmt(q, sql, err);

	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, top, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, head, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, digest, -1, SQLITE_STATIC);
	return st;
}

gboolean
queue_scan_seen(struct queue *q, const char *top, const char *head,
		const char *digest)
{
	sqlite3_stmt *st = scan_stmt(
	    q,
	    "SELECT 1 FROM scans WHERE top = ?1 AND head = ?2 AND pending = ?3",
	    top, head, digest, NULL);
	gboolean seen;

	if (!st)
		return FALSE;
	seen = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_reset(st);
	return seen;
}

gboolean
queue_scan_done(struct queue *q, const char *top, const char *head,
		const char *digest, GError **err)
{
	sqlite3_stmt *st =
	    scan_stmt(q, "INSERT OR REPLACE INTO scans VALUES(?1, ?2, ?3)", top,
		      head, digest, err);
	gboolean ok;

	if (!st)
		return FALSE;
	ok = queue_check(q, sqlite3_step(st), err);
	sqlite3_reset(st);
	return ok;
}
