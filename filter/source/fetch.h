/*
 * fetch.h - one HTTP(S) request to an archive, with libcurl, under the
 * rules every request follows: lore-am's User-Agent, the connect and stall
 * timeouts, the request's and the run's deadlines (lore_opts.deadline),
 * http and https only, at most 5 redirects and none from https
 * to http, TLS verified, proxies from the environment, the path sent as
 * built. An mbox answer must be gzip: it is inflated as it streams in,
 * capped at lore_opts.max_size, and cut into messages for a thread; an
 * HTML page, a truncated or corrupt stream is an error that says so.
 *
 * Ownership: the caller owns every argument and result string (g_free);
 * messages go to @t, which owns them.
 */
#ifndef LORE_FETCH_H
#define LORE_FETCH_H

#include <glib.h>

#include "source/lore.h"
#include "thread/thread.h"

/*
 * GET (or, with @post, an empty POST) @url; the mbox it answers goes to
 * @t, the gzip bytes as received to @raw when not NULL. Returns a
 * lore_status: LORE_ENOTFOUND for 404 or 410 (without @err), LORE_ETEMP
 * when the server could not be reached or gave an unusable answer,
 * LORE_EUSAGE over the size cap. *retry says whether a mirror may do
 * better (never after a 4xx or the cap).
 */
int fetch_mbox(const struct lore_opts *o, const char *url, gboolean post,
	       struct thread *t, GByteArray *raw, gboolean *retry,
	       GError **err);

/*
 * HEAD @url without following redirects: *status, and *location (the
 * absolute redirect target) for a 3xx. LORE_OK whenever the server
 * answered; LORE_ETEMP and @err when it could not be reached.
 */
int fetch_head(const struct lore_opts *o, const char *url, long *status,
	       char **location, gboolean *retry, GError **err);

/* The error for an HTTP status other than 200 (see fetch_mbox()). */
int fetch_bad_status(long status, const char *url, gboolean *retry,
		     GError **err);

/*
 * Inflate and cut a gzipped mbox held in memory (a cache entry) into @t.
 * FALSE when it is not one whole gzip stream (or over the size cap);
 * messages already added to @t are then the caller's to throw away.
 */
gboolean fetch_replay(const struct lore_opts *o, const void *data, size_t len,
		      struct thread *t);

#endif
