/*
 * lore.c - a public-inbox archive as a thread source. public-inbox's URL
 * rules (PublicInbox::WWW): <inbox>/<id>/t.mbox.gz is the thread;
 * /<id>/ at the server root redirects to the inbox that holds the id;
 * POST <inbox>/?x=m&q=... answers a search with a gzipped mbox. Each
 * answer is parsed into a private thread (fetch.h) and merged into the
 * caller's only once it proved whole; mirrors, the cache and the settings
 * are handled here.
 */
#include "source/lore.h"
#include "source/cache.h"
#include "source/fetch.h"
#include "source/url.h"
#include "core/msgid.h"
#include "core/util.h"

#include <string.h>

/*
 * HEAD <server>/<id>/: public-inbox redirects to the inbox holding @id.
 * On success *next is that inbox's t.mbox.gz URL.
 */
static int
lookup(const struct lore_opts *o, const char *url, const char *id, char **next,
       gboolean *retry, GError **err)
{
	g_autofree char *root = url_root(url);
	g_autofree char *mask = g_strconcat(root, "%s", NULL);
	g_autofree char *where = url_for_id(mask, id, NULL);
	g_autofree char *loc = NULL;
	long status = 0;
	int rc;

	*next = NULL;
	rc = fetch_head(o, where, &status, &loc, retry, err);
	if (rc)
		return rc;
	if (status >= 300 && status < 400 && loc) {
		if (!g_ascii_strncasecmp(root, "https:", 6) &&
		    g_ascii_strncasecmp(loc, "https:", 6)) {
			g_autofree char *s = lore_term_safe(loc, -1);

			g_set_error(err, LORE_ERROR, LORE_ETEMP,
				    "refusing the redirect from %s to %s: it "
				    "leaves https",
				    where, s);
			return LORE_ETEMP;
		}
		*next = url_join(loc, "t.mbox.gz");
		return *next ? LORE_OK : LORE_ENOTFOUND;
	}
	if (status < 300 || status == 404 || status == 410)
		return LORE_ENOTFOUND;
	return fetch_bad_status(status, where, retry, err);
}

/* One try of one server (mask) for the thread of an id. */
typedef int (*try_fn)(const struct lore_opts *o, const char *mask,
		      const char *what, struct thread *t, GByteArray *raw,
		      gboolean *retry, GError **err);

/*
 * A thread must hold the message it was asked for: a server that answers
 * with another thread (wrong ids) is failing, and its answer is neither
 * kept nor cached; a mirror may do better.
 */
static int
holds_id(struct thread *t, const char *id, const char *raw_url, gboolean *retry,
	 GError **err)
{
	g_autofree char *url = NULL, *safe = NULL;

	if (thread_get(t, id))
		return LORE_OK;
	url = lore_term_safe(raw_url, -1);
	safe = lore_term_safe(id, -1);
	*retry = TRUE;
	g_set_error(err, LORE_ERROR, LORE_ETEMP,
		    "cannot fetch %s: the server sent a thread of %u "
		    "message(s) without <%s>",
		    url, t->msgs->len, safe);
	return LORE_ETEMP;
}

static int
try_thread(const struct lore_opts *o, const char *mask, const char *id,
	   struct thread *t, GByteArray *raw, gboolean *retry, GError **err)
{
	g_autofree char *url = url_for_id(mask, id, "t.mbox.gz");
	g_autofree char *next = NULL;
	int rc;

	rc = fetch_mbox(o, url, FALSE, t, raw, retry, err);
	if (rc == LORE_OK)
		return holds_id(t, id, url, retry, err);
	if (rc != LORE_ENOTFOUND)
		return rc;
	/* not under this mask: ask the server where the id lives */
	rc = lookup(o, url, id, &next, retry, err);
	if (rc)
		return rc;
	if (!strcmp(next, url))
		return LORE_ENOTFOUND;
	rc = fetch_mbox(o, next, FALSE, t, raw, retry, err);
	return rc == LORE_OK ? holds_id(t, id, next, retry, err) : rc;
}

static int
try_search(const struct lore_opts *o, const char *mask, const char *query,
	   struct thread *t, GByteArray *raw, gboolean *retry, GError **err)
{
	g_autofree char *url = url_search(mask, query);

	return fetch_mbox(o, url, TRUE, t, raw, retry, err);
}

/*
 * The archive, then each mirror while the one before failed in a way a
 * mirror may not (down, stalled, 5xx, a broken answer). Messages reach
 * @t only from an answer that was whole.
 */
static int
with_mirrors(const struct lore_opts *o, try_fn fn, const char *what,
	     struct thread *t, GByteArray *raw, guint *added, GError **err)
{
	guint i, n = 1 + o->mirrors->len;
	int rc = LORE_ETEMP;

	for (i = 0; i < n; i++) {
		const char *mask = i ? o->mirrors->pdata[i - 1] : o->mask;
		struct thread *got = thread_new();
		gboolean retry = FALSE;
		GError *e = NULL;

		if (raw)
			g_byte_array_set_size(raw, 0);
		rc = fn(o, mask, what, got, raw, &retry, &e);
		if (rc == LORE_OK)
			*added += thread_merge(t, got);
		thread_free(got);
		if (rc == LORE_OK || !retry || i + 1 == n) {
			if (e)
				g_propagate_error(err, e);
			return rc;
		}
		{
			g_autofree char *base =
			    url_mask_base(o->mirrors->pdata[i]);

			lore_err("warning: %s; trying %s", e->message, base);
		}
		g_error_free(e);
	}
	return rc;
}

/*
 * Replay a cache entry; FALSE when it is missing, stale, damaged, or not
 * the thread of @id.
 */
static gboolean
from_cache(const struct lore_opts *o, const struct cache *c, const char *key,
	   const char *id, struct source *src, struct thread *t)
{
	GBytes *b = cache_get(c, key);
	struct thread *got;
	gboolean ok;
	gsize n;
	const void *p;

	if (!b)
		return FALSE;
	got = thread_new();
	p = g_bytes_get_data(b, &n);
	ok = fetch_replay(o, p, n, got) && thread_get(got, id);
	g_bytes_unref(b);
	if (ok)
		src->added += thread_merge(t, got);
	else
		cache_drop(c, key); /* damaged: fetch it again */
	thread_free(got);
	return ok;
}

static int
lore_fetch(struct source *src, const char *msgid, struct thread *t,
	   GError **err)
{
	const struct lore_opts *o = src->priv;
	g_autofree char *key = NULL, *dir = NULL, *safe = NULL;
	struct cache c;
	GByteArray *raw;
	GError *e = NULL;
	int rc;

	if (!msgid) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "the archive needs a Message-ID to look up");
		return LORE_EUSAGE;
	}
	safe = lore_term_safe(msgid, -1);
	key = url_for_id(o->mask, msgid, "t.mbox.gz");
	if (!key) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "<%s> cannot be looked up in an archive", safe);
		return LORE_EUSAGE;
	}
	dir = o->cache_dir ? g_strdup(o->cache_dir) : cache_default_dir();
	c.dir = dir;
	c.max_age = o->offline ? -1 : o->cache_ttl;
	if (!o->no_cache && from_cache(o, &c, key, msgid, src, t))
		return LORE_OK;
	if (o->offline) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "message <%s> is not in the cache, and --offline "
			    "forbids fetching it",
			    safe);
		return LORE_ENOTFOUND;
	}
	raw = o->no_cache ? NULL : g_byte_array_new();
	rc = with_mirrors(o, try_thread, msgid, t, raw, &src->added, &e);
	if (rc == LORE_OK && raw &&
	    !cache_put(&c, key, raw->data, raw->len, &e)) {
		lore_err("warning: %s", e->message);
		g_clear_error(&e);
	} else if (rc == LORE_OK && raw) {
		/* never an entry that is still fresh */
		if (o->cache_keep)
			cache_sweep(&c, MAX(o->cache_keep, o->cache_ttl));
	}
	if (raw)
		g_byte_array_unref(raw);
	if (rc == LORE_ENOTFOUND && !e) {
		g_autofree char *base = url_mask_base(o->mask);

		g_set_error(&e, LORE_ERROR, LORE_ENOTFOUND,
			    "message <%s> is not in the archive at %s", safe,
			    base);
	}
	if (e)
		g_propagate_error(err, e);
	return rc;
}

int
lore_search(const struct lore_opts *o, const char *query, struct thread *t,
	    GError **err)
{
	guint added = 0;
	int rc;

	if (o->offline) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "--offline: the archive's search is not asked");
		return LORE_ENOTFOUND;
	}
	rc = with_mirrors(o, try_search, query, t, NULL, &added, err);
	if (rc == LORE_ENOTFOUND && err && !*err)
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "the archive's search found nothing");
	return rc;
}

static int
lore_source_search(struct source *src, const char *query, struct thread *t,
		   GError **err)
{
	return lore_search(src->priv, query, t, err);
}

char *
lore_find_query(const struct source_query *q)
{
	GString *s = g_string_new("f:\"");
	g_autoptr(GDateTime) a = g_date_time_new_from_unix_utc(q->since);
	g_autoptr(GDateTime) b = g_date_time_new_from_unix_utc(q->until);
	g_autofree char *since = NULL, *until = NULL;
	const char *p;

	/* a phrase ends at '"', a word separator to Xapian anyway */
	for (p = q->from; *p; p++)
		g_string_append_c(s, *p == '"' ? ' ' : *p);
	if (!a || !b) {
		g_string_append_c(s, '"');
		return g_string_free(s, FALSE);
	}
	since = g_date_time_format(a, "%Y%m%d%H%M%S");
	until = g_date_time_format(b, "%Y%m%d%H%M%S");
	g_string_append_printf(s, "\" AND dt:%s..%s", since, until);
	return g_string_free(s, FALSE);
}

static int
lore_source_find(struct source *src, const struct source_query *q,
		 struct thread *t, GError **err)
{
	g_autofree char *query = lore_find_query(q);

	return lore_search(src->priv, query, t, err);
}

struct source *
source_lore_new(const struct lore_opts *o)
{
	struct source *s = g_new0(struct source, 1);

	s->name = "lore";
	s->fetch = lore_fetch;
	s->search = lore_source_search;
	s->find = lore_source_find;
	s->priv = (void *)o;
	s->label = url_mask_base(o->mask);
	return s;
}

/* A whole number, with a k/m/g suffix (powers of 1024) when @sized. */
static gboolean
parse_num(const char *v, gboolean sized, guint64 *out)
{
	char *end = NULL;
	guint64 n, mul = 1;

	if (!v || !g_ascii_isdigit(*v))
		return FALSE;
	n = g_ascii_strtoull(v, &end, 10);
	if (sized && *end) {
		switch (g_ascii_tolower(*end)) {
		case 'k':
			mul = 1024;
			break;
		case 'm':
			mul = 1024 * 1024;
			break;
		case 'g':
			mul = 1024 * 1024 * 1024;
			break;
		default:
			return FALSE;
		}
		end++;
	}
	if (*end || n > G_MAXUINT64 / mul || n * mul > G_MAXINT32 * 1024ULL)
		return FALSE;
	*out = n * mul;
	return TRUE;
}

/* b4's [lore] section: "lore.KEY" for lore-am.KEY when that is unset */
static const char *const lore_keys[][2] = {
    {"fallback", "lore.fallback"},
    {"timeout", "lore.requesttimeout"},
};

/* lore-am.KEY, else b4.B4KEY, else its "lore." key (b4's [lore]) */
static const char *
archive_key(struct config *cfg, const char *key, const char *b4key,
	    const char **lore_key)
{
	const char *v = config_get(cfg, key, b4key);
	guint i;

	*lore_key = NULL;
	for (i = 0; i < G_N_ELEMENTS(lore_keys); i++)
		if (!strcmp(key, lore_keys[i][0]))
			*lore_key = lore_keys[i][1];
	return v || !*lore_key ? v : config_raw(cfg, *lore_key);
}

static gboolean
config_num(struct config *cfg, const char *key, const char *b4key,
	   gboolean sized, guint64 min, guint64 *out, GError **err)
{
	const char *lk;
	const char *v = archive_key(cfg, key, b4key, &lk);

	if (!v)
		return TRUE;
	if (!parse_num(v, sized, out) || *out < min) {
		g_autofree char *s = lore_term_safe(v, -1);
		g_autofree char *name =
		    b4key ? g_strdup_printf("lore-am.%s (or b4.%s)", key, b4key)
		    : lk  ? g_strdup_printf("lore-am.%s (or %s)", key, lk)
			  : g_strconcat("lore-am.", key, NULL);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "git config %s: '%s' is not %s", name, s,
			    sized ? "a size such as 512m"
			    : min ? "a positive whole number"
				  : "a whole number");
		return FALSE;
	}
	return TRUE;
}

gboolean
lore_opts_set_mask(struct lore_opts *o, const char *mask, GError **err)
{
	char *m = url_mask_check(mask, err);

	if (!m)
		return FALSE;
	g_free(o->mask);
	o->mask = m;
	return TRUE;
}

gboolean
lore_opts_use_url(struct lore_opts *o, const char *url, GError **err)
{
	g_autofree char *id = msgid_from_arg(url);
	g_autofree char *mask = NULL, *want = NULL, *have = NULL;
	GError *e = NULL;

	mask = url_archive_mask(url, id, &e);
	if (e) {
		g_propagate_error(err, e);
		return FALSE;
	}
	if (!mask)
		return TRUE;
	want = url_root(mask);
	have = url_root(o->mask);
	if (!g_ascii_strcasecmp(want, have))
		return TRUE;
	g_free(o->mask);
	o->mask = g_steal_pointer(&mask);
	g_ptr_array_set_size(o->mirrors, 0);
	return TRUE;
}

gboolean
lore_opts_add_mirror(struct lore_opts *o, const char *mask, guint pos,
		     GError **err)
{
	char *m = url_mask_check(mask, err);

	if (!m)
		return FALSE;
	g_ptr_array_insert(o->mirrors, MIN(pos, o->mirrors->len), m);
	return TRUE;
}

gboolean
lore_max_size(struct config *cfg, guint64 *out, GError **err)
{
	*out = SOURCE_MAX_COST_DEFAULT;
	return config_num(cfg, "max-size", NULL, TRUE, 1, out, err);
}

gboolean
lore_opts_load(struct lore_opts *o, struct config *cfg, GError **err)
{
	guint64 ttl = 10, conn = 5, stall = 30, total = 300, keep = 30;
	guint64 all = 600;
	guint64 max;
	const char *v, *lk;

	memset(o, 0, sizeof(*o));
	o->mirrors = g_ptr_array_new_with_free_func(g_free);
	v = config_get(cfg, "midmask", "midmask");
	if (!lore_opts_set_mask(o, v ? v : LORE_DEFAULT_MASK, err))
		return FALSE;
	v = archive_key(cfg, "fallback", NULL, &lk);
	if (v) {
		g_auto(GStrv) list = g_strsplit_set(v, " \t,", -1);
		guint i;

		for (i = 0; list[i]; i++)
			if (*list[i] &&
			    !lore_opts_add_mirror(o, list[i], G_MAXUINT, err))
				return FALSE;
	}
	if (!config_num(cfg, "cache-expire", "cache-expire", FALSE, 0, &ttl,
			err) ||
	    !config_num(cfg, "cache-keep", NULL, FALSE, 0, &keep, err) ||
	    !config_num(cfg, "connect-timeout", NULL, FALSE, 1, &conn, err) ||
	    !config_num(cfg, "stall-timeout", NULL, FALSE, 1, &stall, err) ||
	    !config_num(cfg, "timeout", NULL, FALSE, 0, &total, err) ||
	    !config_num(cfg, "fetch-timeout", NULL, FALSE, 0, &all, err) ||
	    !lore_max_size(cfg, &max, err))
		return FALSE;
	o->cache_ttl = ttl * 60;
	o->cache_keep = (gint64)MIN(keep, 100000) * 24 * 60 * 60;
	o->connect_timeout = conn;
	o->stall_timeout = stall;
	o->timeout = total;
	/* all of a run's requests, lookups and mirrors together: one
	 * deadline from the start, so N mirrors cannot take N timeouts */
	o->fetch_timeout = all;
	if (all)
		o->deadline =
		    g_get_monotonic_time() + (gint64)all * G_USEC_PER_SEC;
	o->max_size = max;
	return TRUE;
}

void
lore_opts_clear(struct lore_opts *o)
{
	g_free(o->mask);
	g_free(o->cache_dir);
	if (o->mirrors)
		g_ptr_array_free(o->mirrors, TRUE);
	memset(o, 0, sizeof(*o));
}
