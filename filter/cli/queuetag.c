/*
 * queuetag.c - the queue's state as notmuch tags (queuetag.h), written
 * through libnotmuch (source/nmlib.h, loaded when first needed): the
 * database opened read-write once for all the messages, each message's
 * tags changed frozen (one write), and only when they differ from what
 * they should be, so that notmuch's lastmod moves for no message that
 * did not change.
 */
#include "cli/queuetag.h"
#include "core/util.h"
#include "queue/queue.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a message of a series with its revision's state (borrowed id) */
struct tagged {
	char *msgid;
	enum queue_state state;
};

static void
collect(const char *msgid, enum queue_state state, gpointer data)
{
	struct tagged t = {g_strdup(msgid), state};

	g_array_append_val((GArray *)data, t);
}

/* Every message of the series of @ids, each series once; FALSE with
 * @err when the queue cannot be read. */
static gboolean
series_messages(GPtrArray *ids, GArray *out, GError **err)
{
	g_autoptr(GHashTable) done =
	    g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	struct queue *q = queue_open(err);
	guint i;

	if (!q)
		return FALSE;
	for (i = 0; i < ids->len && !(err && *err); i++) {
		struct queue_series *s = queue_find(q, ids->pdata[i], err);

		if (s && !g_hash_table_contains(done, &s->id)) {
			g_hash_table_add(done,
					 g_memdup2(&s->id, sizeof(s->id)));
			queue_messages(q, s->id, collect, out, err);
		}
		queue_series_free(s);
	}
	queue_close(q);
	return !(err && *err);
}

#ifdef LORE_NO_NOTMUCH

gboolean
queuetag_move(struct config *cfg, GPtrArray *ids)
{
	return TRUE;
}

#else

#include "source/nmlib.h"

struct names {
	char *tag[QUEUE_N_STATES]; /* each state's tag, NULL: none */
	GPtrArray *drop;	   /* every tag a state may have had */
};

/* notmuch's config, else git's, else "lore-am/STATE"; "-": none */
static char *
state_tag(notmuch_database_t *db, struct config *cfg, enum queue_state s)
{
	g_autofree char *key =
	    g_strdup_printf("lore-am.tag-%s", queue_state_name(s));
	char *v = NULL;
	g_autofree char *name = NULL;
	const char *g;

	if (notmuch_database_get_config(db, key, &v) ==
		NOTMUCH_STATUS_SUCCESS &&
	    v && *v)
		name = g_strdup(v);
	free(v);
	if (!name && (g = config_get(cfg, key + strlen("lore-am."), NULL)) &&
	    *g)
		name = g_strdup(g);
	if (!name)
		name = g_strdup_printf("lore-am/%s", queue_state_name(s));
	return strcmp(name, "-") ? g_steal_pointer(&name) : NULL;
}

static void
names_read(notmuch_database_t *db, struct config *cfg, struct names *n)
{
	guint s;

	n->drop = g_ptr_array_new_with_free_func(g_free);
	for (s = 0; s < QUEUE_N_STATES; s++) {
		n->tag[s] = state_tag(db, cfg, (enum queue_state)s);
		/* a renamed state's old name goes too */
		g_ptr_array_add(
		    n->drop,
		    g_strdup_printf("lore-am/%s",
				    queue_state_name((enum queue_state)s)));
		if (n->tag[s])
			g_ptr_array_add(n->drop, g_strdup(n->tag[s]));
	}
}

static void
names_clear(struct names *n)
{
	guint s;

	for (s = 0; s < QUEUE_N_STATES; s++)
		g_free(n->tag[s]);
	g_ptr_array_free(n->drop, TRUE);
}

/* Does @m carry a tag of @n->drop other than @add, or lack @add? */
static gboolean
needs_change(notmuch_message_t *m, const char *add, const struct names *n)
{
	notmuch_tags_t *tags = notmuch_message_get_tags(m);
	gboolean has_add = FALSE, stale = FALSE;
	guint i;

	for (; tags && notmuch_tags_valid(tags);
	     notmuch_tags_move_to_next(tags)) {
		const char *t = notmuch_tags_get(tags);

		if (add && !strcmp(t, add)) {
			has_add = TRUE;
			continue;
		}
		for (i = 0; i < n->drop->len; i++)
			if (!strcmp(t, n->drop->pdata[i]))
				stale = TRUE;
	}
	if (tags)
		notmuch_tags_destroy(tags);
	return stale || (add && !has_add);
}

static notmuch_status_t
retag(notmuch_database_t *db, const struct tagged *t, const struct names *n)
{
	const char *add = n->tag[t->state];
	notmuch_message_t *m = NULL;
	notmuch_status_t st;
	guint i;

	st = notmuch_database_find_message(db, t->msgid, &m);
	if (st || !m)
		return st; /* not in notmuch: nothing to tag */
	if (needs_change(m, add, n)) {
		st = notmuch_message_freeze(m);
		for (i = 0; !st && i < n->drop->len; i++)
			if (!add || strcmp(n->drop->pdata[i], add))
				st = notmuch_message_remove_tag(
				    m, n->drop->pdata[i]);
		if (!st && add)
			st = notmuch_message_add_tag(m, add);
		if (!st)
			st = notmuch_message_thaw(m);
	}
	notmuch_message_destroy(m);
	return st;
}

/* Does a writer (notmuch new, notmuch tag, an editor's notmuch) hold the
 * Xapian database's write lock? libnotmuch waits for it as long as it
 * takes; a key press must not, so the tags are left for the hook. */
static gboolean
write_locked(const char *path)
{
	static const char *const where[] = {".notmuch/xapian/flintlock",
					    "xapian/flintlock"};
	guint i;

	for (i = 0; path && i < G_N_ELEMENTS(where); i++) {
		g_autofree char *f = g_build_filename(path, where[i], NULL);
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		int fd = open(f, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		gboolean held;

		if (fd < 0)
			continue;
		held = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
		close(fd);
		return held;
	}
	return FALSE;
}

/* The status of opening the database in @mode (*@db set on success);
 * *@msg notmuch's words (free()). */
static notmuch_status_t
open_db(notmuch_database_mode_t mode, notmuch_database_t **db, char **msg)
{
	*db = NULL;
	*msg = NULL;
	return notmuch_database_open_with_config(NULL, mode, NULL, NULL, db,
						 msg);
}

/* The database, read-write; NULL with *@why (g_free) when it cannot be,
 * NULL alone when notmuch is not set up here. */
static notmuch_database_t *
open_rw(char **why)
{
	notmuch_database_t *db = NULL;
	notmuch_status_t st;
	char *msg = NULL;

	*why = NULL;
	if (!nmlib_configured() || !dynlib_load(&nmlib.dl, NULL))
		return NULL;
	/* read-only first: where it is, and whether a writer holds it */
	st = open_db(NOTMUCH_DATABASE_MODE_READ_ONLY, &db, &msg);
	if (st == NOTMUCH_STATUS_SUCCESS) {
		gboolean held = write_locked(notmuch_database_get_path(db));

		notmuch_database_destroy(db);
		free(msg);
		db = NULL;
		if (held) {
			*why = g_strdup("the database is being written by "
					"another program; the notmuch hook "
					"moves them after the next notmuch "
					"new");
			return NULL;
		}
		st = open_db(NOTMUCH_DATABASE_MODE_READ_WRITE, &db, &msg);
	}
	if (st == NOTMUCH_STATUS_SUCCESS) {
		free(msg);
		return db;
	}
	if (st != NOTMUCH_STATUS_NO_CONFIG &&
	    st != NOTMUCH_STATUS_NO_DATABASE && st != NOTMUCH_STATUS_PATH_ERROR)
		*why = g_strdup(msg && *msg ? g_strstrip(msg)
					    : notmuch_status_to_string(st));
	free(msg);
	if (db)
		notmuch_database_destroy(db);
	return NULL;
}

gboolean
queuetag_move(struct config *cfg, GPtrArray *ids)
{
	g_autoptr(GArray) msgs =
	    g_array_new(FALSE, FALSE, sizeof(struct tagged));
	g_autofree char *why = NULL;
	notmuch_database_t *db = NULL;
	notmuch_status_t st = NOTMUCH_STATUS_SUCCESS;
	struct names n;
	GError *err = NULL;
	guint i;

	if (!series_messages(ids, msgs, &err)) {
		why = g_strdup(err->message);
		g_error_free(err);
	} else if (msgs->len && (db = open_rw(&why))) {
		names_read(db, cfg, &n);
		for (i = 0; !st && i < msgs->len; i++)
			st = retag(db, &g_array_index(msgs, struct tagged, i),
				   &n);
		names_clear(&n);
		if (st)
			why = g_strdup(notmuch_status_to_string(st));
		notmuch_database_destroy(db);
	}
	for (i = 0; i < msgs->len; i++)
		g_free(g_array_index(msgs, struct tagged, i).msgid);
	if (why) {
		g_autofree char *safe = lore_term_safe(why, -1);

		lore_err("warning: notmuch tags not moved: %s", safe);
		return FALSE;
	}
	return TRUE;
}

#endif
