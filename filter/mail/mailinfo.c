/*
 * mailinfo.c - git mailinfo's rules, re-implemented for one message (read
 * git's mailinfo.c to learn them): the author from the From: header the way
 * handle_from() reads it (not an RFC 5322 parser), in-body headers at the
 * top of the body (the first of each kind wins, a blank line ends them, a
 * format-patch "From <sha>" line is skipped), the scissors line, and the
 * patch break ("---", "diff -", "Index: ") after which none of that applies.
 */
#include "mail/mailinfo.h"
#include "mail/message.h"
#include "mail/rfc2047.h"
#include "mail/subject.h"
#include "core/util.h"

#include <string.h>

gboolean
mailinfo_is_scissors(const char *line, size_t len)
{
	size_t i;
	int scissors = 0, gap = 0, perforation = 0;
	gboolean in_perf = FALSE;
	const char *first = NULL, *last = NULL;
	long visible;

	for (i = 0; i < len; i++) {
		const char *c = line + i;

		if (g_ascii_isspace(*c)) {
			if (in_perf) {
				perforation++;
				gap++;
			}
			continue;
		}
		last = c;
		if (!first)
			first = c;
		if (*c == '-') {
			in_perf = TRUE;
			perforation++;
			continue;
		}
		if (i + 1 < len &&
		    ((c[0] == '>' && (c[1] == '8' || c[1] == '%')) ||
		     ((c[0] == '8' || c[0] == '%') && c[1] == '<'))) {
			in_perf = TRUE;
			perforation += 2;
			scissors += 2;
			/* git counts the mark's first character as the
			 * last visible one: "----- >8" is 7 wide, too short */
			i++;
			continue;
		}
		in_perf = FALSE;
	}
	visible = (first && last) ? last - first + 1 : 0;
	return scissors && visible >= 8 && visible < perforation * 3 &&
	       gap * 2 < perforation;
}

gboolean
mailinfo_is_patch_break(const char *l, size_t n)
{
	size_t i;

	/* git compares these case-sensitively */
	if ((n >= 6 && !memcmp(l, "diff -", 6)) ||
	    (n >= 7 && !memcmp(l, "Index: ", 7)))
		return TRUE;
	if (n >= 3 && !memcmp(l, "---", 3)) {
		if (n >= 5 && l[3] == ' ' && !g_ascii_isspace(l[4]))
			return TRUE;
		for (i = 3; i < n; i++)
			if (!g_ascii_isspace(l[i]))
				return FALSE;
		return TRUE;
	}
	return FALSE;
}

/*
 * git's unquote_quoted_pair(): quoted strings lose their quotes and
 * escapes, comments keep their parentheses but lose their escapes.
 */
static const char *
unquote(GString *out, const char *in, char close)
{
	gboolean literal = FALSE;

	if (close == ')')
		g_string_append_c(out, '(');
	for (; *in; in++) {
		if (literal) {
			literal = FALSE;
		} else if (*in == '\\' && close) {
			literal = TRUE;
			continue;
		} else if (*in == '"' && close != ')') {
			if (close)
				return in + 1;
			in = unquote(out, in + 1, '"') - 1;
			continue;
		} else if (*in == '(' && close != '"') {
			in = unquote(out, in + 1, ')') - 1;
			continue;
		} else if (*in == ')' && close == ')') {
			g_string_append_c(out, ')');
			return in + 1;
		}
		g_string_append_c(out, *in);
	}
	return in;
}

/* git's get_sane_name(): the address stands in for an unusable name */
static char *
sane_name(const char *name, const char *email)
{
	if (!*name || strlen(name) > 60 || strpbrk(name, "@<>"))
		return g_strdup(email);
	return g_strdup(name);
}

void
mailinfo_author(const char *from, char **name, char **email)
{
	GString *f = g_string_new(NULL);
	GString *n = g_string_new(NULL);
	const char *p;
	char *at;
	size_t el, i;
	gboolean sp = FALSE;

	*name = NULL;
	*email = NULL;
	unquote(f, from ? from : "", '\0');
	at = strchr(f->str, '@');
	if (!at) {
		/* "John Doe <johndoe>": what is inside <> is the address */
		const char *bra = from ? strchr(from, '<') : NULL;
		const char *ket = bra ? strchr(bra, '>') : NULL;

		if (ket) {
			g_autofree char *nm = g_strndup(from, bra - from);

			*email = g_strndup(bra + 1, ket - bra - 1);
			*name = sane_name(g_strstrip(nm), *email);
		}
		goto out;
	}
	/* the address is the word around '@', perhaps inside <> */
	while (at > f->str && !g_ascii_isspace(at[-1])) {
		if (at[-1] == '<') {
			at[-1] = ' ';
			break;
		}
		at--;
	}
	el = strcspn(at, " \n\t\r\v\f>");
	*email = g_strndup(at, el);
	g_string_erase(f, at - f->str, el + (at[el] ? 1 : 0));
	/* the rest is the name: spaces squeezed, a "(Name)" unwrapped */
	for (p = f->str; *p; p++) {
		if (g_ascii_isspace(*p)) {
			sp = TRUE;
			continue;
		}
		if (sp && n->len)
			g_string_append_c(n, ' ');
		sp = FALSE;
		g_string_append_c(n, *p);
	}
	i = n->len;
	if (i >= 2 && n->str[0] == '(' && n->str[i - 1] == ')') {
		g_string_truncate(n, i - 1);
		g_string_erase(n, 0, 1);
	}
	*name = sane_name(n->str, *email);
out:
	g_string_free(f, TRUE);
	g_string_free(n, TRUE);
	{
		char *a = lore_one_line(*name ? *name : "", -1);
		char *b = lore_one_line(*email ? *email : "", -1);

		g_free(*name);
		g_free(*email);
		*name = a;
		*email = b;
	}
}

/* "From:", "Subject:", "Date:" (any case) followed by white space */
static int
inbody_header(const char *l, size_t n, size_t *vstart)
{
	static const char *const names[] = {"From", "Subject", "Date"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		size_t k = strlen(names[i]);

		if (n > k + 1 && !g_ascii_strncasecmp(l, names[i], k) &&
		    l[k] == ':' && g_ascii_isspace(l[k + 1])) {
			*vstart = k + 2;
			return i;
		}
	}
	return -1;
}

/*
 * git format-patch's first line, "From <40 hex> Mon Sep 17 00:00:00 2001",
 * as an mbox writer escapes it (">From ...", which git skips) or not (a
 * body pasted from a file: git am would split the mail there).
 */
static gboolean
format_patch_separator(const char *l, size_t n)
{
	static const char tail[] = " Mon Sep 17 00:00:00 2001";
	size_t i;

	if (n && l[0] == '>')
		l++, n--;
	while (n && l[n - 1] == '\r')
		n--;
	if (n != 5 + 40 + strlen(tail) || memcmp(l, "From ", 5))
		return FALSE;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", l[i]))
			return FALSE;
	return !memcmp(l + 45, tail, strlen(tail));
}

gboolean
mailinfo_looks_inbody(const char *body)
{
	size_t pos = 0, len = strlen(body), ll, vs;
	const char *l;

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		while (ll && l[ll - 1] == '\r')
			ll--;
		if (!ll)
			continue;
		return inbody_header(l, ll, &vs) >= 0 ||
		       format_patch_separator(l, ll) ||
		       (ll >= 8 && !memcmp(l, "[PATCH]", 7) &&
			g_ascii_isspace(l[7]));
	}
	return FALSE;
}

/* The in-body headers found, by the index of inbody_header(). */
struct inbody {
	char *val[3]; /* decoded values, NULL when absent */
	int pending;  /* the header being read (it may be folded), or -1 */
	GString *pval;
};

static void
inbody_flush(struct inbody *ib)
{
	if (ib->pending < 0)
		return;
	g_free(ib->val[ib->pending]);
	ib->val[ib->pending] = rfc2047_decode(ib->pval->str);
	ib->pending = -1;
}

static void
inbody_reset(struct inbody *ib)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(ib->val); i++)
		g_clear_pointer(&ib->val[i], g_free);
	ib->pending = -1;
}

/*
 * One line in git's header stage (check_inbody_header()): TRUE when it was
 * taken as (part of) an in-body header, FALSE when the message starts.
 */
static gboolean
inbody_line(struct inbody *ib, const char *l, size_t ll)
{
	size_t vs;
	int h;

	if (ib->pending >= 0 && (l[0] == ' ' || l[0] == '\t')) {
		if (mailinfo_is_scissors(l, ll)) {
			inbody_flush(ib);
			return FALSE;
		}
		g_string_append_len(ib->pval, l, ll);
		return TRUE;
	}
	inbody_flush(ib);
	if (format_patch_separator(l, ll))
		return TRUE;
	if (ll >= 8 && !memcmp(l, "[PATCH]", 7) && g_ascii_isspace(l[7])) {
		g_free(ib->val[1]);
		ib->val[1] = g_strndup(l, ll);
		return TRUE;
	}
	h = inbody_header(l, ll, &vs);
	if (h < 0 || ib->val[h])
		return FALSE;
	ib->pending = h;
	g_string_assign(ib->pval, "");
	g_string_append_len(ib->pval, l + vs, ll - vs);
	return TRUE;
}

void
mailinfo_run(const struct message *m, const char *body, struct mailinfo *mi)
{
	size_t pos = 0, len = strlen(body), ll;
	const char *l;
	GString *out = g_string_sized_new(len);
	gboolean header_stage = TRUE, in_patch = FALSE;
	struct inbody ib = {{NULL, NULL, NULL}, -1, g_string_new(NULL)};
	g_autofree char *dfrom = rfc2047_decode(m->from_hdr ? m->from_hdr : "");

	mi->date = g_strdup(m->date_hdr ? m->date_hdr : "");
	while (lore_next_line(body, len, &pos, &l, &ll)) {
		gboolean has_nl = l + ll < body + len;
		size_t cl = ll;

		while (cl && l[cl - 1] == '\r')
			cl--;
		if (in_patch)
			goto keep;
		if (header_stage && cl == 0) {
			/* blank lines before the in-body headers are
			 * skipped; one after them ends them */
			if (ib.pending >= 0) {
				inbody_flush(&ib);
				header_stage = FALSE;
			}
			continue;
		}
		if (header_stage) {
			header_stage = inbody_line(&ib, l, cl);
			if (header_stage)
				continue;
		}
		if (mailinfo_is_scissors(l, cl)) {
			/* everything above the scissors is not for the log,
			 * the in-body headers read so far included */
			g_string_truncate(out, 0);
			inbody_reset(&ib);
			header_stage = TRUE;
			continue;
		}
		if (mailinfo_is_patch_break(l, cl))
			in_patch = TRUE;
	keep:
		g_string_append_len(out, l, ll);
		if (has_nl)
			g_string_append_c(out, '\n');
	}
	inbody_flush(&ib);
	g_string_free(ib.pval, TRUE);
	/* git takes the in-body headers only when the mail has a patch */
	if (!in_patch)
		inbody_reset(&ib);
	mailinfo_author(ib.val[0] ? ib.val[0] : dfrom, &mi->author_name,
			&mi->author_email);
	if (ib.val[1]) {
		g_autofree char *s = lore_one_line(ib.val[1], -1);

		mi->subject = subject_strip_prefixes(s);
	} else {
		mi->subject = subject_strip_prefixes(m->subject);
	}
	if (ib.val[2]) {
		g_free(mi->date);
		mi->date = lore_one_line(ib.val[2], -1);
	}
	inbody_reset(&ib);
	mi->body = g_string_free(out, FALSE);
}

void
mailinfo_clear(struct mailinfo *mi)
{
	g_free(mi->author_name);
	g_free(mi->author_email);
	g_free(mi->date);
	g_free(mi->subject);
	g_free(mi->body);
	memset(mi, 0, sizeof(*mi));
}
