/*
 * bodyparts.c - the anatomy of a patch mail's text: commit message,
 * trailer block, basement (after "---": notes, diffstat, diff) and
 * signature, cut and put back together as b4 does, so new trailers land
 * where git expects them (git interpret-trailers' rules for a block with a
 * "-- " line in it).
 */
#include "trailers/bodyparts.h"
#include "mail/body.h"
#include "mail/mailinfo.h"
#include "core/util.h"

#include <string.h>

static char *
join_lines(GPtrArray *lines)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < lines->len; i++) {
		if (i)
			g_string_append_c(s, '\n');
		g_string_append(s, lines->pdata[i]);
	}
	return g_string_free(s, FALSE);
}

/* Python's str.strip('\r\n') on either or both ends, in place. */
static void
strip_nl(GString *s, gboolean left, gboolean right)
{
	size_t a = 0;

	if (right)
		while (s->len && (s->str[s->len - 1] == '\n' ||
				  s->str[s->len - 1] == '\r'))
			g_string_truncate(s, s->len - 1);
	if (left) {
		while (a < s->len && (s->str[a] == '\n' || s->str[a] == '\r'))
			a++;
		g_string_erase(s, 0, a);
	}
}

/*
 * The trailer reader strips the paragraph it reads (as b4 does), which
 * takes the indentation of its first line: an indented stack trace line
 * or " >From" must reach the commit as it was written. After two blank
 * lines (or more, or white space only) the paragraph starts with them.
 */
static void
keep_indent(const char *para, GPtrArray *lines)
{
	size_t ws;
	char *first;

	for (;;) {
		size_t b = strspn(para, " \t\r");

		if (para[b] != '\n')
			break;
		para += b + 1;
	}
	ws = strspn(para, " \t");

	if (!ws || !lines->len)
		return;
	first = lines->pdata[0];
	if (*first && !strncmp(para + ws, first, strlen(first))) {
		lines->pdata[0] =
		    g_strdup_printf("%.*s%s", (int)ws, para, first);
		g_free(first);
	}
}

/*
 * A "-- " signature line inside the paragraph @para (not its first line:
 * a signature paragraph of its own is text to the trailer reader too),
 * cut off @para and returned with the lines after it (g_free), or NULL.
 * The trailer reader would drop it as a reply's signature, but above the
 * patch git am keeps it in the commit message.
 */
static char *
cut_sigtail(char *para)
{
	char *p;

	for (p = strchr(para, '\n'); p; p = strchr(p + 1, '\n'))
		if (!strncmp(p + 1, "-- ", 3) &&
		    (p[4] == '\n' || p[4] == '\0')) {
			char *tail = g_strdup(p + 1);

			*p = '\0';
			return tail;
		}
	return NULL;
}

/*
 * git interpret-trailers' verdict on a last paragraph that holds a "-- "
 * signature: a trailer block when its trailer lines are all of it, or at
 * least a quarter of it with a Signed-off-by among them. @others are its
 * other lines above the signature.
 */
static gboolean
git_trailer_block(GPtrArray *trailers, GPtrArray *others, const char *tail)
{
	guint other = 0, i;
	gboolean sob = FALSE;
	const char *p;

	for (i = 0; i < others->len; i++)
		other += *(const char *)others->pdata[i] != '\0';
	for (p = tail; *p;) {
		const char *nl = strchrnul(p, '\n');

		other += nl > p;
		p = *nl ? nl + 1 : nl;
	}
	for (i = 0; i < trailers->len; i++)
		sob |= !strcmp(((struct trailer *)trailers->pdata[i])->lname,
			       "signed-off-by");
	return trailers->len && (!other || (sob && trailers->len * 3 >= other));
}

/* The first line of @body that git mailinfo takes for the patch break, or
 * its end. */
static const char *
patch_break(const char *body)
{
	size_t pos = 0, len = strlen(body), ll;
	const char *l;

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		while (ll && l[ll - 1] == '\r')
			ll--;
		if (mailinfo_is_patch_break(l, ll) &&
		    !mailinfo_is_scissors(l, ll))
			return l;
	}
	return body + len;
}

/*
 * @body with the CRs that end its message's lines dropped, blank lines
 * stripped at both ends. A CR inside a line may be a patched file's own
 * byte: only those ending a line of the message go; from git's patch
 * break on, the patch's own line-end CRs (decoded from base64 or
 * quoted-printable) stay too.
 */
static GString *
without_crs(const char *body)
{
	size_t len = strlen(body);
	const char *cut = patch_break(body), *p = body, *r;
	GString *b = g_string_sized_new(len);

	/* copied from CR to CR, not byte by byte: most bodies have none */
	while (p < cut && (r = memchr(p, '\r', cut - p))) {
		g_string_append_len(b, p, r - p);
		if (r[1] && r[1] != '\n')
			g_string_append_c(b, '\r');
		p = r + 1;
	}
	g_string_append_len(b, p, body + len - p);
	strip_nl(b, TRUE, TRUE);
	return b;
}

/*
 * Where the basement starts in @text: git's patch break ("---", "diff -",
 * "Index: ", as git mailinfo finds it, so that no trailer goes where git
 * am reads a patch), else a "--- a/" line; NULL when there is none.
 */
static const char *
basement_start(const char *text)
{
	const char *p;

	for (p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);

		if (mailinfo_is_patch_break(p, ll) &&
		    !mailinfo_is_scissors(p, ll))
			return p;
		p = nl ? nl + 1 : p + ll;
	}
	p = strstr(text, "\n--- a/");
	return p ? p + 1 : NULL;
}

/*
 * Cut @b's basement, or with no patch its signature, into @out; returns
 * the text above them (g_free), blank lines stripped. A "-- " signature
 * below a patch stays part of it, blank lines and all.
 */
static char *
cut_basement(GString *b, struct body_parts *out)
{
	const char *cut = basement_start(b->str), *p, *sig = NULL;
	GString *h;

	if (cut) {
		/* a separator line of dashes and white space is dropped:
		 * body_rebuild() writes "---" again where it is needed */
		size_t skip = 0;
		GString *bs;

		if (g_str_has_prefix(cut, "---")) {
			skip = 3;
			while (cut[skip] == ' ' || cut[skip] == '\t')
				skip++;
			skip = cut[skip] == '\n' ? skip + 1 : 0;
		}
		bs = g_string_new(cut + skip);
		strip_nl(bs, FALSE, TRUE);
		out->basement = g_string_free(bs, FALSE);
		out->signature = g_strdup("");
		h = g_string_new_len(b->str, cut - b->str);
	} else {
		/* no patch: the signature follows the last "-- " line */
		for (p = b->str; (p = strstr(p, "\n-- \n")); p++)
			sig = p;
		out->signature = g_strdup(sig ? sig + 5 : "");
		if (sig)
			g_string_truncate(b, sig - b->str);
		out->basement = g_strdup("");
		h = g_string_new(b->str);
	}
	strip_nl(h, TRUE, TRUE);
	return g_string_free(h, FALSE);
}

/*
 * The paragraphs above the basement, @head: the last one's trailer block
 * (with a "-- " tail kept apart when there is a basement) into @out, the
 * rest the message.
 */
static void
cut_trailers(const char *head, struct body_parts *out)
{
	char **paras = g_strsplit(head, "\n\n", -1);
	guint np = g_strv_length(paras), i;
	const char *last = np ? paras[np - 1] : "";
	GPtrArray *nlines = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *rest = NULL;

	out->trailers = trailer_array_new();
	if (np && *out->basement)
		out->sigtail = cut_sigtail(paras[np - 1]);
	trailer_find(last, FALSE, out->trailers, nlines);
	keep_indent(last, nlines);
	if (out->sigtail)
		out->sig_block =
		    git_trailer_block(out->trailers, nlines, out->sigtail);
	for (i = 0; out->trailers->len && i < nlines->len; i++)
		if (*(const char *)nlines->pdata[i])
			out->glued = TRUE;
	rest = join_lines(nlines);
	if (np <= 1) {
		out->message = g_steal_pointer(&rest);
	} else {
		GString *m = g_string_new(paras[0]);

		for (i = 1; i + 1 < np; i++) {
			g_string_append(m, "\n\n");
			g_string_append(m, paras[i]);
		}
		g_string_append(m, "\n\n");
		g_string_append(m, rest);
		out->message = g_string_free(m, FALSE);
	}
	g_ptr_array_free(nlines, TRUE);
	g_strfreev(paras);
}

void
body_split(const char *body, struct body_parts *out)
{
	GString *b = without_crs(body);
	g_autofree char *head = NULL;

	memset(out, 0, sizeof(*out));
	head = cut_basement(b, out);
	g_string_free(b, TRUE);
	cut_trailers(head, out);
}

void
body_parts_clear(struct body_parts *bp)
{
	g_free(bp->message);
	g_free(bp->basement);
	g_free(bp->signature);
	g_free(bp->sigtail);
	if (bp->trailers)
		g_ptr_array_free(bp->trailers, TRUE);
	memset(bp, 0, sizeof(*bp));
}

static gboolean
basement_needs_dashes(const char *basement)
{
	const char *p = basement;

	if (body_has_diffstat(basement))
		return TRUE;
	while (g_ascii_isspace(*p))
		p++;
	return !(g_str_has_prefix(p, "diff --git") ||
		 g_str_has_prefix(p, "--- "));
}

/*
 * The trailers of @trailers that are @bp's own (@own > 0), the others
 * (@own == 0) or all of them (@own < 0), appended to @s when @s is not
 * NULL; returns how many.
 */
static guint
put_trailers(GString *s, GPtrArray *trailers, const struct body_parts *bp,
	     int own)
{
	guint i, n = 0;

	for (i = 0; i < trailers->len; i++) {
		struct trailer *t = trailers->pdata[i];

		if (own >= 0 &&
		    g_ptr_array_find(bp->trailers, t, NULL) != (own > 0))
			continue;
		n++;
		if (s) {
			g_autofree char *l = trailer_string(t, TRUE);

			g_string_append(s, l);
			g_string_append_c(s, '\n');
		}
	}
	return n;
}

char *
body_rebuild(const struct body_parts *bp, GPtrArray *trailers)
{
	GString *s = g_string_new(NULL);
	/* with a signature in the trailer paragraph, the body's own
	 * trailers stay above it and new ones go below, as git puts them */
	int first = bp->sigtail ? 1 : -1;

	if (*bp->message) {
		GString *m = g_string_new(bp->message);

		strip_nl(m, FALSE, TRUE);
		g_string_append(s, m->str);
		g_string_append_c(s, '\n');
		g_string_free(m, TRUE);
		/* trailers that shared the message's last paragraph stay in
		 * it, as git interpret-trailers leaves them */
		if (put_trailers(NULL, trailers, bp, first) &&
		    !(bp->glued && bp->trailers->len))
			g_string_append_c(s, '\n');
	}
	put_trailers(s, trailers, bp, first);
	if (bp->sigtail) {
		GString *g = g_string_new(bp->sigtail);

		strip_nl(g, FALSE, TRUE);
		g_string_append(s, g->str);
		g_string_append_c(s, '\n');
		g_string_free(g, TRUE);
		if (put_trailers(NULL, trailers, bp, 0) && !bp->sig_block)
			g_string_append_c(s, '\n');
		put_trailers(s, trailers, bp, 0);
	}
	if (*bp->basement) {
		GString *b = g_string_new(bp->basement);

		if (!trailers->len)
			g_string_append_c(s, '\n');
		g_string_append(s, basement_needs_dashes(bp->basement) ? "---\n"
								       : "\n");
		strip_nl(b, TRUE, TRUE);
		g_string_append(s, b->str);
		g_string_append_c(s, '\n');
		g_string_free(b, TRUE);
	}
	if (*bp->signature) {
		GString *g = g_string_new(bp->signature);

		strip_nl(g, FALSE, TRUE);
		g_string_append(s, "-- \n");
		g_string_append(s, g->str);
		g_string_append_c(s, '\n');
		g_string_free(g, TRUE);
	}
	return g_string_free(s, FALSE);
}
