/*
 * prereq.c - the prerequisite lines of a cover letter (prereq.h). The
 * keyed lines are read where git format-patch --base and b4 write them,
 * at the start of a line, with the key in any case (as series.c reads
 * base-commit:); a sentence's "based on"/"depends on" is read in prose
 * only, never in a diff or a quote. A Message-ID must hold an '@': a URL
 * of a git tree or a web page is no mail.
 */
#include "series/prereq.h"
#include "core/msgid.h"
#include "core/util.h"

#include <string.h>

/* the longest value a change-id or a Message-ID may have here */
#define VALUE_MAX 512

const char *
prereq_kind_name(enum prereq_kind kind)
{
	switch (kind) {
	case PREREQ_MESSAGE_ID:
		return "message-id";
	case PREREQ_CHANGE_ID:
		return "change-id";
	case PREREQ_PATCH_ID:
		return "patch-id";
	case PREREQ_PATCHWORK:
		return "patchwork id";
	}
	return "?";
}

static void
prereq_free(gpointer data)
{
	struct prereq *p = data;

	g_free(p->value);
	g_free(p->text);
	g_free(p);
}

void
prereqs_free(struct prereqs *p)
{
	if (!p)
		return;
	g_free(p->base_commit);
	g_free(p->prereq_base);
	g_ptr_array_free(p->items, TRUE);
	g_free(p);
}

/* The value after "key:" in [l, l+n): white space around it dropped. */
static char *
value_of(const char *l, size_t n, size_t keylen)
{
	return lore_strip(g_strndup(l + keylen, n - keylen));
}

/* @s is @min..@max hex digits and nothing else */
static gboolean
is_hex(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return !s[n] && n >= min && n <= max;
}

/* b4's change-ids: letters, digits, '-', '_', '.', and no more */
static gboolean
is_token(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.");

	return n && !s[n] && n <= VALUE_MAX;
}

/* Keep @kind/@value (taken) unless it is there already or the list is
 * full. */
static void
add(struct prereqs *ps, enum prereq_kind kind, char *value, int revision,
    guint line, const char *l, size_t n)
{
	struct prereq *p;
	guint i;

	for (i = 0; i < ps->items->len; i++) {
		p = ps->items->pdata[i];
		if (p->kind == kind && !strcmp(p->value, value) &&
		    p->revision == revision) {
			g_free(value);
			return;
		}
	}
	if (ps->items->len >= PREREQ_MAX) {
		ps->dropped++;
		g_free(value);
		return;
	}
	p = g_new0(struct prereq, 1);
	p->kind = kind;
	p->value = value;
	p->revision = revision;
	p->line = line;
	p->text = g_strndup(l, n);
	g_ptr_array_add(ps->items, p);
}

/* "ID" or "ID:vN" (b4 writes the revision it was sent as) */
static void
change_id(struct prereqs *ps, char *v, guint line, const char *l, size_t n)
{
	char *colon = strrchr(v, ':');
	guint64 rev = 0;

	if (colon && (colon[1] == 'v' || colon[1] == 'V') &&
	    g_ascii_string_to_unsigned(colon + 2, 10, 1, 999999, &rev, NULL))
		*colon = '\0';
	else if (colon)
		rev = G_MAXUINT64;
	if (rev == G_MAXUINT64 || !is_token(v)) {
		ps->malformed++;
		g_free(v);
		return;
	}
	add(ps, PREREQ_CHANGE_ID, v, (int)rev, line, l, n);
}

/* A Message-ID, "<id>" or an archive URL; NULL unless it names a mail. */
static char *
mail_id(const char *v)
{
	char *id;

	if (strlen(v) > VALUE_MAX)
		return NULL;
	id = msgid_from_arg(v);
	if (id && (!strchr(id, '@') || !msgid_valid(id)))
		g_clear_pointer(&id, g_free);
	return id;
}

/* "Depends-on:": a patchwork id (said, not resolved) or a mail */
static void
depends_on(struct prereqs *ps, char *v, guint line, const char *l, size_t n)
{
	char *sp = v + strcspn(v, " \t");
	char *id;

	/* git-pw writes the series' title after the id: Depends-on:
	 * series-123 ("title") */
	if ((g_str_has_prefix(v, "series-") || g_str_has_prefix(v, "patch-")) &&
	    sp > strchr(v, '-') + 1) {
		char *num = strchr(v, '-') + 1;

		*sp = '\0';
		if (*num && strspn(num, "0123456789") == strlen(num) &&
		    strlen(num) <= 12) {
			add(ps, PREREQ_PATCHWORK, v, 0, line, l, n);
			return;
		}
	}
	id = mail_id(v);
	g_free(v);
	if (id)
		add(ps, PREREQ_MESSAGE_ID, id, 0, line, l, n);
	else
		ps->malformed++;
}

/* A keyed line; FALSE when @l is none. */
static gboolean
keyed(struct prereqs *ps, const char *l, size_t n, guint line)
{
	static const char *const keys[] = {
	    "prerequisite-patch-id:",
	    "prerequisite-change-id:",
	    "prerequisite-message-id:",
	    "prerequisite-base-commit:",
	    "base-commit:",
	    "based-on:",
	    "depends-on:",
	};
	guint k;
	char *v;

	for (k = 0; k < G_N_ELEMENTS(keys); k++)
		if (lore_has_prefix_ci(l, n, keys[k]))
			break;
	if (k == G_N_ELEMENTS(keys))
		return FALSE;
	v = value_of(l, n, strlen(keys[k]));
	switch (k) {
	case 0:
		if (is_hex(v, 40, 64)) {
			add(ps, PREREQ_PATCH_ID, g_ascii_strdown(v, -1), 0,
			    line, l, n);
			break;
		}
		ps->malformed++;
		break;
	case 1:
		change_id(ps, g_steal_pointer(&v), line, l, n);
		break;
	case 3:
	case 4: {
		char **slot = k == 3 ? &ps->prereq_base : &ps->base_commit;

		/* the first one counts, as series.c's base-commit */
		if (!*slot && is_hex(v, 7, 64))
			*slot = g_ascii_strdown(v, -1);
		else if (!*slot)
			ps->malformed++;
		break;
	}
	case 6:
		depends_on(ps, g_steal_pointer(&v), line, l, n);
		break;
	default: { /* a Message-ID named by its key */
		char *id = mail_id(v);

		if (id)
			add(ps, PREREQ_MESSAGE_ID, id, 0, line, l, n);
		else
			ps->malformed++;
	}
	}
	g_free(v);
	return TRUE;
}

/* The end of the Message-ID or URL at @p (white space, or the '>' of
 * "<id>", or prose punctuation after a URL). */
static size_t
ref_len(const char *p, const char *end)
{
	const char *q = p;

	if (*p == '<') {
		while (q < end && *q != '>' && *q != ' ' && *q != '\t')
			q++;
		return q < end && *q == '>' ? (size_t)(q - p + 1) : 0;
	}
	while (q < end && *q != ' ' && *q != '\t' && *q != '>' && *q != ')' &&
	       *q != '"')
		q++;
	while (q > p && strchr(".,;:", q[-1]))
		q--;
	return q - p;
}

/* [p, end) starts with @word */
static gboolean
has_at(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

/* "... based on <id> ..." / "depends on https://.../id/": the first
 * mail named after the words, on the same line */
static void
prose(struct prereqs *ps, const char *l, size_t n, guint line)
{
	static const char *const words[] = {"based on ", "depends on "};
	g_autofree char *low = NULL;
	const char *end = l + n;
	guint w;

	/* most lines name no mail: no copy made for them */
	if (!memchr(l, '<', n) && !g_strstr_len(l, n, "http"))
		return;
	low = g_ascii_strdown(l, n);
	for (w = 0; w < G_N_ELEMENTS(words); w++) {
		const char *at = strstr(low, words[w]), *p;

		if (!at)
			continue;
		for (p = l + (at - low) + strlen(words[w]); p < end; p++) {
			size_t len;

			/* the line is no C string: bounded looks only */
			if (*p != '<' && !has_at(p, end, "http://") &&
			    !has_at(p, end, "https://"))
				continue;
			if ((len = ref_len(p, end))) {
				g_autofree char *ref = g_strndup(p, len);
				char *id = mail_id(ref);

				if (id) {
					add(ps, PREREQ_MESSAGE_ID, id, 0, line,
					    l, n);
					((struct prereq *)ps->items
					     ->pdata[ps->items->len - 1])
					    ->prose = TRUE;
					return;
				}
			}
			p += len ? len - 1 : 0;
		}
	}
}

/* "word" at @p, ASCII case ignored, within @end */
static gboolean
word_at(const guchar *p, const guchar *end, const char *word)
{
	for (; *word; word++, p++)
		if (p >= end || (*p | 0x20) != *word)
			return FALSE;
	return TRUE;
}

gboolean
prereq_may_hold(const char *body, gsize len)
{
	/* the letters the words turn on: 'q' of "prerequisite-", "based",
	 * "depends"; a byte is one table look until one of them */
	static const guchar turn[256] = {
	    ['q'] = 1, ['Q'] = 1, ['b'] = 1, ['B'] = 1, ['d'] = 1, ['D'] = 1};
	const guchar *start = (const guchar *)body, *p = start;
	const guchar *end = start + len;

	/* this runs on every series */
	for (;;) {
		while (p < end && !turn[*p])
			p++;
		if (p == end)
			return FALSE;
		/* the next letter rules most of them out */
		if (p + 1 < end &&
		    (p[1] | 0x20) == ((*p | 0x20) == 'q'   ? 'u'
				      : (*p | 0x20) == 'b' ? 'a'
							   : 'e') &&
		    (((*p | 0x20) == 'q' && p - start >= 5 &&
		      word_at(p - 5, end, "prerequisite-")) ||
		     word_at(p, end, "based") || word_at(p, end, "depends")))
			return TRUE;
		p++;
	}
}

struct prereqs *
prereq_parse(const char *body, gsize len)
{
	struct prereqs *ps = g_new0(struct prereqs, 1);
	size_t pos = 0, n;
	const char *l;
	guint line = 0;

	ps->items = g_ptr_array_new_with_free_func(prereq_free);
	while (body && lore_next_line(body, len, &pos, &l, &n)) {
		line++;
		if (n && l[n - 1] == '\r')
			n--;
		/* no line of ours is that long, and none holds a NUL */
		if (n > PREREQ_LINE_MAX || memchr(l, '\0', n))
			continue;
		if (keyed(ps, l, n, line))
			continue;
		/* prose only: not a diff's line, nor a quote */
		if (n && !strchr("+- @\\>\t", l[0]))
			prose(ps, l, n, line);
	}
	return ps;
}
