/*
 * lore.h - the public-inbox archive as a thread source (lore.kernel.org by
 * default): GET <mask>/t.mbox.gz (fetch.h does the request, inflating and
 * splitting the thread as it streams in); on 404 the server root's /<id>/
 * redirect names the list that has the id; mirrors are tried when a server
 * is down or failing; answers are kept in the cache (cache.h). Also the
 * archive's search (the source's search, for gather_search()); and the
 * settings of all of it.
 *
 * Ownership: struct lore_opts owns its strings and mirror list
 * (lore_opts_clear() frees them). A source from source_lore_new() and
 * lore_search() borrow the options, which must outlive them.
 */
#ifndef LORE_LORE_H
#define LORE_LORE_H

#include <glib.h>

#include "core/config.h"
#include "source/source.h"
#include "thread/thread.h"

#define LORE_DEFAULT_MASK "https://lore.kernel.org/all/%s"

struct lore_opts {
	char *mask;	      /* checked by url_mask_check() */
	GPtrArray *mirrors;   /* masks tried on transient failures */
	long connect_timeout; /* seconds */
	long stall_timeout;   /* seconds without a byte */
	long timeout;	      /* seconds for a whole request, 0: none */
	long fetch_timeout;   /* seconds for all requests of the run, 0: none */
	gint64 deadline;      /* ... as a g_get_monotonic_time(), 0: none */
	guint64 max_size;     /* cap on the decompressed thread, bytes */
	gint64 cache_ttl;     /* seconds an entry stays fresh */
	gint64 cache_keep;    /* seconds an unused entry is kept; 0: always */
	char *cache_dir;      /* NULL: cache_default_dir() */
	gboolean no_cache;    /* neither read nor write the cache */
	gboolean offline;     /* the cache only, entries of any age */
	gboolean progress;    /* a progress line on stderr */
};

/*
 * Defaults, then git config: lore-am.midmask (b4.midmask), lore-am.fallback
 * (lore.fallback: masks separated by spaces or commas), lore-am.cache-expire
 * (b4.cache-expire, minutes), lore-am.connect-timeout, lore-am.stall-timeout,
 * lore-am.timeout (lore.requesttimeout),
 * lore-am.fetch-timeout (seconds; its deadline counts from this call),
 * lore-am.max-size (bytes, k/m/g). FALSE and @err (LORE_EUSAGE) for a value
 * that makes no sense.
 */
gboolean lore_opts_load(struct lore_opts *o, struct config *cfg, GError **err);
void lore_opts_clear(struct lore_opts *o);

/*
 * lore-am.max-size (default 512m), which bounds the memory of the thread
 * from every source: FALSE and @err (LORE_EUSAGE) for a value that makes
 * no sense.
 */
gboolean lore_max_size(struct config *cfg, guint64 *out, GError **err);

/* Set the mask (from -L); FALSE and @err when it is not usable. */
gboolean lore_opts_set_mask(struct lore_opts *o, const char *mask,
			    GError **err);
/*
 * A message's URL given as the argument ("https://HOST/LIST/ID/"): the
 * thread is fetched from that host and list, as b4 does, in place of the
 * configured archive and its mirrors (they mirror another archive); kept
 * when the URL names the configured archive's own host (lore's /all/
 * sees more than one list) or is not of that form (url_archive_mask()).
 * FALSE and @err (LORE_EUSAGE) for a URL not safe to ask.
 */
gboolean lore_opts_use_url(struct lore_opts *o, const char *url, GError **err);
/* Insert a mirror mask at @pos (--fallback: before the config's ones). */
gboolean lore_opts_add_mirror(struct lore_opts *o, const char *mask, guint pos,
			      GError **err);

/*
 * The archive source. fetch() adds the whole thread public-inbox sends for
 * the id, messages that only share its subject included (the caller keeps
 * the reply tree, thread_prune()). It returns LORE_ENOTFOUND when the
 * archive does not have the id (or, --offline, the cache does not),
 * LORE_ETEMP when no server gave a sound answer, LORE_EUSAGE for an id no
 * URL can name or a thread over the size cap.
 */
struct source *source_lore_new(const struct lore_opts *o);

/*
 * Ask the archive's search (POST <base>/?x=m&q=QUERY) and add the matching
 * messages to @t. LORE_ENOTFOUND when nothing matches. Never cached. The
 * archive source's search(): the stages after gathering ask
 * gather_search(), never this.
 */
int lore_search(const struct lore_opts *o, const char *query, struct thread *t,
		GError **err);

/*
 * The archive's search for a struct source_query (the source's find()):
 * f:"ADDRESS" AND dt:YYYYMMDDhhmmss..YYYYMMDDhhmmss, in UTC (g_free).
 */
char *lore_find_query(const struct source_query *q);

#endif
