/*
 * fetch.c - one request to a public-inbox archive with libcurl. The thread
 * is a gzipped mboxrd sent as "Content-Type: application/gzip" without
 * Content-Encoding, so libcurl hands the bytes over as they are and zlib
 * inflates them (inflateInit2 with gzip framing) as they arrive; whole
 * messages are cut at each From_ line and handed to the thread, so the
 * inflated mbox is never held at once.
 */
#include "source/fetch.h"
#include "source/curllib.h" /* the curl_*() calls below go through it */
#include "mail/mbox.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#ifndef LORE_VERSION
#define LORE_VERSION "0.1"
#endif

/* the fuzz build uses a tiny chunk, so that cuts land everywhere */
#ifdef LORE_INFLATE_CHUNK
#define INFLATE_CHUNK LORE_INFLATE_CHUNK
#else
#define INFLATE_CHUNK 65536
#endif
#define PROGRESS_AFTER (G_USEC_PER_SEC / 2)
#define PROGRESS_EVERY (G_USEC_PER_SEC / 10)

enum fail {
	F_NONE,
	F_HTML,
	F_NOT_GZIP,
	F_EMPTY,
	F_CORRUPT,
	F_TRUNCATED,
	F_TOO_BIG,
	F_MSG_TOO_BIG,
	F_TOO_MUCH_MEMORY
};

/* One answer on its way in, from the network or from the cache. */
struct xfer {
	const struct lore_opts *o;
	CURL *curl;	  /* NULL when replaying a cache entry */
	struct thread *t; /* receives the messages */
	GByteArray *raw;  /* the gzip bytes as received, or NULL */
	z_stream zs;
	gboolean z_ready, z_done;
	guint8 head[2]; /* the first bytes, to check the gzip magic */
	guint nhead;
	struct mbox_stream *split; /* inflated bytes, cut into messages */
	guint8 *out;		   /* INFLATE_CHUNK bytes inflate writes */
	guint64 in_bytes, out_bytes;
	guint added;
	long status;
	enum fail fail;
	gint64 t0, drawn_at;
	gint64 last_byte; /* when the last bytes of the answer came, 0: none */
	gboolean drawn;
};

/*
 * What the answer holds in memory: the messages (the thread's estimate,
 * overhead included, so that millions of tiny ones count for what they
 * take), the gzip bytes kept for the cache, and the bytes not yet cut.
 */
static guint64
held(const struct xfer *x)
{
	return (guint64)x->t->cost + (x->raw ? x->raw->len : 0) +
	       mbox_stream_held(x->split);
}

static void
add_one(const char *msg, size_t len, void *data)
{
	struct xfer *x = data;

	if (x->fail)
		return;
	if (thread_add_raw(x->t, msg, len, "lore"))
		x->added++;
	if (held(x) > x->o->max_size)
		x->fail = F_TOO_MUCH_MEMORY;
}

static gboolean
inflate_some(struct xfer *x, const guint8 *p, size_t n)
{
	x->zs.next_in = (Bytef *)p;
	x->zs.avail_in = n;
	for (;;) {
		size_t got;
		int rc;

		if (x->z_done) {
			if (!x->zs.avail_in)
				return TRUE;
			/* RFC 1952 allows several members, one after another */
			inflateReset(&x->zs);
			x->z_done = FALSE;
		}
		x->zs.next_out = x->out;
		x->zs.avail_out = INFLATE_CHUNK;
		rc = inflate(&x->zs, Z_NO_FLUSH);
		got = INFLATE_CHUNK - x->zs.avail_out;
		x->out_bytes += got;
		if (x->out_bytes > x->o->max_size) {
			x->fail = F_TOO_BIG;
			return FALSE;
		}
		if (rc == Z_STREAM_END) {
			x->z_done = TRUE;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			x->fail = F_CORRUPT;
			return FALSE;
		}
		mbox_stream_feed(x->split, (const char *)x->out, got);
		if (x->fail)
			return FALSE;
		/* no message boundary for more than a message may hold: a
		 * bomb of one endless message, held whole until the cap */
		if (mbox_stream_held(x->split) >
		    LORE_MAX_MESSAGE + INFLATE_CHUNK) {
			x->fail = F_MSG_TOO_BIG;
			return FALSE;
		}
		if (!x->z_done &&
		    (rc == Z_BUF_ERROR || (!x->zs.avail_in && x->zs.avail_out)))
			return TRUE;
	}
}

static gboolean
looks_html(struct xfer *x, const guint8 *p, size_t n)
{
	char *ct = NULL;

	if (x->curl &&
	    curl_easy_getinfo(x->curl, CURLINFO_CONTENT_TYPE, &ct) ==
		CURLE_OK &&
	    ct && lore_has_prefix_ci(ct, strlen(ct), "text/html"))
		return TRUE;
	while (n && g_ascii_isspace(*p)) {
		p++;
		n--;
	}
	return n && *p == '<';
}

/* The next bytes of the body; FALSE (and x->fail) to stop. */
static gboolean
feed(struct xfer *x, const guint8 *p, size_t n)
{
	const guint8 *start = p;
	size_t total = n;

	if (!x->z_ready) {
		while (x->nhead < 2 && n) {
			x->head[x->nhead++] = *p++;
			n--;
		}
		if (x->nhead < 2)
			return TRUE;
		if (x->head[0] != 0x1f || x->head[1] != 0x8b) {
			x->fail =
			    looks_html(x, start, total) ? F_HTML : F_NOT_GZIP;
			return FALSE;
		}
		if (inflateInit2(&x->zs, 16 + MAX_WBITS) != Z_OK) {
			x->fail = F_CORRUPT;
			return FALSE;
		}
		x->z_ready = TRUE;
		if (!inflate_some(x, x->head, 2))
			return FALSE;
	}
	return inflate_some(x, p, n);
}

/* The body has ended: was it a whole gzip stream? */
static gboolean
finish(struct xfer *x)
{
	if (!x->z_ready) {
		x->fail = x->nhead ? F_NOT_GZIP : F_EMPTY;
		return FALSE;
	}
	if (!x->z_done) {
		x->fail = F_TRUNCATED;
		return FALSE;
	}
	mbox_stream_end(x->split);
	return !x->fail;
}

static void
xfer_init(struct xfer *x, const struct lore_opts *o, struct thread *t,
	  GByteArray *raw)
{
	memset(x, 0, sizeof(*x));
	x->o = o;
	x->t = t;
	x->raw = raw;
	x->split = mbox_stream_new(add_one, x);
	x->out = g_malloc(INFLATE_CHUNK);
	x->t0 = g_get_monotonic_time();
}

static void
xfer_clear(struct xfer *x)
{
	if (x->z_ready)
		inflateEnd(&x->zs);
	mbox_stream_free(x->split);
	g_free(x->out);
	if (x->drawn)
		fputs("\r\033[K", stderr);
}

static size_t
on_body(char *p, size_t size, size_t nmemb, void *data)
{
	struct xfer *x = data;
	size_t n = size * nmemb;

	x->last_byte = g_get_monotonic_time();
	curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &x->status);
	if (x->status != 200)
		return n; /* an error page: only the status matters */
	x->in_bytes += n;
	if (x->raw)
		g_byte_array_append(x->raw, (const guint8 *)p, n);
	return feed(x, (const guint8 *)p, n) ? n : 0;
}

static int
on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
	    curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer *x = data;
	gint64 now = g_get_monotonic_time();
	g_autofree char *size = NULL;

	if (now - x->t0 < PROGRESS_AFTER || now - x->drawn_at < PROGRESS_EVERY)
		return 0;
	size = source_size_text(x->in_bytes);
	fprintf(stderr, "\r\033[Klore-am: fetching the thread: %s, %u messages",
		size, x->added);
	fflush(stderr);
	x->drawn = TRUE;
	x->drawn_at = now;
	return 0;
}

/* No easy handle: libcurl could not be loaded, or could not start. */
static int
no_curl(const char *url, GError **err)
{
	g_autoptr(GError) e = NULL;

	g_set_error(err, LORE_ERROR, LORE_ETEMP, "cannot fetch %s: %s", url,
		    curllib_start(&e) ? "libcurl failed to start" : e->message);
	return LORE_ETEMP;
}

/* Milliseconds this request may take: lore-am.timeout, or less when
 * lore-am.fetch-timeout comes first; 0 for no limit. */
static long
request_ms(const struct lore_opts *o)
{
	gint64 ms = o->timeout * 1000, left;

	if (!o->deadline)
		return ms;
	/* past the deadline: 1 ms, so the request ends at once and says so */
	left = MAX((o->deadline - g_get_monotonic_time()) / 1000, 1);
	return (long)(ms ? MIN(ms, left) : left);
}

static CURL *
easy_new(const struct lore_opts *o, const char *url, char *errbuf)
{
	CURL *c;

	/* curllib.c starts libcurl, once */
	if (!curllib_start(NULL))
		return NULL;
	c = curl_easy_init();
	if (!c)
		return NULL;
	errbuf[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "lore-am/" LORE_VERSION);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
	/* a stall: less than one byte a second for that long */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o->stall_timeout);
	/* a slow-loris server dribbles just enough never to stall: the
	 * whole request has a deadline too, and so have all of them */
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, request_ms(o));
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	/* never let a redirect downgrade https to http */
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR,
			 g_ascii_strncasecmp(url, "https:", 6) ? "http,https"
							       : "https");
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	/* the escaped id is one segment; let nothing rewrite the path */
	curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
	return c;
}

/*
 * Bytes still came, but fewer than one a second (curl's low-speed floor)
 * for lore-am.stall-timeout seconds: a drip, not silence.
 */
static void
stall_words(struct xfer *x, const char *url, curl_off_t total_us, GError **err)
{
	g_autofree char *got = source_size_text(x->in_bytes);

	g_set_error(err, LORE_ERROR, LORE_ETEMP,
		    "cannot fetch %s: slower than 1 byte/s for %ld s (%s in "
		    "%ld s; the server is dripping; see lore-am.stall-timeout)",
		    url, x->o->stall_timeout, got,
		    (long)(total_us / G_USEC_PER_SEC));
}

/*
 * Why a transfer stopped, as words for the user, and its status. The URL
 * may come from a redirect and libcurl's message may quote the server:
 * both are made safe for a terminal.
 */
static int
explain(struct xfer *x, const char *raw_url, CURLcode rc, const char *errbuf,
	gboolean *retry, GError **err)
{
	g_autofree char *cap = NULL, *why = NULL;
	g_autofree char *url = lore_term_safe(raw_url, -1);
	curl_off_t pre = 0;

	*retry = TRUE;
	switch (x->fail) {
	case F_HTML:
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the server sent an HTML page, "
			    "not a gzipped mbox (a proxy or a bot check?)",
			    url);
		return LORE_ETEMP;
	case F_NOT_GZIP:
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the answer is not gzip data",
			    url);
		return LORE_ETEMP;
	case F_EMPTY:
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the answer is empty", url);
		return LORE_ETEMP;
	case F_CORRUPT:
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the gzip data is corrupt", url);
		return LORE_ETEMP;
	case F_TRUNCATED:
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the gzip data ends early "
			    "(truncated answer)",
			    url);
		return LORE_ETEMP;
	case F_TOO_BIG:
		*retry = FALSE;
		cap = source_size_text(x->o->max_size);
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot fetch %s: the thread inflates to more than "
			    "%s (see lore-am.max-size)",
			    url, cap);
		return LORE_EUSAGE;
	case F_TOO_MUCH_MEMORY:
		*retry = FALSE;
		cap = source_over_text(x->o->max_size, x->added);
		g_set_error(err, LORE_ERROR, LORE_EUSAGE, "cannot fetch %s: %s",
			    url, cap);
		return LORE_EUSAGE;
	case F_MSG_TOO_BIG:
		*retry = FALSE;
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot fetch %s: a message of the thread inflates "
			    "to more than %s",
			    url, LORE_MAX_MESSAGE_TEXT);
		return LORE_EUSAGE;
	case F_NONE:
		break;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		curl_off_t total = 0;
		gint64 now = g_get_monotonic_time();

		curl_easy_getinfo(x->curl, CURLINFO_PRETRANSFER_TIME_T, &pre);
		curl_easy_getinfo(x->curl, CURLINFO_TOTAL_TIME_T, &total);
		/* a request cut by the deadline ends a few ms before it */
		*retry = !x->o->deadline ||
			 now < x->o->deadline - G_USEC_PER_SEC / 2;
		if (!*retry)
			g_set_error(
			    err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: the archive's answers took more "
			    "than %ld s in all (see lore-am.fetch-timeout)",
			    url, x->o->fetch_timeout);
		else if (x->o->timeout &&
			 total >= (curl_off_t)x->o->timeout * 1000000 - 500000)
			g_set_error(
			    err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: not done after %ld s (the server "
			    "is too slow; see lore-am.timeout)",
			    url, x->o->timeout);
		else if (pre && x->last_byte &&
			 now - x->last_byte <
			     x->o->stall_timeout * G_USEC_PER_SEC)
			stall_words(x, url, total, err);
		else if (pre)
			g_set_error(err, LORE_ERROR, LORE_ETEMP,
				    "cannot fetch %s: no data for %ld s (the "
				    "server stalled)",
				    url, x->o->stall_timeout);
		else
			g_set_error(
			    err, LORE_ERROR, LORE_ETEMP,
			    "cannot fetch %s: no connection within %ld s", url,
			    x->o->connect_timeout);
		return LORE_ETEMP;
	}
	why = lore_term_safe(errbuf[0] ? errbuf : curl_easy_strerror(rc), -1);
	g_set_error(err, LORE_ERROR, LORE_ETEMP, "cannot fetch %s: %s", url,
		    why);
	return LORE_ETEMP;
}

int
fetch_bad_status(long status, const char *raw_url, gboolean *retry,
		 GError **err)
{
	g_autofree char *url = NULL;

	if (status == 404 || status == 410) {
		*retry = FALSE;
		return LORE_ENOTFOUND;
	}
	/* mirrors are for servers that fail, not for refusals (4xx) */
	*retry = status >= 500;
	url = lore_term_safe(raw_url, -1);
	g_set_error(err, LORE_ERROR, LORE_ETEMP,
		    "cannot fetch %s: the server answered HTTP %ld", url,
		    status);
	return LORE_ETEMP;
}

int
fetch_mbox(const struct lore_opts *o, const char *url, gboolean post,
	   struct thread *t, GByteArray *raw, gboolean *retry, GError **err)
{
	char errbuf[CURL_ERROR_SIZE];
	struct xfer x;
	CURLcode rc;
	int ret;

	xfer_init(&x, o, t, raw);
	x.curl = easy_new(o, url, errbuf);
	if (!x.curl) {
		xfer_clear(&x);
		*retry = FALSE;
		return no_curl(url, err);
	}
	curl_easy_setopt(x.curl, CURLOPT_FOLLOWLOCATION, 1L);
	if (post)
		curl_easy_setopt(x.curl, CURLOPT_POSTFIELDS, "");
	curl_easy_setopt(x.curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(x.curl, CURLOPT_WRITEDATA, &x);
	if (o->progress) {
		curl_easy_setopt(x.curl, CURLOPT_XFERINFOFUNCTION, on_progress);
		curl_easy_setopt(x.curl, CURLOPT_XFERINFODATA, &x);
		curl_easy_setopt(x.curl, CURLOPT_NOPROGRESS, 0L);
	}
	rc = curl_easy_perform(x.curl);
	curl_easy_getinfo(x.curl, CURLINFO_RESPONSE_CODE, &x.status);
	if (rc != CURLE_OK)
		ret = explain(&x, url, rc, errbuf, retry, err);
	else if (x.status != 200)
		ret = fetch_bad_status(x.status, url, retry, err);
	else if (!finish(&x))
		ret = explain(&x, url, rc, errbuf, retry, err);
	else
		ret = LORE_OK;
	curl_easy_cleanup(x.curl);
	xfer_clear(&x);
	return ret;
}

int
fetch_head(const struct lore_opts *o, const char *url, long *status,
	   char **location, gboolean *retry, GError **err)
{
	char errbuf[CURL_ERROR_SIZE];
	char *loc = NULL;
	CURLcode rc;
	CURL *c;
	int ret = LORE_OK;

	*status = 0;
	*location = NULL;
	*retry = FALSE;
	c = easy_new(o, url, errbuf);
	if (!c) {
		return no_curl(url, err);
	}
	curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		struct xfer x = {.o = o, .curl = c};

		ret = explain(&x, url, rc, errbuf, retry, err);
	} else {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
		if (curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc) ==
			CURLE_OK &&
		    loc)
			*location = g_strdup(loc);
	}
	curl_easy_cleanup(c);
	return ret;
}

gboolean
fetch_replay(const struct lore_opts *o, const void *data, size_t len,
	     struct thread *t)
{
	struct xfer x;
	gboolean ok;

	xfer_init(&x, o, t, NULL);
	ok = feed(&x, data, len) && finish(&x);
	xfer_clear(&x);
	return ok;
}
