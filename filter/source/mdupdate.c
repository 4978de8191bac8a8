/*
 * mdupdate.c - bringing a mailbox's index up to date, reading only what
 * changed. A maildir sub-folder whose mtime is as recorded is unchanged (a
 * delivery, rename or removal sets it); in a changed one, a name whose
 * unique part (before ':', the maildir spec's info) is known is a flag
 * change or a new/ -> cur/ move, and only names never seen are parsed. An
 * mbox file that only grew (same inode, larger, the bytes before the old
 * end as they were) is read from its last message on; any other change
 * rebuilds its rows.
 */
#include "mail/mbox.h"
#include "source/mdindex-int.h"
#include "mail/message.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* how far a directory's mtime must lie in the past to be trusted: one
 * more change within the same clock tick would not move it */
#define MDINDEX_RACY_NS (50 * G_GINT64_CONSTANT(1000000))
#define MDINDEX_TAIL 4096

struct upd {
	struct mdindex *x;
	sqlite3_stmt *ins, *ins_ref;
	int dir;
	const char *name;
	goffset off, rawlen, last;
	GArray *drop; /* rows (gpointer ids) to delete */
	GError *err;
};

static gint64
mtime_ns(const struct stat *st)
{
	return (gint64)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static gint64
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static gboolean
step_done(struct upd *u, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE || mdindex_fail(u->x, rc, &u->err);
}

/* One message as the plain scan would add it: the ids thread_prune()
 * links by, or no id when thread_add_raw() would drop it. */
static void
insert_one(const char *buf, size_t len, void *data)
{
	struct upd *u = data;
	struct message *m = NULL;
	gboolean big = len > LORE_MAX_MESSAGE;
	GString *refs = g_string_new(NULL);
	sqlite3_stmt *s = u->ins;

	if (u->err)
		goto out;
	if (!big)
		m = message_parse(buf, len, NULL);
	if (m && m->msgid)
		mdindex_refs(refs, m);
	sqlite3_bind_int(s, 1, u->dir);
	if (u->name) {
		const char *colon = strchr(u->name, ':');

		sqlite3_bind_text(s, 2, u->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, u->name,
				  colon ? (int)(colon - u->name) : -1,
				  SQLITE_STATIC);
	}
	sqlite3_bind_int64(s, 4, u->off);
	sqlite3_bind_int64(s, 5, u->rawlen);
	if (m && m->msgid) {
		sqlite3_bind_text(s, 6, m->msgid, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 7, m->from_email, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 8, refs->str, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 9, m->date);
		sqlite3_bind_text(s, 10, m->subject ? m->subject : "", -1,
				  SQLITE_STATIC);
	}
	sqlite3_bind_int(s, 11, big);
	if (!step_done(u, s) || !m || !m->msgid)
		goto out;
	{
		gint64 row = sqlite3_last_insert_rowid(u->x->db);
		char *p = refs->str, *nl;

		for (; (nl = strchr(p, '\n')); p = nl + 1) {
			sqlite3_bind_text(u->ins_ref, 1, p, nl - p,
					  SQLITE_STATIC);
			sqlite3_bind_int64(u->ins_ref, 2, row);
			if (!step_done(u, u->ins_ref))
				break;
		}
	}
out:
	message_free(m);
	g_string_free(refs, TRUE);
}

static void
delete_row(struct upd *u, gint64 id, const char *refs)
{
	sqlite3_stmt *d = NULL, *dr = NULL;
	const char *p = refs, *nl;

	d = mdindex_prepare(u->x, "DELETE FROM msg WHERE id = ?", &u->err);
	dr = mdindex_prepare(u->x, "DELETE FROM ref WHERE ref = ? AND msg = ?",
			     &u->err);
	for (; dr && p && (nl = strchr(p, '\n')); p = nl + 1) {
		sqlite3_bind_text(dr, 1, p, nl - p, SQLITE_STATIC);
		sqlite3_bind_int64(dr, 2, id);
		if (!step_done(u, dr))
			break;
	}
	if (d && !u->err) {
		sqlite3_bind_int64(d, 1, id);
		step_done(u, d);
	}
	sqlite3_finalize(d);
	sqlite3_finalize(dr);
}

static gboolean
delete_rows(struct upd *u, const char *where, gint64 arg)
{
	g_autofree char *sql =
	    g_strdup_printf("SELECT id, refs FROM msg WHERE %s", where);
	sqlite3_stmt *s = mdindex_prepare(u->x, sql, &u->err);
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(gint64));
	GPtrArray *refs = g_ptr_array_new_with_free_func(g_free);
	guint i;
	int rc;

	if (s) {
		sqlite3_bind_int64(s, 1, arg);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			gint64 id = sqlite3_column_int64(s, 0);

			g_array_append_val(ids, id);
			g_ptr_array_add(
			    refs,
			    g_strdup((const char *)sqlite3_column_text(s, 1)));
		}
		if (rc != SQLITE_DONE)
			mdindex_fail(u->x, rc, &u->err);
		sqlite3_finalize(s);
	}
	for (i = 0; !u->err && i < ids->len; i++)
		delete_row(u, g_array_index(ids, gint64, i), refs->pdata[i]);
	g_array_free(ids, TRUE);
	g_ptr_array_free(refs, TRUE);
	return !u->err;
}

/* ---- maildir ---- */

static const char *const subs[] = {"cur", "new"};

/* The state a sub-folder is recorded with: its mtime, -2 when missing. */
static gint64
dir_stamp(const char *path, int dir)
{
	g_autofree char *d = g_build_filename(path, subs[dir], NULL);
	struct stat st;

	if (stat(d, &st) || !S_ISDIR(st.st_mode))
		return -2;
	return mtime_ns(&st);
}

static const char *
stamp_key(int dir)
{
	return dir == MDINDEX_DIR_CUR ? "cur.mtime" : "new.mtime";
}

static gboolean
dir_changed(struct mdindex *x, int dir, gint64 *stamp)
{
	gint64 was = mdindex_state(x, stamp_key(dir), 0);

	*stamp = dir_stamp(x->path, dir);
	return was == 0 || was != *stamp;
}

/* Names of one changed sub-folder against its rows; fills @fresh with the
 * names never seen and @gone with rows (uniq -> id) no longer listed. */
static gboolean
diff_dir(struct upd *u, int dir, GPtrArray *fresh, GHashTable *gone)
{
	g_autofree char *d = g_build_filename(u->x->path, subs[dir], NULL);
	GHashTable *names =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	sqlite3_stmt *s;
	GDir *gd = g_dir_open(d, 0, NULL);
	const char *n;
	int rc;

	while (gd && (n = g_dir_read_name(gd)))
		if (n[0] != '.')
			g_hash_table_add(names, g_strdup(n));
	if (gd)
		g_dir_close(gd);
	s = mdindex_prepare(
	    u->x, "SELECT id, name, uniq FROM msg WHERE dir = ?", &u->err);
	if (!s) {
		g_hash_table_destroy(names);
		return FALSE;
	}
	sqlite3_bind_int(s, 1, dir);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *uniq = (const char *)sqlite3_column_text(s, 2);
		gpointer old;

		/* every maildir row is written with both: a damaged file */
		if (!name || !uniq) {
			g_set_error(&u->err, MDINDEX_ERROR, MDINDEX_EDAMAGED,
				    "has a maildir row without its file's "
				    "name");
			break;
		}
		if (g_hash_table_remove(names, name))
			continue;
		/* two names with one unique part: only one can be renamed */
		if (g_hash_table_lookup_extended(gone, uniq, NULL, &old))
			g_array_append_val(u->drop, old);
		g_hash_table_insert(
		    gone, g_strdup(uniq),
		    GINT_TO_POINTER((gint)sqlite3_column_int64(s, 0)));
	}
	if (rc != SQLITE_DONE)
		mdindex_fail(u->x, rc, &u->err);
	sqlite3_finalize(s);
	{
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, names);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_ptr_array_add(
			    fresh, g_strdup_printf("%d%s", dir, (char *)k));
	}
	g_hash_table_destroy(names);
	return !u->err;
}

static gboolean
rename_row(struct upd *u, gint64 id, int dir, const char *name)
{
	sqlite3_stmt *s = mdindex_prepare(
	    u->x, "UPDATE msg SET dir = ?, name = ? WHERE id = ?", &u->err);

	if (!s)
		return FALSE;
	sqlite3_bind_int(s, 1, dir);
	sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, id);
	step_done(u, s);
	sqlite3_finalize(s);
	return !u->err;
}

static void
add_file(struct upd *u, int dir, const char *name)
{
	g_autofree char *f =
	    g_build_filename(u->x->path, subs[dir], name, NULL);
	GBytes *b = mbox_slurp_message(f);
	gsize len;
	const char *p;

	if (!b)
		return; /* gone already, or unreadable: the plain scan skips it
			 */
	p = g_bytes_get_data(b, &len);
	u->dir = dir;
	u->name = name;
	u->off = 0;
	u->rawlen = len;
	insert_one(p, len, u);
	g_bytes_unref(b);
}

static gboolean
update_maildir(struct upd *u)
{
	struct mdindex *x = u->x;
	GHashTable *gone =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *fresh = g_ptr_array_new_with_free_func(g_free);
	gint64 stamp[2], start = now_ns();
	gboolean changed[2];
	int d;
	guint i;

	for (d = 0; d < 2; d++)
		changed[d] = dir_changed(x, d, &stamp[d]);
	for (d = 0; d < 2 && !u->err; d++)
		if (changed[d])
			diff_dir(u, d, fresh, gone);
	/* a known unique part under a new name is the same message */
	for (i = 0; i < fresh->len && !u->err; i++) {
		const char *e = fresh->pdata[i], *name = e + 1;
		const char *colon = strchr(name, ':');
		g_autofree char *uniq =
		    colon ? g_strndup(name, colon - name) : g_strdup(name);
		gpointer key, id;

		if (g_hash_table_steal_extended(gone, uniq, &key, &id)) {
			g_free(key);
			rename_row(u, GPOINTER_TO_INT(id), e[0] - '0', name);
		} else
			add_file(u, e[0] - '0', name);
	}
	{
		GHashTableIter it;
		gpointer id;

		g_hash_table_iter_init(&it, gone);
		while (g_hash_table_iter_next(&it, NULL, &id))
			g_array_append_val(u->drop, id);
		for (i = 0; !u->err && i < u->drop->len; i++)
			delete_rows(u, "id = ?",
				    GPOINTER_TO_INT(
					g_array_index(u->drop, gpointer, i)));
	}
	for (d = 0; d < 2 && !u->err; d++)
		mdindex_set_state(x, stamp_key(d),
				  stamp[d] > 0 &&
					  stamp[d] + MDINDEX_RACY_NS >= start
				      ? 0
				      : stamp[d],
				  &u->err);
	g_hash_table_destroy(gone);
	g_ptr_array_free(fresh, TRUE);
	return !u->err;
}

/* ---- mbox ---- */

/* A checksum of the @n bytes before @end, as an integer. */
static gint64
tail_sum(int fd, goffset end)
{
	guint8 buf[MDINDEX_TAIL], dg[32];
	gsize dl = sizeof(dg);
	size_t n = MIN((goffset)sizeof(buf), end);
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	gint64 v;

	if (pread(fd, buf, n, end - (goffset)n) != (ssize_t)n) {
		g_checksum_free(c);
		return -1;
	}
	g_checksum_update(c, buf, n);
	g_checksum_get_digest(c, dg, &dl);
	g_checksum_free(c);
	memcpy(&v, dg, sizeof(v));
	return v;
}

static void
index_span(goffset off, const char *raw, size_t len, void *data)
{
	struct upd *u = data;

	u->dir = MDINDEX_DIR_MBOX;
	u->name = NULL;
	u->off = off;
	u->rawlen = len;
	u->last = off;
	mbox_unquote(raw, len, insert_one, u);
}

enum mbox_change { MBOX_SAME, MBOX_GREW, MBOX_OTHER };

static enum mbox_change
mbox_change(struct mdindex *x, int fd, const struct stat *st)
{
	gint64 size = mdindex_state(x, "mbox.size", -1);

	if (size < 0 || mdindex_state(x, "mbox.ino", -1) != (gint64)st->st_ino)
		return MBOX_OTHER;
	if (size > st->st_size ||
	    tail_sum(fd, size) != mdindex_state(x, "mbox.tail", 0))
		return MBOX_OTHER;
	if (size < st->st_size)
		return MBOX_GREW;
	return mdindex_state(x, "mbox.mtime", 0) == mtime_ns(st) ? MBOX_SAME
								 : MBOX_OTHER;
}

static gboolean
update_mbox(struct upd *u, int fd, const struct stat *st, enum mbox_change how)
{
	struct mdindex *x = u->x;
	goffset from = 0;

	if (how == MBOX_GREW) {
		from = mdindex_state(x, "mbox.last", 0);
		delete_rows(u, "dir = 2 AND off >= ?", from);
	} else {
		mdindex_exec(x, "DELETE FROM ref; DELETE FROM msg", &u->err);
	}
	u->last = from;
	if (!u->err) {
		GError *e = NULL;

		if (!mbox_scan_spans(x->path, from, st->st_size, index_span, u,
				     &e)) {
			g_clear_error(&u->err);
			g_set_error(&u->err, MDINDEX_ERROR, SQLITE_IOERR, "%s",
				    e->message);
			g_error_free(e);
		}
	}
	return !u->err &&
	       mdindex_set_state(x, "mbox.size", st->st_size, &u->err) &&
	       mdindex_set_state(x, "mbox.mtime", mtime_ns(st), &u->err) &&
	       mdindex_set_state(x, "mbox.ino", st->st_ino, &u->err) &&
	       mdindex_set_state(x, "mbox.tail", tail_sum(fd, st->st_size),
				 &u->err) &&
	       mdindex_set_state(x, "mbox.last", u->last, &u->err);
}

/* ---- both ---- */

static gboolean
changed_at_all(struct mdindex *x, int fd, const struct stat *st)
{
	gint64 stamp;
	int d;

	if (mdindex_state(x, "kind", 0) != (x->maildir ? 1 : 2))
		return TRUE;
	if (!x->maildir)
		return mbox_change(x, fd, st) != MBOX_SAME;
	for (d = 0; d < 2; d++)
		if (dir_changed(x, d, &stamp))
			return TRUE;
	return FALSE;
}

gboolean
mdindex_update(struct mdindex *x, GError **err)
{
	struct upd u = {.x = x};
	struct stat st = {0};
	int fd = -1;
	gboolean ok = FALSE;

	if (!x->maildir) {
		fd = open(x->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			g_set_error(err, MDINDEX_ERROR, SQLITE_CANTOPEN,
				    "cannot read it: %s", g_strerror(errno));
			if (fd >= 0)
				close(fd);
			return FALSE;
		}
	}
	/* the common case reads a few rows and takes no write lock */
	if (!changed_at_all(x, fd, &st)) {
		ok = TRUE;
		goto out;
	}
	if (!mdindex_exec(x, "BEGIN IMMEDIATE", err))
		goto out;
	/* another run may have done it while we waited for the lock */
	if (mdindex_state(x, "kind", 0) != (x->maildir ? 1 : 2)) {
		mdindex_exec(
		    x, "DELETE FROM ref; DELETE FROM msg; DELETE FROM state",
		    &u.err);
		mdindex_set_state(x, "kind", x->maildir ? 1 : 2, &u.err);
	}
	u.drop = g_array_new(FALSE, FALSE, sizeof(gpointer));
	u.ins = mdindex_prepare(
	    x,
	    "INSERT INTO msg (dir, name, uniq, off, len, msgid, sender, refs, "
	    "date, subject, big) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    &u.err);
	u.ins_ref = mdindex_prepare(
	    x, "INSERT OR IGNORE INTO ref (ref, msg) VALUES (?, ?)", &u.err);
	if (!u.err) {
		if (x->maildir) {
			update_maildir(&u);
		} else {
			enum mbox_change how = mbox_change(x, fd, &st);

			if (how != MBOX_SAME)
				update_mbox(&u, fd, &st, how);
		}
	}
	sqlite3_finalize(u.ins);
	sqlite3_finalize(u.ins_ref);
	g_array_free(u.drop, TRUE);
	if (u.err) {
		g_propagate_error(err, u.err);
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	ok = mdindex_exec(x, "COMMIT", err);
	if (!ok)
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
out:
	if (fd >= 0)
		close(fd);
	return ok;
}
