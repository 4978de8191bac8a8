/*
 * mimesplit.c - the MIME structure of plain mail read without GMime: a
 * Content-Type value in its common forms, one level of multipart with
 * clean boundaries (a review sent as text and HTML), and the depth guard
 * before GMime reads the rest. GMime's parser builds a tree of objects
 * for each message, which costs a hundred times the bytes it reads.
 */
#include "mail/mimesplit.h"
#include "core/util.h"

#include <string.h>

/* The RFC 2045 token characters (not '*', which starts RFC 2231 syntax):
 * printable ASCII less the tspecials */
static const guint8 token_char[256] = {
    ['!'] = 1,	       ['#' ... '\''] = 1, ['+'] = 1,	      ['-' ... '.'] = 1,
    ['0' ... '9'] = 1, ['A' ... 'Z'] = 1,  ['^' ... '~'] = 1,
};

static inline gboolean
is_token(char c)
{
	return token_char[(guchar)c];
}

/* Skip a token at @p; NULL when there is none. */
static const char *
skip_token(const char *p)
{
	const char *q = p;

	while (is_token(*q))
		q++;
	return q > p ? q : NULL;
}

const char *
mime_find_ci(const char *s, const char *w)
{
	char up = g_ascii_toupper(w[0]), low = g_ascii_tolower(w[0]);
	char set[3] = {up, low, '\0'};
	size_t n = strlen(w);
	const char *p;

	for (p = s; (p = strpbrk(p, set)); p++)
		if (!g_ascii_strncasecmp(p, w, n))
			return p;
	return NULL;
}

gboolean
mime_word_is(const char *p, size_t n, const char *name)
{
	size_t i;

	/* @name is lower case; a loop, not a call: every part's type and
	 * parameters are asked a few times */
	for (i = 0; i < n; i++) {
		char c = p[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (!name[i] || c != name[i])
			return FALSE;
	}
	return !name[n];
}

void
mime_ctype_clear(struct mime_ctype *ct)
{
	g_free(ct->charset);
	g_free(ct->boundary);
	memset(ct, 0, sizeof(*ct));
}

/* Keep one parameter's value in *@slot: FALSE when it was there already. */
static gboolean
keep_param(char **slot, const char *val, size_t vl)
{
	if (*slot)
		return FALSE;
	*slot = g_strndup(val, vl);
	return TRUE;
}

gboolean
mime_ctype_simple(const char *v, struct mime_ctype *ct)
{
	const char *slash, *end, *p, *name, *eq, *val;
	size_t vl;

	memset(ct, 0, sizeof(*ct));
	if (!(slash = skip_token(v)) || *slash != '/' ||
	    !(end = skip_token(slash + 1)))
		return FALSE;
	for (p = end; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (*p++ != ';')
			goto odd;
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		name = p;
		if (!(eq = skip_token(name)) || *eq != '=')
			goto odd;
		p = val = eq + 1;
		if (*p == '"') {
			for (val = ++p; *p != '"'; p++)
				if (!*p || *p == '\\' || *p < ' ' ||
				    *p >= 0x7f || (p[0] == '=' && p[1] == '?'))
					goto odd;
			vl = p++ - val;
		} else {
			if (!(p = skip_token(val)))
				goto odd;
			vl = p - val;
		}
		if (mime_word_is(name, eq - name, "charset") &&
		    !keep_param(&ct->charset, val, vl))
			goto odd;
		if (mime_word_is(name, eq - name, "boundary") &&
		    !keep_param(&ct->boundary, val, vl))
			goto odd;
	}
	ct->type = v;
	ct->tlen = slash - v;
	ct->sub = slash + 1;
	ct->slen = end - (slash + 1);
	ct->flowed_word = mime_find_ci(v, "format=") != NULL;
	return TRUE;
odd:
	mime_ctype_clear(ct);
	return FALSE;
}

static void
leaf_clear(gpointer p)
{
	g_free(((struct mime_leaf *)p)->ctype);
}

/* A part's transfer encoding, as GMime names it; FALSE for an odd one. */
static gboolean
plain_encoding(const char *v, size_t n, GMimeContentEncoding *enc)
{
	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (mime_word_is(v, n, "7bit"))
		*enc = GMIME_CONTENT_ENCODING_7BIT;
	else if (mime_word_is(v, n, "8bit"))
		*enc = GMIME_CONTENT_ENCODING_8BIT;
	else if (mime_word_is(v, n, "binary"))
		*enc = GMIME_CONTENT_ENCODING_BINARY;
	else if (mime_word_is(v, n, "base64"))
		*enc = GMIME_CONTENT_ENCODING_BASE64;
	else if (mime_word_is(v, n, "quoted-printable"))
		*enc = GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
	else
		return FALSE;
	return TRUE;
}

/*
 * Read the header lines of one part from [p, end) into @leaf; returns
 * where its content starts, or NULL when they are not plain.
 */
static const char *
part_headers(const char *p, const char *end, struct mime_leaf *leaf)
{
	gboolean have_cte = FALSE;
	struct mime_ctype ct;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *c, *v;
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!nl)
			return NULL; /* no blank line before the boundary */
		if (ll == 0)
			break;
		/* GMime reads a header line as a C string, cut at a NUL */
		if (memchr(p, '\0', ll))
			return NULL;
		c = skip_token(p);
		/* a field name then ':' (a token here has no ':'), and no
		 * folded line, which GMime would unfold */
		if (!c || *c != ':' ||
		    (nl + 1 < end && (nl[1] == ' ' || nl[1] == '\t')))
			return NULL;
		v = c + 1;
		while (v < nl && (*v == ' ' || *v == '\t'))
			v++;
		if (mime_word_is(p, c - p, "content-type")) {
			if (leaf->ctype)
				return NULL;
			leaf->ctype = g_strndup(v, nl - v);
		} else if (mime_word_is(p, c - p,
					"content-transfer-encoding")) {
			if (have_cte || !plain_encoding(v, nl - v, &leaf->enc))
				return NULL;
			have_cte = TRUE;
		}
		p = nl + 1;
	}
	if (p >= end || !leaf->ctype || !mime_ctype_simple(leaf->ctype, &ct))
		return NULL;
	/* nested parts, flowed text whose header GMime may give as it
	 * rewrote it, and an empty charset are GMime's */
	if (mime_word_is(ct.type, ct.tlen, "multipart") ||
	    mime_word_is(ct.type, ct.tlen, "message") || ct.flowed_word ||
	    (ct.charset && !*ct.charset)) {
		mime_ctype_clear(&ct);
		return NULL;
	}
	mime_ctype_clear(&ct);
	return p + 1;
}

/* Does the line [l, l+ll) start with "--" @b (of @bl bytes)? */
static gboolean
boundary_like(const char *l, size_t ll, const char *b, size_t bl)
{
	return ll >= bl + 2 && l[0] == '-' && l[1] == '-' &&
	       !memcmp(l + 2, b, bl);
}

/*
 * Is @b a boundary of RFC 2046's characters without its space, at most 70
 * of them? Unfolding the header collapses white space that GMime keeps,
 * and GMime undoes quoting: a boundary of these reads the same to both.
 */
static gboolean
plain_boundary(const char *b, size_t bl)
{
	size_t i;

	if (!bl || bl > 70)
		return FALSE;
	for (i = 0; i < bl; i++)
		if (!g_ascii_isalnum(b[i]) && !strchr("'()+_,-./:=?", b[i]))
			return FALSE;
	return TRUE;
}

GArray *
mime_split_simple(const char *body, size_t n, const char *boundary)
{
	GArray *leaves = g_array_new(FALSE, TRUE, sizeof(struct mime_leaf));
	size_t bl = strlen(boundary), pos = 0, ll;
	const char *l, *part = NULL;
	gboolean closed = FALSE;

	g_array_set_clear_func(leaves, leaf_clear);
	if (!plain_boundary(boundary, bl))
		goto odd;
	while (lore_next_line(body, n, &pos, &l, &ll)) {
		struct mime_leaf leaf = {0};
		const char *content;

		if (!boundary_like(l, ll, boundary, bl))
			continue;
		if (closed || (ll != bl + 2 &&
			       (ll != bl + 4 || memcmp(l + bl + 2, "--", 2))))
			goto odd;
		/* a closing boundary before any part: GMime's to judge */
		if (!part && ll == bl + 4)
			goto odd;
		if (part) {
			/* the part ends before the line end ahead of the
			 * boundary, as GMime ends it */
			content = part_headers(part, l, &leaf);
			g_array_append_val(leaves, leaf);
			if (!content || content > l - 1)
				goto odd;
			g_array_index(leaves, struct mime_leaf, leaves->len - 1)
			    .data = content;
			g_array_index(leaves, struct mime_leaf, leaves->len - 1)
			    .len = l - 1 - content;
		}
		closed = ll == bl + 4;
		part = body + pos;
	}
	if (!closed)
		goto odd;
	return leaves;
odd:
	g_array_unref(leaves);
	return NULL;
}

/*
 * GMime checks each line against every open multipart boundary, so a
 * message nesting multiparts a million deep costs it half a minute. No
 * patch mail has more than a few parts: past LORE_MAX_MULTIPARTS
 * "Content-Type: multipart/..." lines the message has no text for us.
 */
#define LORE_MAX_MULTIPARTS 256

gboolean
mime_too_deep(const char *raw, size_t len)
{
	size_t pos = 0, ll;
	const char *l;
	guint n = 0;

	while (lore_next_line(raw, len, &pos, &l, &ll)) {
		const char *v = l + 13;

		if (!lore_has_prefix_ci(l, ll, "content-type:"))
			continue;
		while (v < l + ll && (*v == ' ' || *v == '\t'))
			v++;
		if (lore_has_prefix_ci(v, l + ll - v, "multipart/") &&
		    ++n > LORE_MAX_MULTIPARTS)
			return TRUE;
	}
	return FALSE;
}
