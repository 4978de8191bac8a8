/*
 * dnstxt.c - TXT queries with the resolver glibc keeps in libc (res_nquery,
 * ns_parserr, RFC 1035), one private resolver state per run so the server
 * and time limits set here never touch the process's own.
 */
#include "attest/dnstxt.h"
#include "core/util.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <netdb.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>

struct dnstxt {
	struct __res_state res;
	gboolean res_ok;   /* res_ninit succeeded */
	gboolean down;	   /* a query got no answer: ask no more */
	gint64 spent;	   /* microseconds spent waiting on the server */
	GHashTable *cache; /* name (lower case) -> struct answer */
};

struct answer {
	enum dnstxt_status st;
	char *txt;
};

static void
answer_free(gpointer p)
{
	struct answer *a = p;

	g_free(a->txt);
	g_free(a);
}

/* "ADDRESS:PORT" (IPv4) or "[ADDRESS]:PORT" (IPv6, RFC 3986's form). */
static gboolean
parse_server(const char *s, struct sockaddr_in *sin, struct sockaddr_in6 *sin6)
{
	const char *colon = strrchr(s, ':');
	g_autofree char *host = NULL;
	guint64 port;

	if (!colon ||
	    !g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &port, NULL))
		return FALSE;
	memset(sin, 0, sizeof(*sin));
	memset(sin6, 0, sizeof(*sin6));
	if (*s == '[') {
		if (colon - s < 3 || colon[-1] != ']')
			return FALSE;
		host = g_strndup(s + 1, colon - s - 2);
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((guint16)port);
		return inet_pton(AF_INET6, host, &sin6->sin6_addr) == 1;
	}
	host = g_strndup(s, colon - s);
	sin->sin_family = AF_INET;
	sin->sin_port = htons((guint16)port);
	return inet_pton(AF_INET, host, &sin->sin_addr) == 1;
}

/*
 * The one server @server names, in place of resolv.conf's. glibc keeps an
 * IPv6 server's address apart (_u._ext.nsaddrs, malloc'd, freed by
 * res_nclose) and marks its nsaddr_list slot with family 0; the slots
 * dropped here are freed now, as res_nclose frees only nscount of them.
 */
static void
set_server(struct __res_state *res, const struct sockaddr_in *sin,
	   const struct sockaddr_in6 *sin6)
{
	int i;

	for (i = 0; i < res->nscount && i < MAXNS; i++) {
		free(res->_u._ext.nsaddrs[i]);
		res->_u._ext.nsaddrs[i] = NULL;
	}
	if (sin6->sin6_family == AF_INET6) {
		/* glibc frees it with free(): malloc'd, not g_malloc'd */
		res->_u._ext.nsaddrs[0] = malloc(sizeof(*sin6));
		if (!res->_u._ext.nsaddrs[0])
			g_error("out of memory");
		memcpy(res->_u._ext.nsaddrs[0], sin6, sizeof(*sin6));
		memset(&res->nsaddr_list[0], 0, sizeof(res->nsaddr_list[0]));
	} else {
		res->nsaddr_list[0] = *sin;
	}
	res->nscount = 1;
}

struct dnstxt *
dnstxt_new(const char *server, GError **err)
{
	struct dnstxt *d = g_new0(struct dnstxt, 1);
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	if (server && !parse_server(server, &sin, &sin6)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "nameserver '%s' is not IPV4-ADDRESS:PORT or "
			    "[IPV6-ADDRESS]:PORT",
			    server);
		g_free(d);
		return NULL;
	}
	d->cache =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, answer_free);
	d->res_ok = res_ninit(&d->res) == 0;
	if (d->res_ok) {
		/* one try of two seconds: DNSTXT_BUDGET_MS bounds the rest */
		d->res.retrans = 2;
		d->res.retry = 1;
		if (server)
			set_server(&d->res, &sin, &sin6);
	}
	return d;
}

void
dnstxt_free(struct dnstxt *d)
{
	if (!d)
		return;
	/* also after a failed res_ninit(), which may have loaded the
	 * resolver's configuration already (valgrind saw it kept) */
	res_nclose(&d->res);
	g_hash_table_destroy(d->cache);
	g_free(d);
}

char *
dnstxt_parse(const guchar *buf, size_t len)
{
	ns_msg msg;
	ns_rr rr;
	int i, n;

	/* ns_initparse takes an int; no DNS message is longer than 65535 */
	if (len > DNSTXT_MAX_ANSWER || ns_initparse(buf, (int)len, &msg) < 0)
		return NULL;
	n = ns_msg_count(msg, ns_s_an);
	for (i = 0; i < n; i++) {
		GString *s;
		const guchar *p, *end;

		if (ns_parserr(&msg, ns_s_an, i, &rr) < 0)
			return NULL;
		if (ns_rr_type(rr) != ns_t_txt || ns_rr_class(rr) != ns_c_in)
			continue;
		/* ns_parserr checked that the RDATA lies inside @buf */
		p = ns_rr_rdata(rr);
		end = p + ns_rr_rdlen(rr);
		s = g_string_sized_new(ns_rr_rdlen(rr));
		while (p < end) {
			size_t l = *p++;

			if (l > (size_t)(end - p))
				l = end - p;
			g_string_append_len(s, (const char *)p, l);
			p += l;
		}
		/* a key record is text: a NUL would cut it short unseen */
		if (memchr(s->str, '\0', s->len)) {
			g_string_free(s, TRUE);
			return NULL;
		}
		return g_string_free(s, FALSE);
	}
	return NULL;
}

/* res_nquery() into a buffer that holds any DNS message, so that a large
 * record (over TCP) is read whole; the answer's length is the whole
 * answer's, which may be more than was stored: only what was is read. */
static int
ask(struct dnstxt *d, const char *name, guchar **buf)
{
	gint64 t0 = g_get_monotonic_time();
	int n;

	*buf = g_malloc(DNSTXT_MAX_ANSWER);
	n = res_nquery(&d->res, name, ns_c_in, ns_t_txt, *buf,
		       DNSTXT_MAX_ANSWER);
	d->spent += g_get_monotonic_time() - t0;
	return n;
}

static struct answer *
query(struct dnstxt *d, const char *name)
{
	struct answer *a = g_new0(struct answer, 1);
	g_autofree guchar *buf = NULL;
	int n;

	a->st = DNSTXT_FAIL;
	if (!d->res_ok) {
		a->txt = g_strdup("no resolver configured");
		return a;
	}
	if (d->down || d->spent > (gint64)DNSTXT_BUDGET_MS * 1000) {
		a->txt = g_strdup("DNS not answering");
		return a;
	}
	n = ask(d, name, &buf);
	if (n < 0) {
		switch (d->res.res_h_errno) {
		case HOST_NOT_FOUND:
		case NO_DATA:
			a->st = DNSTXT_NOTFOUND;
			a->txt = g_strdup("no such record");
			break;
		default:
			d->down = TRUE;
			a->txt = g_strdup("DNS not answering");
		}
		return a;
	}
	if (n > DNSTXT_MAX_ANSWER) {
		/* cannot come over DNS (its TCP length is 16 bits): a
		 * resolver's own doing; never read it cut short */
		a->st = DNSTXT_TOOBIG;
		a->txt = g_strdup("the answer is larger than 64 KiB");
		return a;
	}
	a->txt = dnstxt_parse(buf, n);
	if (a->txt) {
		a->st = DNSTXT_OK;
	} else {
		a->st = DNSTXT_NOTFOUND;
		a->txt = g_strdup("no TXT record");
	}
	return a;
}

enum dnstxt_status
dnstxt_lookup(struct dnstxt *d, const char *name, const char **txt)
{
	g_autofree char *key = g_ascii_strdown(name, -1);
	struct answer *a = g_hash_table_lookup(d->cache, key);

	if (!a) {
		a = query(d, key);
		g_hash_table_insert(d->cache, g_steal_pointer(&key), a);
	}
	*txt = a->txt;
	return a->st;
}
