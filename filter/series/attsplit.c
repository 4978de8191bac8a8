/*
 * attsplit.c - message_split(): a mail that carries several patches as
 * attachments (text/x-patch, text/x-diff, or a "*.patch"/"*.diff" file of
 * another type) made into the mails of a series, as b4 takes them: a cover
 * letter with the mail's own text and Message-ID, then one mail per
 * attachment. An attachment that is itself a patch mail (git format-patch
 * output) keeps its own From:, Date:, Subject: and encoding, as git am of
 * that file would read it.
 */
#include "mail/body.h"
#include "mail/message.h"
#include "mail/msgbody.h"
#include "mail/rfc2047.h"
#include "mail/subject.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

/* What a walk over the parts found: the text and the patches, in order. */
struct scan {
	GByteArray *text; /* the first inline text/plain part, or NULL */
	char *text_charset;
	GPtrArray *atts; /* GByteArray *, decoded */
	GPtrArray *cs;	 /* char * charset of each (or NULL) */
};

static gboolean
named_patch(const char *name)
{
	g_autofree char *l = name ? g_ascii_strdown(name, -1) : NULL;

	return l &&
	       (g_str_has_suffix(l, ".patch") || g_str_has_suffix(l, ".diff"));
}

/* Does @ba hold a diff? (body.h's test, on a NUL-terminated copy) */
static gboolean
holds_diff(GByteArray *ba)
{
	g_autofree char *s = g_strndup((const char *)ba->data, ba->len);

	return body_has_diff(s);
}

static void
scan_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	struct scan *sc = data;
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	const char *type, *sub, *name;
	gboolean patchy, plain;
	GByteArray *ba;

	(void)parent;
	if (!GMIME_IS_PART(part) || !ct)
		return;
	type = g_mime_content_type_get_media_type(ct);
	sub = g_mime_content_type_get_media_subtype(ct);
	if (!type || !sub)
		return;
	name = g_mime_part_get_filename(GMIME_PART(part));
	plain = !g_ascii_strcasecmp(type, "text") &&
		!g_ascii_strcasecmp(sub, "plain");
	patchy = (!g_ascii_strcasecmp(type, "text") &&
		  (!g_ascii_strcasecmp(sub, "x-patch") ||
		   !g_ascii_strcasecmp(sub, "x-diff"))) ||
		 ((plain || !g_ascii_strcasecmp(type, "application")) &&
		  named_patch(name));
	if (!patchy && !(plain && !name && !sc->text))
		return;
	ba = msgbody_part_bytes(GMIME_PART(part));
	if (!ba)
		return;
	/* an empty part adds nothing, and its data may be NULL */
	if (!ba->len) {
		g_byte_array_unref(ba);
		return;
	}
	if (patchy && holds_diff(ba)) {
		g_ptr_array_add(sc->atts, ba);
		g_ptr_array_add(
		    sc->cs, g_strdup(g_mime_object_get_content_type_parameter(
				part, "charset")));
		return;
	}
	if (plain && !name && !sc->text) {
		sc->text = ba;
		sc->text_charset = g_strdup(
		    g_mime_object_get_content_type_parameter(part, "charset"));
		return;
	}
	g_byte_array_unref(ba);
}

static void
scan_clear(struct scan *sc)
{
	if (sc->text)
		g_byte_array_unref(sc->text);
	g_free(sc->text_charset);
	g_ptr_array_free(sc->atts, TRUE);
	g_ptr_array_free(sc->cs, TRUE);
}

static void
header(GString *s, const char *name, const char *value)
{
	if (value && *value)
		g_string_append_printf(s, "%s: %s\n", name, value);
}

/* "Subject: [PATCH vR i/N] title", encoded when it is not ASCII. */
static void
subject_header(GString *s, int revision, guint i, guint n, const char *subj)
{
	g_autofree char *title = subject_strip_prefixes(subj);
	g_autofree char *enc = NULL;
	const char *p;

	for (p = title; *p && (guchar)*p < 0x80; p++)
		;
	if (*p)
		enc = rfc2047_encode(title);
	g_string_append(s, "Subject: [PATCH");
	if (revision > 1)
		g_string_append_printf(s, " v%d", revision);
	g_string_append_printf(s, " %u/%u] %s\n", i, n, enc ? enc : title);
}

/* The ids that thread mail @i of the split: the cover answers what the
 * mail answers, the patches answer the cover (the mail's own id). */
static void
id_headers(GString *s, const struct message *m, guint i)
{
	guint k;

	if (i)
		g_string_append_printf(s, "Message-Id: <%s#%u>\n", m->msgid, i);
	else
		g_string_append_printf(s, "Message-Id: <%s>\n", m->msgid);
	if (i)
		g_string_append_printf(s, "In-Reply-To: <%s>\n", m->msgid);
	else if (m->in_reply_to)
		g_string_append_printf(s, "In-Reply-To: <%s>\n",
				       m->in_reply_to);
	if (!m->refs->len && !i)
		return;
	g_string_append(s, "References:");
	for (k = 0; k < m->refs->len; k++)
		g_string_append_printf(s, " <%s>",
				       (const char *)m->refs->pdata[k]);
	if (i)
		g_string_append_printf(s, " <%s>", m->msgid);
	g_string_append_c(s, '\n');
}

/* Is @ba a patch mail of its own: an mbox "From " line, or a From:,
 * Date: or Subject: header, first (git am reads such a file as a mail)?
 * A ">From " line is that line escaped by the mbox the mail went through. */
static struct message *
as_mail(GByteArray *ba)
{
	const char *p = (const char *)ba->data, *nl;
	size_t n = ba->len;

	if (n > 6 && !memcmp(p, ">From ", 6) && (nl = memchr(p, '\n', n))) {
		n -= nl + 1 - p;
		p = nl + 1;
	}
	if (!(n > 5 && !memcmp(p, "From ", 5)) &&
	    !lore_has_prefix_ci(p, n, "from:") &&
	    !lore_has_prefix_ci(p, n, "date:") &&
	    !lore_has_prefix_ci(p, n, "subject:"))
		return NULL;
	return message_parse(p, n, NULL);
}

static struct message *
parsed(GString *raw, const struct message *m)
{
	struct message *d = message_parse(raw->str, raw->len, NULL);

	if (d) {
		d->origin = m->origin;
		d->seq = m->seq;
		d->provisional = m->provisional;
	}
	return d;
}

/* Patch @i of @n from attachment @ba (charset @cs). */
static struct message *
patch_mail(const struct message *m, int revision, guint i, guint n,
	   GByteArray *ba, const char *cs)
{
	struct message *own = as_mail(ba), *d;
	GString *s = g_string_new(NULL);

	header(s, "From", own && own->from_hdr ? own->from_hdr : m->from_hdr);
	header(s, "Date", own && own->date_hdr ? own->date_hdr : m->date_hdr);
	subject_header(s, revision, i, n,
		       own && *own->subject ? own->subject : m->subject);
	id_headers(s, m, i);
	header(s, "To", m->to_hdr);
	header(s, "Cc", m->cc_hdr);
	if (own) {
		/* its own encoding, as git am of the file reads it */
		if (own->ctype_hdr)
			g_string_append(s, "MIME-Version: 1.0\n");
		header(s, "Content-Type", own->ctype_hdr);
		header(s, "Content-Transfer-Encoding", own->cte_hdr);
		g_string_append_c(s, '\n');
		g_string_append_len(s, own->raw + own->body_off,
				    own->len - own->body_off);
	} else {
		g_string_append(s, "MIME-Version: 1.0\n"
				   "Content-Type: text/plain");
		if (cs)
			g_string_append_printf(s, "; charset=\"%s\"", cs);
		g_string_append(s, "\nContent-Transfer-Encoding: 8bit\n\n");
		g_string_append_len(s, (const char *)ba->data, ba->len);
	}
	d = parsed(s, m);
	g_string_free(s, TRUE);
	message_free(own);
	return d;
}

static struct message *
cover_mail(const struct message *m, int revision, guint n, struct scan *sc)
{
	struct message *d;
	GString *s = g_string_new(NULL);

	header(s, "From", m->from_hdr);
	header(s, "Date", m->date_hdr);
	subject_header(s, revision, 0, n, m->subject);
	id_headers(s, m, 0);
	header(s, "To", m->to_hdr);
	header(s, "Cc", m->cc_hdr);
	g_string_append(s, "MIME-Version: 1.0\nContent-Type: text/plain");
	if (sc->text_charset)
		g_string_append_printf(s, "; charset=\"%s\"", sc->text_charset);
	g_string_append(s, "\nContent-Transfer-Encoding: 8bit\n\n");
	if (sc->text)
		g_string_append_len(s, (const char *)sc->text->data,
				    sc->text->len);
	d = parsed(s, m);
	g_string_free(s, TRUE);
	return d;
}

static gboolean
is_multipart(const struct message *m)
{
	const char *v = m->ctype_hdr;

	while (v && (*v == ' ' || *v == '\t'))
		v++;
	return v && !g_ascii_strncasecmp(v, "multipart/", 10);
}

/* Does the line [l, l+n) name a patch type or file ("x-patch", "x-diff",
 * ".patch", ".diff"), in any case? */
static gboolean
names_patch(const char *l, size_t n)
{
	static const char *const marks[] = {"x-patch", "x-diff", ".patch",
					    ".diff"};
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (l[i] != 'x' && l[i] != 'X' && l[i] != '.')
			continue;
		for (k = 0; k < G_N_ELEMENTS(marks); k++)
			if (lore_has_prefix_ci(l + i, n - i, marks[k]))
				return TRUE;
	}
	return FALSE;
}

/*
 * Could the mail have two patch attachments? Their Content-Type and
 * Content-Disposition lines (or the folded lines after them) name them:
 * without two such lines, GMime is not asked to build the parts (most
 * multipart mail in a thread is a reply in multipart/alternative).
 */
static gboolean
may_have_two(const struct message *m)
{
	size_t pos = m->body_off, ll;
	const char *l;
	guint n = 0;

	while (lore_next_line(m->raw, m->len, &pos, &l, &ll)) {
		if (!ll || (l[0] != ' ' && l[0] != '\t' &&
			    !lore_has_prefix_ci(l, ll, "content-")))
			continue;
		if (names_patch(l, ll) && ++n >= 2)
			return TRUE;
	}
	return FALSE;
}

static GPtrArray *
split(struct message *m)
{
	struct scan sc = {NULL, NULL, NULL, NULL};
	GPtrArray *out = NULL;
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeObject *top;
	struct subject subj;
	guint i;

	if (!m->msgid || !is_multipart(m) || !may_have_two(m) ||
	    message_mime_too_deep(m))
		return NULL;
	sc.atts =
	    g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
	sc.cs = g_ptr_array_new_with_free_func(g_free);
	stream = g_mime_stream_mem_new_with_buffer(m->raw, m->len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	top = g_mime_parser_construct_part(parser, NULL);
	g_object_unref(parser);
	if (top && GMIME_IS_MULTIPART(top))
		g_mime_multipart_foreach(GMIME_MULTIPART(top), scan_part, &sc);
	if (top)
		g_object_unref(top);
	if (sc.atts->len < 2) {
		scan_clear(&sc);
		return NULL;
	}
	subject_parse(m->subject, &subj);
	out = g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	g_ptr_array_add(out, cover_mail(m, subj.revision, sc.atts->len, &sc));
	for (i = 0; i < sc.atts->len; i++)
		g_ptr_array_add(out, patch_mail(m, subj.revision, i + 1,
						sc.atts->len, sc.atts->pdata[i],
						sc.cs->pdata[i]));
	subject_clear(&subj);
	scan_clear(&sc);
	/* all or nothing: a mail that cannot be made is no series */
	for (i = 0; i < out->len; i++) {
		const struct message *d = out->pdata[i];

		if (!d || !d->msgid) {
			g_ptr_array_free(out, TRUE);
			return NULL;
		}
	}
	return out;
}

const GPtrArray *
message_split(struct message *m)
{
	if (!m->split_done) {
		m->split_done = TRUE;
		m->split = split(m);
	}
	return m->split;
}
