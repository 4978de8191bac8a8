/*
 * trailer.c - one trailer: made from a name and value (persons normalised
 * to "Name <addr>", a quoted name keeping its quotes) as one allocation
 * with its strings, compared, written back (a commit message's own as it
 * was written), and its address matched against a sender. trailerfind.c
 * finds trailer lines in text.
 */
#include "trailers/trailer-int.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

static const char *const utility_names[] = {
    "fixes",	  "link",      "buglink",     "closes",	  "obsoleted-by",
    "message-id", "change-id", "base-commit", "based-on", NULL,
};

gboolean
trailer_in_set(const char *const *set, const char *s)
{
	for (; *set; set++)
		if (!strcmp(*set, s))
			return TRUE;
	return FALSE;
}

gboolean
trailer_looks_like_person(const char *v)
{
	const char *at;

	for (at = strchr(v, '@'); at; at = strchr(at + 1, '@')) {
		const char *p;

		if (at == v || g_ascii_isspace(at[-1]))
			continue;
		for (p = at + 1; *p && !g_ascii_isspace(*p); p++)
			if (*p == '.' && p > at + 1 && p[1] &&
			    !g_ascii_isspace(p[1]))
				return TRUE;
	}
	return FALSE;
}

/* Copy the @n bytes at @p to *@o, NUL-ended; returns the copy and moves
 * *@o past it. */
static char *
put(char **o, const char *p, size_t n)
{
	char *s = *o;

	memcpy(s, p, n);
	s[n] = '\0';
	*o += n + 1;
	return s;
}

/* [*p, *p + *n) without ASCII white space at its ends (g_strstrip's) */
static void
strip_span(const char **p, size_t *n)
{
	while (*n && g_ascii_isspace(**p))
		(*p)++, (*n)--;
	while (*n && g_ascii_isspace((*p)[*n - 1]))
		(*n)--;
}

/*
 * Split "Name <addr>", "\"Name\" <addr>", "addr (Name)" or "addr" into
 * t->addr_name and t->addr_email, written at *@o.
 */
static void
split_person(const char *v, struct trailer *t, char **o)
{
	const char *lt = strchr(v, '<'), *nm = v, *e;
	size_t nn, en, i, k = 0;

	if (lt) {
		e = lt + 1;
		en = strcspn(e, "<>");
		nn = lt - v;
		strip_span(&nm, &nn);
		strip_span(&e, &en);
		if (nn >= 2 && nm[0] == '"' && nm[nn - 1] == '"') {
			char *u = *o;

			for (i = 1; i + 1 < nn; i++) {
				if (nm[i] == '\\' && i + 2 < nn)
					i++;
				u[k++] = nm[i];
			}
			u[k] = '\0';
			*o += k + 1;
			t->addr_name = u;
		} else {
			t->addr_name = put(o, nm, nn);
		}
		t->addr_email = put(o, e, en);
		return;
	}
	/* "addr" or "addr (Name)" */
	e = v;
	en = strlen(v);
	strip_span(&e, &en);
	for (k = 0; k < en && e[k] != ' ' && e[k] != '\t'; k++)
		;
	nm = e + k;
	nn = en - k;
	strip_span(&nm, &nn);
	if (k < en && nn >= 2 && nm[0] == '(' && nm[nn - 1] == ')')
		t->addr_name = put(o, nm + 1, nn - 2);
	else
		t->addr_name = put(o, "", 0);
	t->addr_email = put(o, e, k);
}

/* The length of a quoted name ("A. U. Thor") that @v opens, up to its
 * closing quote before the '<', 0 when @v does not start with one. */
static size_t
quoted_name(const char *v)
{
	const char *lt = strchr(v, '<'), *e = lt;

	if (!lt || *v != '"')
		return 0;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e - v >= 2 && e[-1] == '"' ? (size_t)(e - v) : 0;
}

/* A person's value, "Name <addr>", written at *@o from @v as given. */
static char *
person_value(const char *v, const struct trailer *t, char **o)
{
	size_t q = *t->addr_name ? quoted_name(v) : 0;
	size_t el = strlen(t->addr_email);
	char *s = *o, *w = s;

	if (!*t->addr_name)
		return t->addr_email;
	/* a name written in quotes keeps them, as git keeps the line (and
	 * b4 0.12) */
	if (q) {
		memcpy(w, v, q);
		w += q;
	} else {
		w = stpcpy(w, t->addr_name);
	}
	w = stpcpy(w, " <");
	memcpy(w, t->addr_email, el);
	w += el;
	*w++ = '>';
	*w++ = '\0';
	*o = w;
	return s;
}

struct trailer *
trailer_make(const char *name, size_t nlen, const char *value, size_t vlen,
	     const char *extinfo, const char *raw)
{
	size_t xlen = extinfo ? strlen(extinfo) + 1 : 0;
	size_t rlen = raw ? strlen(raw) + 1 : 0;
	/* the name twice (as written, lower case), the value as given, and
	 * room for a person's name, address and value, each at most the
	 * value's length and its ends */
	struct trailer *t = g_malloc(sizeof(*t) + 2 * (nlen + 1) +
				     4 * (vlen + 4) + xlen + rlen);
	char *o = (char *)(t + 1), *v;
	size_t i;

	t->name = put(&o, name, nlen);
	t->lname = o;
	for (i = 0; i < nlen; i++)
		*o++ = g_ascii_tolower(name[i]);
	*o++ = '\0';
	v = put(&o, value, vlen);
	t->extinfo = extinfo ? put(&o, extinfo, xlen - 1) : NULL;
	t->raw = raw ? put(&o, raw, rlen - 1) : NULL;
	t->addr_name = t->addr_email = NULL;
	t->src = NULL;
	t->value = v;
	if (trailer_in_set(utility_names, t->lname) || strstr(v, "://")) {
		t->type = TRAILER_UTILITY;
	} else if (trailer_looks_like_person(v)) {
		t->type = TRAILER_PERSON;
		split_person(v, t, &o);
		t->value = person_value(v, t, &o);
	} else {
		t->type = TRAILER_UNKNOWN;
	}
	return t;
}

struct trailer *
trailer_new(const char *name, const char *value, const char *extinfo)
{
	return trailer_make(name, strlen(name), value, strlen(value), extinfo,
			    NULL);
}

/* The length of @s with its NUL, 0 for NULL */
static size_t
len0(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* A copy of @s at *@o, or NULL */
static char *
put0(char **o, const char *s)
{
	return s ? put(o, s, strlen(s)) : NULL;
}

struct trailer *
trailer_copy_with(const struct trailer *t, const char *extinfo)
{
	struct trailer *c =
	    g_malloc(sizeof(*c) + len0(t->name) + len0(t->lname) +
		     len0(t->value) + len0(extinfo) + len0(t->addr_name) +
		     len0(t->addr_email) + len0(t->raw));
	char *o = (char *)(c + 1);

	c->name = put0(&o, t->name);
	c->lname = put0(&o, t->lname);
	c->value = put0(&o, t->value);
	c->extinfo = put0(&o, extinfo);
	c->type = t->type;
	c->addr_name = put0(&o, t->addr_name);
	c->addr_email = put0(&o, t->addr_email);
	c->raw = put0(&o, t->raw);
	c->src = t->src;
	return c;
}

struct trailer *
trailer_copy(const struct trailer *t)
{
	return trailer_copy_with(t, t->extinfo);
}

void
trailer_free(struct trailer *t)
{
	/* its strings are in the same allocation */
	g_free(t);
}

GPtrArray *
trailer_array_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)trailer_free);
}

/* Equal without case (nearly all are ASCII: no lower-cased copies). */
static gboolean
caseless_eq(const char *a, const char *b)
{
	g_autofree char *la = NULL, *lb = NULL;

	if (g_str_is_ascii(a) && g_str_is_ascii(b))
		return !g_ascii_strcasecmp(a, b);
	la = g_utf8_strdown(a, -1);
	lb = g_utf8_strdown(b, -1);
	return !strcmp(la, lb);
}

gboolean
trailer_eq(const struct trailer *a, const struct trailer *b)
{
	if (strcmp(a->lname, b->lname))
		return FALSE;
	/* a person is the same written "Name" <addr> or Name <addr> */
	if (a->type == TRAILER_PERSON && b->type == TRAILER_PERSON)
		return caseless_eq(a->addr_email, b->addr_email) &&
		       caseless_eq(a->addr_name, b->addr_name);
	return caseless_eq(a->value, b->value);
}

gboolean
trailer_in(GPtrArray *list, const struct trailer *t)
{
	guint i;

	for (i = 0; i < list->len; i++)
		if (trailer_eq(list->pdata[i], t))
			return TRUE;
	return FALSE;
}

char *
trailer_string(const struct trailer *t, gboolean with_extinfo)
{
	const char *x = t->extinfo;

	if (with_extinfo && t->raw) {
		/* a "# note" tail is in the raw line, a "[note]" line is not */
		while (x && (*x == ' ' || *x == '\t'))
			x++;
		if (!x || !*x || *x == '#')
			return g_strdup(t->raw);
		return g_strconcat(t->raw, "\n", t->extinfo, NULL);
	}
	if (!with_extinfo || !x || !*x)
		return g_strconcat(t->name, ": ", t->value, NULL);
	while (*x == ' ' || *x == '\t')
		x++;
	if (*x == '#')
		return g_strconcat(t->name, ": ", t->value, t->extinfo, NULL);
	return g_strconcat(t->name, ": ", t->value, "\n", t->extinfo, NULL);
}

/* Drop a "+detail" from the local part, in place. */
static void
drop_detail(char *a)
{
	char *plus = strchr(a, '+'), *at = strchr(a, '@');

	if (plus && at && plus < at)
		memmove(plus, at, strlen(at) + 1);
}

gboolean
trailer_email_eq(const struct trailer *t, const char *email)
{
	g_autofree char *our = NULL, *their = NULL;
	char *oat, *tat;
	int od = 0, td = 0;
	const char *p;
	size_t ol, tl;

	if (!t->addr_email || !email)
		return FALSE;
	our = g_ascii_strdown(t->addr_email, -1);
	their = g_ascii_strdown(email, -1);
	if (!strcmp(our, their))
		return TRUE;
	if (!strchr(our, '@') || !strchr(their, '@'))
		return FALSE;
	drop_detail(our);
	drop_detail(their);
	if (!strcmp(our, their))
		return TRUE;
	oat = strchr(our, '@');
	tat = strchr(their, '@');
	if (oat - our != tat - their || strncmp(our, their, oat - our))
		return FALSE;
	for (p = oat; *p; p++)
		od += *p == '.';
	for (p = tat; *p; p++)
		td += *p == '.';
	if (ABS(od - td) != 1)
		return FALSE;
	oat++;
	tat++;
	ol = strlen(oat);
	tl = strlen(tat);
	/* one domain is the other with one more label in front */
	if (ol > tl)
		return oat[ol - tl - 1] == '.' && !strcmp(oat + ol - tl, tat);
	return tl > ol && tat[tl - ol - 1] == '.' &&
	       !strcmp(tat + tl - ol, oat);
}

gboolean
trailer_sender_ok(const struct trailer *t, const struct message *src)
{
	g_autofree char *tn = NULL, *hn = NULL;

	if (t->type != TRAILER_PERSON)
		return TRUE;
	if (trailer_email_eq(t, src->from_email))
		return TRUE;
	tn = g_utf8_strdown(t->addr_name ? t->addr_name : "", -1);
	hn = g_utf8_strdown(*src->from_name ? src->from_name : src->from_email,
			    -1);
	if (*tn && !strcmp(tn, hn))
		return TRUE;
	/* "Last, First" in From: every part must appear in the trailer */
	if (strchr(hn, ',')) {
		g_auto(GStrv) parts = g_strsplit(hn, ",", -1);
		guint i;

		for (i = 0; parts[i]; i++) {
			g_strstrip(parts[i]);
			if (*parts[i] && !strstr(tn, parts[i]))
				return FALSE;
		}
		return TRUE;
	}
	return FALSE;
}
