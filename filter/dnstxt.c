/*
 * dnstxt.c - TXT queries with the resolver glibc keeps in libc (res_nquery,
 * ns_parserr, RFC 1035), one private resolver state per run so the server
 * and time limits set here never touch the process's own.
 */
#include "dnstxt.h"
#include "util.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <netdb.h>
#include <resolv.h>
#include <string.h>

struct dnstxt {
	struct __res_state res;
	int res_state;	 /* 0: not set up yet, 1: ready, -1: res_ninit failed */
	gboolean server; /* @sin names the server to ask */
	struct sockaddr_in sin;
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

static gboolean
parse_server(const char *s, struct sockaddr_in *sin)
{
	const char *colon = strrchr(s, ':');
	g_autofree char *host = NULL;
	guint64 port;

	if (!colon ||
	    !g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &port, NULL))
		return FALSE;
	host = g_strndup(s, colon - s);
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((guint16)port);
	return inet_pton(AF_INET, host, &sin->sin_addr) == 1;
}

struct dnstxt *
dnstxt_new(const char *server, GError **err)
{
	struct dnstxt *d = g_new0(struct dnstxt, 1);

	if (server && !parse_server(server, &d->sin)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "nameserver '%s' is not IPV4-ADDRESS:PORT", server);
		g_free(d);
		return NULL;
	}
	d->cache =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, answer_free);
	d->server = server != NULL;
	return d;
}

/*
 * The resolver state is set up on the first query, not in dnstxt_new():
 * res_ninit() reads /etc/resolv.conf, and most runs check no signature.
 */
static gboolean
resolver_ready(struct dnstxt *d)
{
	if (d->res_state)
		return d->res_state > 0;
	d->res_state = res_ninit(&d->res) == 0 ? 1 : -1;
	if (d->res_state < 0)
		return FALSE;
	/* one try of two seconds: DNSTXT_BUDGET_MS bounds the rest */
	d->res.retrans = 2;
	d->res.retry = 1;
	if (d->server) {
		d->res.nsaddr_list[0] = d->sin;
		d->res.nscount = 1;
	}
	return TRUE;
}

void
dnstxt_free(struct dnstxt *d)
{
	if (!d)
		return;
	/* also after a failed res_ninit(), which may have loaded the
	 * resolver's configuration already (valgrind saw it kept) */
	if (d->res_state)
		res_nclose(&d->res);
	g_hash_table_destroy(d->cache);
	g_free(d);
}

/* The first TXT record of the answer, its character-strings joined. */
static char *
first_txt(const guchar *buf, int len)
{
	ns_msg msg;
	ns_rr rr;
	int i, n;

	if (ns_initparse(buf, len, &msg) < 0)
		return NULL;
	n = ns_msg_count(msg, ns_s_an);
	for (i = 0; i < n; i++) {
		GString *s;
		const guchar *p, *end;

		if (ns_parserr(&msg, ns_s_an, i, &rr) < 0)
			return NULL;
		if (ns_rr_type(rr) != ns_t_txt || ns_rr_class(rr) != ns_c_in)
			continue;
		p = ns_rr_rdata(rr);
		end = p + ns_rr_rdlen(rr);
		s = g_string_new(NULL);
		while (p < end) {
			size_t l = *p++;

			if (l > (size_t)(end - p))
				l = end - p;
			g_string_append_len(s, (const char *)p, l);
			p += l;
		}
		return g_string_free(s, FALSE);
	}
	return NULL;
}

static struct answer *
query(struct dnstxt *d, const char *name)
{
	struct answer *a = g_new0(struct answer, 1);
	guchar buf[NS_MAXMSG > 8192 ? 8192 : NS_MAXMSG];
	gint64 t0;
	int n;

	a->st = DNSTXT_FAIL;
	if (!resolver_ready(d)) {
		a->txt = g_strdup("no resolver configured");
		return a;
	}
	if (d->down || d->spent > (gint64)DNSTXT_BUDGET_MS * 1000) {
		a->txt = g_strdup("DNS not answering");
		return a;
	}
	t0 = g_get_monotonic_time();
	n = res_nquery(&d->res, name, ns_c_in, ns_t_txt, buf, sizeof(buf));
	d->spent += g_get_monotonic_time() - t0;
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
	a->txt = first_txt(buf, n);
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
