/*
 * dnstxt.h - DNS TXT look-ups for the DKIM keys (RFC 6376 3.6.2.2), through
 * the system's resolver or the servers LORE_AM_NAMESERVER (or
 * lore-am.nameserver, or the attestation-dns-resolvers list) names, tried
 * in order. Each name is asked once a run: answers, misses and failures
 * are cached; a server that timed out or refused is not asked again (the
 * next one is), and all queries of a run share a few seconds
 * (DNSTXT_BUDGET_MS), so dead resolvers cost that once, not per patch.
 *
 * Ownership: a struct dnstxt owns its cache; the strings dnstxt_lookup()
 * returns are the cache's, valid until dnstxt_free().
 */
#ifndef LORE_DNSTXT_H
#define LORE_DNSTXT_H

#include <glib.h>

#define DNSTXT_BUDGET_MS 4000
/* The most servers one list names. */
#define DNSTXT_MAX_SERVERS 8
/* The most of an answer read: 64 KiB holds any DNS message (RFC 1035
 * 4.2.2: TCP's length field is 16 bits), so a TXT record of any size DNS
 * carries is read whole. */
#define DNSTXT_MAX_ANSWER 65536

enum dnstxt_status {
	DNSTXT_OK,	 /* a TXT record was found */
	DNSTXT_NOTFOUND, /* the name or its TXT record does not exist */
	DNSTXT_FAIL,	 /* no answer: server down, slow, or budget spent */
	DNSTXT_TOOBIG,	 /* an answer past DNSTXT_MAX_ANSWER: not read */
};

struct dnstxt;

/*
 * @servers: one or more of "ADDRESS[:PORT]" (IPv4), "[ADDRESS]:PORT" or a
 * bare address (IPv6), separated by spaces or commas, port 53 when none is
 * given, at most DNSTXT_MAX_SERVERS; NULL (or empty) for the system's
 * resolver. Returns NULL and sets @err (LORE_EUSAGE) naming an entry that
 * is not of that form.
 */
struct dnstxt *dnstxt_new(const char *servers, GError **err);
void dnstxt_free(struct dnstxt *d);

/*
 * The TXT record of @name, its strings joined (RFC 7208 3.3 style, as DKIM
 * wants), in *@txt; on failure *@txt is a short reason ("timed out").
 */
enum dnstxt_status dnstxt_lookup(struct dnstxt *d, const char *name,
				 const char **txt);

/*
 * The first TXT record of the DNS answer in the @len bytes at @buf, its
 * strings joined (g_free), or NULL when the answer is malformed, holds
 * none, or the record holds a NUL byte (a key record is text). Reads
 * nothing outside @buf. (For the fuzz harness too.)
 */
char *dnstxt_parse(const guchar *buf, size_t len);

#endif
