/*
 * trailer.c - one trailer: made from a name and value (persons normalised
 * to "Name <addr>", a quoted name keeping its quotes), compared, written
 * back (a commit message's own as it was written), and its address
 * matched against a sender. trailerfind.c finds trailer lines in text.
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

/* Split "Name <addr>", "\"Name\" <addr>", "addr (Name)" or "addr". */
static void
split_person(const char *v, char **name, char **email)
{
	const char *lt = strchr(v, '<');

	if (lt) {
		const char *e = lt + 1;
		size_t n = strcspn(e, "<>");
		char *nm = g_strstrip(g_strndup(v, lt - v));
		size_t l = strlen(nm);

		if (l >= 2 && nm[0] == '"' && nm[l - 1] == '"') {
			GString *u = g_string_new(NULL);
			size_t i;

			for (i = 1; i + 1 < l; i++) {
				if (nm[i] == '\\' && i + 2 < l)
					i++;
				g_string_append_c(u, nm[i]);
			}
			g_free(nm);
			nm = g_string_free(u, FALSE);
		}
		*name = nm;
		*email = g_strstrip(g_strndup(e, n));
		return;
	}
	{
		g_autofree char *s = g_strstrip(g_strdup(v));
		char *sp = strpbrk(s, " \t");

		if (sp) {
			char *rest = g_strstrip(g_strdup(sp));
			size_t rl = strlen(rest);

			*sp = '\0';
			if (rl >= 2 && rest[0] == '(' && rest[rl - 1] == ')') {
				*name = g_strndup(rest + 1, rl - 2);
				g_free(rest);
			} else {
				*name = g_strdup("");
				g_free(rest);
			}
		} else {
			*name = g_strdup("");
		}
		*email = g_strdup(s);
	}
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

struct trailer *
trailer_new(const char *name, const char *value, const char *extinfo)
{
	struct trailer *t = g_new0(struct trailer, 1);

	t->name = g_strdup(name);
	t->lname = g_ascii_strdown(name, -1);
	t->extinfo = g_strdup(extinfo);
	if (trailer_in_set(utility_names, t->lname) || strstr(value, "://")) {
		t->type = TRAILER_UTILITY;
		t->value = g_strdup(value);
	} else if (trailer_looks_like_person(value)) {
		t->type = TRAILER_PERSON;
		split_person(value, &t->addr_name, &t->addr_email);
		if (*t->addr_name && quoted_name(value))
			/* a name written in quotes keeps them, as git keeps
			 * the line (and b4 0.12) */
			t->value = g_strdup_printf("%.*s <%s>",
						   (int)quoted_name(value),
						   value, t->addr_email);
		else if (*t->addr_name)
			t->value = g_strconcat(t->addr_name, " <",
					       t->addr_email, ">", NULL);
		else
			t->value = g_strdup(t->addr_email);
	} else {
		t->type = TRAILER_UNKNOWN;
		t->value = g_strdup(value);
	}
	return t;
}

struct trailer *
trailer_copy(const struct trailer *t)
{
	struct trailer *c = g_new0(struct trailer, 1);

	c->name = g_strdup(t->name);
	c->lname = g_strdup(t->lname);
	c->value = g_strdup(t->value);
	c->extinfo = g_strdup(t->extinfo);
	c->type = t->type;
	c->addr_name = g_strdup(t->addr_name);
	c->addr_email = g_strdup(t->addr_email);
	c->raw = g_strdup(t->raw);
	c->src = t->src;
	return c;
}

void
trailer_free(struct trailer *t)
{
	if (!t)
		return;
	g_free(t->name);
	g_free(t->lname);
	g_free(t->value);
	g_free(t->extinfo);
	g_free(t->addr_name);
	g_free(t->addr_email);
	g_free(t->raw);
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
