/*
 * tyjson.c - a bounded RFC 8259 reader for b4's tracking files: recursive
 * descent over the text, a depth limit, \uXXXX escapes with their
 * surrogate pairs, strings checked to be UTF-8 and free of NUL (the rest
 * of lore-am works on C strings). Nothing past the one value but white
 * space is accepted, as Python's json.load() accepts nothing more.
 */
#include "git/tyjson.h"
#include "core/util.h"

#include <string.h>

struct reader {
	const char *p, *end;
	guint line;
	GError **err;
};

static gboolean
fail(struct reader *r, const char *what)
{
	g_set_error(r->err, LORE_ERROR, LORE_EUSAGE, "line %u: %s", r->line,
		    what);
	return FALSE;
}

static void
skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
				 *r->p == '\n' || *r->p == '\r')) {
		if (*r->p == '\n')
			r->line++;
		r->p++;
	}
}

static struct tyjson *
node(enum tyjson_type type)
{
	struct tyjson *j = g_new0(struct tyjson, 1);

	j->type = type;
	if (type == TYJSON_ARRAY || type == TYJSON_OBJECT)
		j->kids =
		    g_ptr_array_new_with_free_func((GDestroyNotify)tyjson_free);
	if (type == TYJSON_OBJECT)
		j->keys = g_ptr_array_new_with_free_func(g_free);
	return j;
}

void
tyjson_free(struct tyjson *j)
{
	if (!j)
		return;
	g_free(j->str);
	if (j->kids)
		g_ptr_array_free(j->kids, TRUE);
	if (j->keys)
		g_ptr_array_free(j->keys, TRUE);
	g_free(j);
}

static int
hex4(const char *s)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		int d = g_ascii_xdigit_value(s[i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* "\uXXXX" at r->p (after the backslash's 'u'), a pair when it is a
 * high surrogate; the code point, or 0 on a bad one */
static gunichar
escape_u(struct reader *r)
{
	int hi, lo;

	if (r->end - r->p < 4 || (hi = hex4(r->p)) < 0)
		return 0;
	r->p += 4;
	if (hi < 0xd800 || hi > 0xdfff)
		return (gunichar)hi;
	if (hi > 0xdbff || r->end - r->p < 6 || r->p[0] != '\\' ||
	    r->p[1] != 'u' || (lo = hex4(r->p + 2)) < 0xdc00 || lo > 0xdfff)
		return 0;
	r->p += 6;
	return 0x10000 + (((gunichar)hi - 0xd800) << 10) +
	       ((gunichar)lo - 0xdc00);
}

static gboolean
escape(struct reader *r, GString *s)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	gunichar u;

	if (r->p >= r->end)
		return fail(r, "the text ends inside a string");
	if (*r->p == 'u') {
		r->p++;
		u = escape_u(r);
		if (!u)
			return fail(r, "a bad or NUL \\u escape in a string");
		g_string_append_unichar(s, u);
		return TRUE;
	}
	k = strchr(from, *r->p);
	if (!k || !*r->p)
		return fail(r, "an unknown escape in a string");
	g_string_append_c(s, to[k - from]);
	r->p++;
	return TRUE;
}

/* the string at r->p (its opening quote), into a new string */
static char *
string(struct reader *r)
{
	GString *s = g_string_new(NULL);

	r->p++;
	while (r->p < r->end && *r->p != '"') {
		guchar c = *r->p;

		if (c < 0x20) {
			fail(r, "a control character inside a string");
			goto bad;
		}
		if (c == '\\') {
			r->p++;
			if (!escape(r, s))
				goto bad;
			continue;
		}
		g_string_append_c(s, c);
		r->p++;
	}
	if (r->p >= r->end) {
		fail(r, "the text ends inside a string");
		goto bad;
	}
	r->p++;
	if (!g_utf8_validate(s->str, s->len, NULL)) {
		fail(r, "a string that is not UTF-8");
		goto bad;
	}
	return g_string_free(s, FALSE);
bad:
	g_string_free(s, TRUE);
	return NULL;
}

static struct tyjson *value(struct reader *r, guint depth);

/* the members or items after '{' or '[' up to @close */
static gboolean
members(struct reader *r, struct tyjson *j, char close, guint depth)
{
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return TRUE;
	}
	for (;;) {
		struct tyjson *kid;

		skip_space(r);
		if (close == '}') {
			char *key;

			if (r->p >= r->end || *r->p != '"')
				return fail(r, "an object member without a "
					       "quoted name");
			if (!(key = string(r)))
				return FALSE;
			g_ptr_array_add(j->keys, key);
			skip_space(r);
			if (r->p >= r->end || *r->p != ':')
				return fail(r, "no ':' after a member's name");
			r->p++;
		}
		if (!(kid = value(r, depth + 1)))
			return FALSE;
		g_ptr_array_add(j->kids, kid);
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return TRUE;
		}
		return fail(r, close == '}' ? "no ',' or '}' after a member"
					    : "no ',' or ']' after an item");
	}
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static struct tyjson *
number(struct reader *r)
{
	const char *s = r->p, *p = r->p;
	struct tyjson *j;

	if (p < r->end && *p == '-')
		p++;
	if (p >= r->end || !g_ascii_isdigit(*p))
		return fail(r, "an unknown value"), NULL;
	if (*p == '0')
		p++;
	else
		while (p < r->end && g_ascii_isdigit(*p))
			p++;
	if (p < r->end && *p == '.') {
		if (++p >= r->end || !g_ascii_isdigit(*p))
			return fail(r, "a number without digits after '.'"),
			       NULL;
		while (p < r->end && g_ascii_isdigit(*p))
			p++;
	}
	if (p < r->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < r->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= r->end || !g_ascii_isdigit(*p))
			return fail(r, "a number without an exponent"), NULL;
		while (p < r->end && g_ascii_isdigit(*p))
			p++;
	}
	j = node(TYJSON_NUMBER);
	j->str = g_strndup(s, p - s);
	r->p = p;
	return j;
}

static gboolean
word(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
		return FALSE;
	r->p += n;
	return TRUE;
}

static struct tyjson *
value(struct reader *r, guint depth)
{
	struct tyjson *j;

	if (depth > TYJSON_MAX_DEPTH)
		return fail(r, "nested too deep"), NULL;
	skip_space(r);
	if (r->p >= r->end)
		return fail(r, "the text ends where a value should be"), NULL;
	switch (*r->p) {
	case '{':
	case '[':
		j = node(*r->p == '{' ? TYJSON_OBJECT : TYJSON_ARRAY);
		if (!members(r, j, *r->p == '{' ? '}' : ']', depth)) {
			tyjson_free(j);
			return NULL;
		}
		return j;
	case '"':
		j = node(TYJSON_STRING);
		if (!(j->str = string(r))) {
			tyjson_free(j);
			return NULL;
		}
		return j;
	}
	if (word(r, "true") || word(r, "false")) {
		j = node(TYJSON_BOOL);
		j->b = r->p[-1] == 'e' && r->p[-2] == 'u';
		return j;
	}
	if (word(r, "null"))
		return node(TYJSON_NULL);
	return number(r);
}

struct tyjson *
tyjson_parse(const char *text, gsize len, GError **err)
{
	struct reader r = {text, text + len, 1, err};
	struct tyjson *j;

	if (len > TYJSON_MAX_BYTES) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "larger than %" G_GSIZE_FORMAT " bytes",
			    TYJSON_MAX_BYTES);
		return NULL;
	}
	if (!(j = value(&r, 0)))
		return NULL;
	skip_space(&r);
	if (r.p < r.end) {
		fail(&r, "more text after the value");
		tyjson_free(j);
		return NULL;
	}
	return j;
}

const struct tyjson *
tyjson_get(const struct tyjson *j, const char *key)
{
	guint i;

	if (!j || j->type != TYJSON_OBJECT)
		return NULL;
	for (i = j->keys->len; i-- > 0;)
		if (!strcmp(j->keys->pdata[i], key))
			return j->kids->pdata[i];
	return NULL;
}

const char *
tyjson_str(const struct tyjson *j)
{
	return j && j->type == TYJSON_STRING ? j->str : NULL;
}

guint
tyjson_len(const struct tyjson *j)
{
	return j && j->type == TYJSON_ARRAY ? j->kids->len : 0;
}

const struct tyjson *
tyjson_at(const struct tyjson *j, guint i)
{
	return i < tyjson_len(j) ? j->kids->pdata[i] : NULL;
}
