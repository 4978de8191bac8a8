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

/* One server (or the system's resolver) and what became of it. */
struct server {
	struct __res_state res;
	gboolean res_ok; /* res_ninit succeeded */
	gboolean down;	 /* a query got no answer: ask it no more */
};

struct dnstxt {
	struct server *srv; /* asked in order */
	guint n;
	gint64 spent;	   /* microseconds spent waiting on the servers */
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

/*
 * "ADDRESS:PORT" (IPv4), "[ADDRESS]:PORT" (IPv6, RFC 3986's form), or an
 * address alone (port 53), as b4's attestation-dns-resolvers lists them.
 */
static gboolean
parse_server(const char *s, struct sockaddr_in *sin, struct sockaddr_in6 *sin6)
{
	const char *colon = strrchr(s, ':');
	g_autofree char *host = NULL;
	guint64 port = 53;

	memset(sin, 0, sizeof(*sin));
	memset(sin6, 0, sizeof(*sin6));
	if (*s != '[' && (!colon || strchr(s, ':') != colon)) {
		/* no port: an IPv4 address, or an IPv6 one unbracketed */
		sin->sin_family = AF_INET;
		sin->sin_port = htons(53);
		if (inet_pton(AF_INET, s, &sin->sin_addr) == 1)
			return TRUE;
		sin->sin_family = 0;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(53);
		return inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1;
	}
	if (!g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &port, NULL))
		return FALSE;
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

/* A resolver state asking @sin or @sin6 (both NULL: resolv.conf's). */
static void
server_init(struct server *v, const struct sockaddr_in *sin,
	    const struct sockaddr_in6 *sin6)
{
	v->res_ok = res_ninit(&v->res) == 0;
	if (!v->res_ok)
		return;
	/* one try of two seconds: DNSTXT_BUDGET_MS bounds the rest */
	v->res.retrans = 2;
	v->res.retry = 1;
	if (sin)
		set_server(&v->res, sin, sin6);
}

struct dnstxt *
dnstxt_new(const char *servers, GError **err)
{
	g_auto(GStrv) list = g_strsplit_set(servers ? servers : "", " \t,", -1);
	struct sockaddr_in sin[DNSTXT_MAX_SERVERS];
	struct sockaddr_in6 sin6[DNSTXT_MAX_SERVERS];
	struct dnstxt *d;
	guint i, n = 0;

	for (i = 0; list[i]; i++) {
		if (!*list[i])
			continue;
		if (n == DNSTXT_MAX_SERVERS) {
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "more than %d nameservers listed",
				    DNSTXT_MAX_SERVERS);
			return NULL;
		}
		if (!parse_server(list[i], &sin[n], &sin6[n])) {
			g_autofree char *s = lore_term_safe(list[i], -1);

			g_set_error(
			    err, LORE_ERROR, LORE_EUSAGE,
			    "nameserver '%s' is not IPV4-ADDRESS[:PORT] "
			    "or [IPV6-ADDRESS]:PORT",
			    s);
			return NULL;
		}
		n++;
	}
	d = g_new0(struct dnstxt, 1);
	d->cache =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, answer_free);
	d->n = n ? n : 1;
	d->srv = g_new0(struct server, d->n);
	for (i = 0; i < d->n; i++)
		server_init(&d->srv[i], n ? &sin[i] : NULL,
			    n ? &sin6[i] : NULL);
	return d;
}

void
dnstxt_free(struct dnstxt *d)
{
	guint i;

	if (!d)
		return;
	/* also after a failed res_ninit(), which may have loaded the
	 * resolver's configuration already (valgrind saw it kept) */
	for (i = 0; i < d->n; i++)
		res_nclose(&d->srv[i].res);
	g_free(d->srv);
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
ask(struct dnstxt *d, struct server *v, const char *name, guchar *buf)
{
	gint64 t0 = g_get_monotonic_time();
	int n;

	n = res_nquery(&v->res, name, ns_c_in, ns_t_txt, buf,
		       DNSTXT_MAX_ANSWER);
	d->spent += g_get_monotonic_time() - t0;
	return n;
}

/*
 * The servers in order until one answers, yes or no: one that gives no
 * answer is marked down and the next is asked, within the run's budget.
 * *@n is the answer's length, or -1 with @a set.
 */
static void
ask_in_order(struct dnstxt *d, const char *name, guchar *buf, int *n,
	     struct answer *a)
{
	gboolean any = FALSE;
	guint i;

	*n = -1;
	for (i = 0; i < d->n; i++) {
		struct server *v = &d->srv[i];

		if (!v->res_ok || v->down)
			continue;
		any = TRUE;
		if (d->spent > (gint64)DNSTXT_BUDGET_MS * 1000)
			break;
		if ((*n = ask(d, v, name, buf)) >= 0)
			return;
		if (v->res.res_h_errno == HOST_NOT_FOUND ||
		    v->res.res_h_errno == NO_DATA) {
			a->st = DNSTXT_NOTFOUND;
			a->txt = g_strdup("no such record");
			return;
		}
		v->down = TRUE;
	}
	a->txt = g_strdup(any || d->srv[0].res_ok ? "DNS not answering"
						  : "no resolver configured");
}

static struct answer *
query(struct dnstxt *d, const char *name)
{
	struct answer *a = g_new0(struct answer, 1);
	g_autofree guchar *buf = g_malloc(DNSTXT_MAX_ANSWER);
	int n;

	a->st = DNSTXT_FAIL;
	ask_in_order(d, name, buf, &n, a);
	if (n < 0)
		return a;
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
