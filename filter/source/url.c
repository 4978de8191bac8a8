/*
 * url.c - archive URLs from masks and Message-IDs. public-inbox decodes
 * percent-escapes in the id's path segment (its mid_escape keeps a few
 * sub-delimiters raw; we escape them too, which it accepts), and RFC 3986
 * says a "." or ".." segment is removed by clients, so such ids are
 * escaped whole.
 */
#include "source/url.h"
#include "core/util.h"

#include <string.h>

char *
url_escape_id(const char *id)
{
	GString *s;
	const char *p;

	if (id[strspn(id, ".")])
		return g_uri_escape_string(id, NULL, FALSE);
	s = g_string_new(NULL);
	for (p = id; *p; p++)
		g_string_append(s, "%2E");
	return g_string_free(s, FALSE);
}

/* Where the authority ("host:port") of an http(s) URL starts, or NULL. */
static const char *
authority(const char *url)
{
	if (!g_ascii_strncasecmp(url, "http://", 7))
		return url + 7;
	if (!g_ascii_strncasecmp(url, "https://", 8))
		return url + 8;
	return NULL;
}

gboolean
url_is_http(const char *url)
{
	const char *a = url ? authority(url) : NULL;

	return a && *a && !strchr("/?#", *a);
}

/* The offset of the first "%s" in @mask ("%%" is a literal '%'), or -1. */
static gssize
placeholder(const char *mask)
{
	const char *p;

	for (p = mask; *p; p++) {
		if (p[0] == '%' && p[1] == 's')
			return p - mask;
		if (p[0] == '%' && p[1] == '%')
			p++;
	}
	return -1;
}

char *
url_mask_check(const char *mask, GError **err)
{
	const char *a = authority(mask), *p;
	size_t alen;
	gssize ph;

	if (!url_is_http(mask)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "archive URL '%s' must start with http:// or "
			    "https:// and name a host",
			    mask);
		return NULL;
	}
	for (p = mask; *p; p++) {
		if ((guchar)*p <= ' ' || *p == 0x7f) {
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "archive URL '%s' holds white space or "
				    "control characters",
				    mask);
			return NULL;
		}
	}
	for (p = a; *p && *p != '/'; p++) {
		if (*p == '%' || (guchar)*p >= 0x80) {
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "archive URL '%s' must name its host in "
				    "ASCII (punycode), without %%",
				    mask);
			return NULL;
		}
	}
	if (strpbrk(mask, "?#")) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "archive URL '%s' may not have a query or fragment",
			    mask);
		return NULL;
	}
	alen = strcspn(a, "/");
	ph = placeholder(mask);
	if (ph < 0) {
		g_autofree char *base = g_strdup(mask);
		size_t n = strlen(base);

		while (n > (size_t)(a - mask) + alen && base[n - 1] == '/')
			base[--n] = '\0';
		return g_strconcat(base, "/%s", NULL);
	}
	if ((size_t)ph < (size_t)(a - mask) + alen + 1 ||
	    placeholder(mask + ph + 2) >= 0) {
		g_set_error(
		    err, LORE_ERROR, LORE_EUSAGE,
		    "archive URL '%s' needs exactly one %%s, in its path",
		    mask);
		return NULL;
	}
	return g_strdup(mask);
}

char *
url_for_id(const char *mask, const char *id, const char *leaf)
{
	g_autofree char *esc = NULL;
	char *u, *out;
	size_t n;

	if (!id[strspn(id, ".")])
		return NULL;
	esc = url_escape_id(id);
	u = lore_mask_fill(mask, esc);
	n = strlen(u);
	while (n && u[n - 1] == '/')
		u[--n] = '\0';
	out = g_strconcat(u, "/", leaf ? leaf : "", NULL);
	g_free(u);
	return out;
}

char *
url_mask_base(const char *mask)
{
	gssize ph = placeholder(mask);
	g_autofree char *pre =
	    g_strndup(mask, ph < 0 ? strlen(mask) : (size_t)ph);

	return lore_mask_fill(pre, "");
}

char *
url_root(const char *url)
{
	const char *a;

	if (!url_is_http(url))
		return NULL;
	a = authority(url);
	return g_strdup_printf("%.*s/", (int)(a - url + strcspn(a, "/?#")),
			       url);
}

char *
url_join(const char *dir, const char *leaf)
{
	size_t n;

	if (!url_is_http(dir))
		return NULL;
	n = strcspn(dir, "?#");
	return g_strdup_printf("%.*s%s%s", (int)n, dir,
			       n && dir[n - 1] == '/' ? "" : "/", leaf);
}

char *
url_search(const char *mask, const char *query)
{
	g_autofree char *base = url_mask_base(mask);
	g_autofree char *q = g_uri_escape_string(query, NULL, FALSE);
	size_t n = strlen(base);

	return g_strdup_printf("%s%s?x=m&q=%s", base,
			       n && base[n - 1] == '/' ? "" : "/", q);
}

/*
 * "HOST[:PORT]" (HOST a DNS name, an IPv4 address or an [IPv6] literal)
 * of @n bytes: the bytes a host name may hold and nothing else, so that
 * what libcurl connects to is what the user reads.
 */
static gboolean
hostport_ok(const char *a, size_t n)
{
	size_t h, i;

	if (n && a[0] == '[') {
		h = 1 + strspn(a + 1, "0123456789abcdefABCDEF:.");
		if (h >= n || a[h] != ']' || h == 1)
			return FALSE;
		h++;
	} else {
		h = strspn(a, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
		if (!h || a[0] == '.' || a[0] == '-')
			return FALSE;
	}
	if (h == n)
		return TRUE;
	/* a port: 1 to 5 digits, at most 65535 */
	if (a[h] != ':' || n - h - 1 < 1 || n - h - 1 > 5)
		return FALSE;
	for (i = h + 1; i < n; i++)
		if (!g_ascii_isdigit(a[i]))
			return FALSE;
	return g_ascii_strtoull(a + h + 1, NULL, 10) <= 65535;
}

/* The list segment as a mask's text: a name public-inbox could serve. */
static char *
list_for_mask(const char *seg, size_t n)
{
	GString *s;
	size_t i;

	if (!n || n > 255 || (n <= 2 && !strncmp(seg, "..", n)) ||
	    strspn(seg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789._~+-%") < n)
		return NULL;
	s = g_string_sized_new(n + 4);
	for (i = 0; i < n; i++) {
		if (seg[i] == '%') /* a mask's literal '%' is "%%" */
			g_string_append_c(s, '%');
		g_string_append_c(s, seg[i]);
	}
	return g_string_free(s, FALSE);
}

/* TRUE when the path segment @seg of @n bytes, unescaped, is @id. */
static gboolean
segment_is(const char *seg, size_t n, const char *id)
{
	g_autofree char *raw = g_strndup(seg, n);
	g_autofree char *un = g_uri_unescape_string(raw, NULL);

	return !g_strcmp0(un ? un : raw, id);
}

static gboolean
refuse(GError **err, const char *url, const char *after, const char *why)
{
	size_t scheme = (size_t)(authority(url) - url);
	g_autofree char *shown =
	    g_strdup_printf("%.*s%s", (int)scheme, url, after);
	g_autofree char *safe = lore_term_safe(shown, -1);

	g_set_error(err, LORE_ERROR, LORE_EUSAGE, "archive URL '%s': %s", safe,
		    why);
	return FALSE;
}

/* The authority of @url checked; FALSE and @err when it is not safe. */
static gboolean
authority_ok(const char *url, GError **err)
{
	const char *a = authority(url);
	size_t n = strcspn(a, "/?#");
	const char *at = memchr(a, '@', n);

	if (at) /* shown without the user and password */
		return refuse(err, url, at + 1, "names a user or password");
	if (n > URL_HOST_MAX + 6)
		return refuse(err, url, a, "its host is longer than 255 bytes");
	if (!hostport_ok(a, n))
		return refuse(err, url, a, "its host is not a host name");
	return TRUE;
}

char *
url_archive_mask(const char *url, const char *id, GError **err)
{
	const char *a, *path, *list, *seg;
	size_t alen, llen, slen;
	g_autofree char *name = NULL;

	if (!url_is_http(url) || !id)
		return NULL;
	a = authority(url);
	alen = strcspn(a, "/?#");
	path = a + alen;
	if (*path != '/')
		return NULL;
	list = path + 1;
	llen = strcspn(list, "/?#");
	if (list[llen] != '/')
		return NULL;
	seg = list + llen + 1;
	slen = strcspn(seg, "/?#");
	if (!segment_is(seg, slen, id) || !(name = list_for_mask(list, llen)))
		return NULL;
	if (!authority_ok(url, err))
		return NULL;
	return g_strdup_printf("%.*s/%s/%%s", (int)(a - url + alen), url, name);
}
