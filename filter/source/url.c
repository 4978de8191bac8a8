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
