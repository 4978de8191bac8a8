/*
 * msgid.c - Message-ID parsing from headers, command-line arguments and
 * archive URLs (public-inbox serves a message at /LIST/ID/, /r/ID and, on
 * lore, patch.msgid.link/ID; ids are percent-escaped in paths).
 */
#include "core/msgid.h"

#include <string.h>

/* The ASCII bytes an id may hold: printable, not '<' or '>' (0x80 and
 * above are UTF-8's to judge) */
static const guint8 id_byte_ok[256] = {
    [0x21 ... 0x3b] = TRUE,
    [0x3d] = TRUE,
    [0x3f ... 0x7e] = TRUE,
};

gboolean
msgid_valid(const char *id)
{
	const char *p;

	/* RFC 6532 allows UTF-8 in ids, but never broken UTF-8: an id goes
	 * into headers, URLs and messages on a terminal */
	if (!id || !*id)
		return FALSE;
	/* the ASCII ids nearly every mailer makes, checked byte by byte */
	for (p = id; id_byte_ok[(guchar)*p]; p++)
		;
	if (!*p)
		return TRUE;
	if ((guchar)*p < 0x80)
		return FALSE; /* a blank, a control, '<' or '>' */
	if (!g_utf8_validate(id, -1, NULL))
		return FALSE;
	for (p = id; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c <= ' ' || c == 0x7f || (c >= 0x80 && c < 0xa0) ||
		    c == '<' || c == '>')
			return FALSE;
	}
	return TRUE;
}

/*
 * Are the @n bytes at @s (n > 0) all id_byte_ok, the ASCII id nearly
 * every mailer makes? Eight at a time; FALSE leaves the verdict to
 * msgid_valid() (a NUL, a blank, a bracket or UTF-8 among them).
 */
static gboolean
ascii_id(const char *s, size_t n)
{
	const guint64 ones = 0x0101010101010101ull, high = ones * 0x80;
	guint64 w, lt, gt;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		lt = w ^ (ones * '<');
		gt = w ^ (ones * '>');
		/* a byte below '!', of 0x7f and above, '<' or '>' */
		if (((w - ones * 0x21) & ~w & high) ||
		    (((w + ones) | w) & high) || ((lt - ones) & ~lt & high) ||
		    ((gt - ones) & ~gt & high))
			return FALSE;
	}
	for (; i < n; i++)
		if (!id_byte_ok[(guchar)s[i]])
			return FALSE;
	return n > 0;
}

static char *
checked(char *id)
{
	if (!msgid_valid(id)) {
		g_free(id);
		return NULL;
	}
	return id;
}

/*
 * Where the first id of a header value lies: between the first '<' and
 * the next '>', white space trimmed; or, as some mailers drop the
 * brackets, the first word (up to a NUL). FALSE for no value.
 */
static gboolean
header_id_span(const char *value, size_t n, const char **id, size_t *len)
{
	const char *lt, *gt, *end = value + n, *s, *e;

	if (!value)
		return FALSE;
	lt = memchr(value, '<', n);
	if (lt && (gt = memchr(lt + 1, '>', end - lt - 1))) {
		/* trimmed before it is copied, as g_strstrip() would */
		for (lt++; lt < gt && g_ascii_isspace(*lt); lt++)
			;
		while (gt > lt && g_ascii_isspace(gt[-1]))
			gt--;
		*id = lt;
		*len = gt - lt;
		return TRUE;
	}
	/* g_strstrip() of the value up to a NUL, then its first word */
	e = value + strnlen(value, n);
	for (s = value; s < e && g_ascii_isspace(*s); s++)
		;
	while (e > s && g_ascii_isspace(e[-1]))
		e--;
	*id = s;
	for (*len = 0; s + *len < e && !strchr(" \t\r\n", s[*len]); ++*len)
		;
	return TRUE;
}

char *
msgid_from_header_len(const char *value, size_t n)
{
	const char *id;
	size_t len;

	if (!header_id_span(value, n, &id, &len))
		return NULL;
	return checked(g_strndup(id, len));
}

char *
msgid_from_header_to(const char *value, size_t n, char *buf)
{
	const char *id;
	size_t len;

	if (!header_id_span(value, n, &id, &len))
		return NULL;
	memcpy(buf, id, len);
	buf[len] = '\0';
	return ascii_id(buf, len) || msgid_valid(buf) ? buf : NULL;
}

char *
msgid_from_header(const char *value)
{
	return value ? msgid_from_header_len(value, strlen(value)) : NULL;
}

/* Each id of a References value, valid or not, in turn: @fn gets its
 * bytes, white space around it trimmed. */
static void
each_listed_id(const char *value, size_t n,
	       void (*fn)(const char *id, size_t len, void *data), void *data)
{
	const char *p = value, *end;

	if (!value)
		return; /* no References field */
	end = value + n;
	while (p && (p = memchr(p, '<', end - p))) {
		const char *gt = memchr(p + 1, '>', end - p - 1), *s, *e;

		if (!gt)
			break;
		s = p + 1;
		e = gt;
		while (s < e && g_ascii_isspace(*s))
			s++;
		while (e > s && g_ascii_isspace(e[-1]))
			e--;
		fn(s, e - s, data);
		p = gt + 1;
	}
}

static void
add_copy(const char *id, size_t len, void *data)
{
	char *c = checked(g_strndup(id, len));

	if (c)
		g_ptr_array_add(data, c);
}

GPtrArray *
msgid_list_len(const char *value, size_t n)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);

	each_listed_id(value, n, add_copy, ids);
	return ids;
}

struct list_to {
	GPtrArray *ids;
	char *buf, *o;
};

static void
add_into(const char *id, size_t len, void *data)
{
	struct list_to *l = data;

	memcpy(l->o, id, len);
	l->o[len] = '\0';
	if (!ascii_id(l->o, len) && !msgid_valid(l->o))
		return; /* its room is taken by the next */
	g_ptr_array_add(l->ids, l->o);
	l->o += strlen(l->o) + 1;
}

size_t
msgid_list_to(const char *value, size_t n, GPtrArray *ids, char *buf)
{
	struct list_to l = {ids, buf, buf};

	each_listed_id(value, n, add_into, &l);
	return l.o - buf;
}

GPtrArray *
msgid_list(const char *value)
{
	return msgid_list_len(value, value ? strlen(value) : 0);
}

static char *
id_from_url(const char *url)
{
	const char *path = strstr(url, "://");
	g_auto(GStrv) segs = NULL;
	GPtrArray *parts;
	char *id = NULL;
	guint i;

	path = strchr(path + 3, '/');
	if (!path)
		return NULL;
	path++;
	/* Drop query and fragment: they never hold the id. */
	{
		g_autofree char *p = g_strndup(path, strcspn(path, "?#"));
		segs = g_strsplit(p, "/", -1);
	}
	parts = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; segs[i]; i++) {
		char *un;

		if (!*segs[i])
			continue;
		un = g_uri_unescape_string(segs[i], NULL);
		g_ptr_array_add(parts, un ? un : g_strdup(segs[i]));
	}
	/* Message-IDs nearly always hold an '@': prefer that segment. */
	for (i = 0; i < parts->len && !id; i++)
		if (strchr(parts->pdata[i], '@'))
			id = g_strdup(parts->pdata[i]);
	if (!id && parts->len) {
		if (strstr(url, "msgid.link/"))
			id = g_strdup(parts->pdata[0]);
		else if (parts->len >= 2 && !strcmp(parts->pdata[0], "r"))
			id = g_strdup(parts->pdata[1]);
		else if (parts->len >= 2)
			id = g_strdup(parts->pdata[1]);
	}
	g_ptr_array_free(parts, TRUE);
	return id;
}

char *
msgid_from_arg(const char *arg)
{
	g_autofree char *s = g_strstrip(g_strdup(arg ? arg : ""));
	char *id;

	/* notmuch's id: and b4's (and public-inbox's) rfc822msgid: */
	if (g_str_has_prefix(s, "id:"))
		memmove(s, s + 3, strlen(s + 3) + 1);
	else if (g_str_has_prefix(s, "rfc822msgid:"))
		memmove(s, s + 12, strlen(s + 12) + 1);
	if (g_str_has_prefix(s, "http://") || g_str_has_prefix(s, "https://"))
		return checked(id_from_url(s));
	if (*s == '<')
		return msgid_from_header(s);
	id = g_strdup(s);
	/* notmuch quotes ids that hold special characters */
	if (*id == '"' && strlen(id) >= 2 && id[strlen(id) - 1] == '"') {
		char *t = g_strndup(id + 1, strlen(id) - 2);
		g_free(id);
		id = t;
	}
	return checked(id);
}

guint
msgid_hash(gconstpointer key)
{
	const char *s = key;
	size_t n = strlen(s), i;
	guint64 h = 0x9e3779b97f4a7c15ull ^ n, w;

	/* eight bytes a step, each mixed in by a multiply and a shift */
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (w = 0; i < n; i++)
		w = w << 8 | (guchar)s[i];
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return (guint)(h ^ h >> 29 ^ h >> 47);
}
