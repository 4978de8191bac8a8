/*
 * msgbody.c - message_body(): a message's text body as UTF-8. A single
 * text part in 7bit/8bit, base64 or quoted-printable is decoded without
 * building GMime objects; multipart and anything odder goes through GMime's
 * parser, which picks the text part.
 */
#include "message.h"
#include "util.h"

#include <gmime/gmime.h>
#include <string.h>

/* Remove every '\r' that precedes a '\n' (and a final one), in place. */
static void
strip_cr(char *s)
{
	size_t i, o = 0;

	for (i = 0; s[i]; i++) {
		if (s[i] == '\r' && (s[i + 1] == '\n' || !s[i + 1]))
			continue;
		s[o++] = s[i];
	}
	s[o] = '\0';
}

static gboolean
has_diff_text(const char *t)
{
	return strstr(t, "\ndiff --git ") || g_str_has_prefix(t, "diff --git ") ||
	       (strstr(t, "\n--- ") && strstr(t, "\n+++ "));
}

static gboolean
is_text_part(GMimeContentType *ct)
{
	const char *type = g_mime_content_type_get_media_type(ct);
	const char *sub = g_mime_content_type_get_media_subtype(ct);

	if (!type || !sub)
		return FALSE;
	if (!g_ascii_strcasecmp(sub, "plain") && !g_ascii_strcasecmp(type, "text"))
		return TRUE;
	return !g_ascii_strcasecmp(sub, "x-patch") ||
	       !g_ascii_strcasecmp(sub, "x-diff");
}

struct pick {
	char *text;
	gboolean nul;
};

/*
 * The decoded content of a text part in UTF-8. Decoding ourselves (rather
 * than g_mime_text_part_get_text) keeps bytes that are invalid in the
 * declared charset visible as U+FFFD, as b4 does, instead of dropping
 * them; and NUL bytes, at which a C string would silently cut the text
 * (half a patch), become U+FFFD too and are reported in *@nul.
 * text_from_bytes() does that to the decoded bytes.
 */
static char *
text_from_bytes(const char *p, size_t n, const char *charset, gboolean *nul)
{
	GString *out = g_string_sized_new(n);
	const char *end;

	/* an empty array may have no data at all */
	if (!n)
		p = "";
	end = p + n;
	for (;;) {
		const char *z = memchr(p, '\0', end - p);
		char *seg = lore_to_utf8(p, (z ? z : end) - p, charset);

		g_string_append(out, seg);
		g_free(seg);
		if (!z)
			break;
		g_string_append(out, "\xef\xbf\xbd");
		*nul = TRUE;
		p = z + 1;
	}
	return g_string_free(out, FALSE);
}

static char *
part_text(GMimePart *part, gboolean *nul)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	const char *charset = g_mime_object_get_content_type_parameter(
	    GMIME_OBJECT(part), "charset");
	GMimeStream *mem;
	GByteArray *ba;
	char *text;

	if (!w)
		return NULL;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(w, mem);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	text = text_from_bytes((const char *)ba->data, ba->len, charset, nul);
	g_object_unref(mem);
	return text;
}

static void
pick_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	struct pick *p = data;
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	gboolean nul = FALSE;
	char *text;

	(void)parent;
	if (!GMIME_IS_PART(part) || !is_text_part(ct))
		return;
	text = part_text(GMIME_PART(part), &nul);
	if (!text)
		return;
	if (!p->text || has_diff_text(text))
		p->nul = nul;
	if (!p->text) {
		p->text = text;
	} else if (has_diff_text(text)) {
		g_free(p->text);
		p->text = text;
	} else {
		g_free(text);
	}
}

/*
 * GMime checks each line against every open multipart boundary, so a
 * message nesting multiparts a million deep costs it half a minute. No
 * patch mail has more than a few parts: past LORE_MAX_MULTIPARTS
 * "Content-Type: multipart/..." lines the message has no text for us.
 */
#define LORE_MAX_MULTIPARTS 256

static gboolean
too_many_parts(const struct message *msg)
{
	size_t pos = 0, ll;
	const char *l;
	guint n = 0;

	while (lore_next_line(msg->raw, msg->len, &pos, &l, &ll)) {
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

/*
 * The text of a MIME body through GMime's parser. Only the MIME part is
 * built (g_mime_parser_construct_part), not a GMimeMessage: that would also
 * parse every address and date header, which we already have, and cost as
 * much again to free.
 */
static char *
body_via_gmime(struct message *msg, gboolean *nul)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeObject *part;
	struct pick p = { NULL, FALSE };

	if (too_many_parts(msg))
		return NULL;

	stream = g_mime_stream_mem_new_with_buffer(msg->raw, msg->len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	part = g_mime_parser_construct_part(parser, NULL);
	g_object_unref(parser);
	if (!part)
		return NULL;
	pick_part(NULL, part, &p);
	if (GMIME_IS_MULTIPART(part))
		g_mime_multipart_foreach(GMIME_MULTIPART(part), pick_part, &p);
	g_object_unref(part);
	*nul = p.nul;
	return p.text;
}

/* An RFC 2045 token character (not '*', which starts RFC 2231 syntax) */
static gboolean
is_token(char c)
{
	return c > ' ' && c < 0x7f && !strchr("()<>@,;:\\\"/[]?=*", c);
}

/* Is [p, end) one of the three names, ignoring case? */
static gboolean
subtype_is(const char *p, const char *end, const char *a, const char *b,
	   const char *c)
{
	size_t n = end - p;

	return (strlen(a) == n && !g_ascii_strncasecmp(p, a, n)) ||
	       (strlen(b) == n && !g_ascii_strncasecmp(p, b, n)) ||
	       (strlen(c) == n && !g_ascii_strncasecmp(p, c, n));
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

/*
 * The common Content-Type forms, "type/subtype" and simple parameters
 * ("; name=token" or "; name=\"plain text\""), read without GMime's
 * parser: *@text is TRUE for the text parts we take (text/plain,
 * text/x-patch, text/x-diff) and *@charset (g_free) is the charset
 * parameter, if any. FALSE, with nothing set, for anything else (comments,
 * RFC 2231 or RFC 2047 parameters, escapes, a repeated charset), which
 * GMime then reads.
 */
static gboolean
simple_ctype(const char *v, gboolean *text, char **charset)
{
	const char *slash, *end, *p, *name, *eq, *val;
	char *cs = NULL;
	size_t vl;

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
		if (eq - name == 7 &&
		    !g_ascii_strncasecmp(name, "charset", 7)) {
			if (cs)
				goto odd;
			cs = g_strndup(val, vl);
		}
	}
	*text = slash - v == 4 && !g_ascii_strncasecmp(v, "text", 4) &&
		subtype_is(slash + 1, end, "plain", "x-patch", "x-diff");
	*charset = cs;
	return TRUE;
odd:
	g_free(cs);
	return FALSE;
}

/*
 * How the body is encoded, from the message's own Content-Type and
 * Content-Transfer-Encoding: one text part taken as it is, one text part in
 * base64 or quoted-printable, or anything else (multipart, other types),
 * which needs GMime's parser.
 */
enum body_kind { BODY_PLAIN, BODY_ENCODED, BODY_MIME };

static enum body_kind
body_kind(const struct message *msg, char **charset, GMimeContentEncoding *enc)
{
	enum body_kind kind = BODY_PLAIN;
	const char *e = msg->cte_hdr;
	gboolean text;

	*charset = NULL;
	if (e && g_ascii_strncasecmp(e, "7bit", 4) &&
	    g_ascii_strncasecmp(e, "8bit", 4) &&
	    g_ascii_strncasecmp(e, "binary", 6)) {
		/* the exact names only: anything odder is GMime's to judge */
		if (!g_ascii_strcasecmp(e, "base64"))
			*enc = GMIME_CONTENT_ENCODING_BASE64;
		else if (!g_ascii_strcasecmp(e, "quoted-printable"))
			*enc = GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
		else
			return BODY_MIME;
		kind = BODY_ENCODED;
	}
	if (msg->ctype_hdr && simple_ctype(msg->ctype_hdr, &text, charset))
		return text ? kind : BODY_MIME;
	if (msg->ctype_hdr) {
		GMimeContentType *ct =
			g_mime_content_type_parse(NULL, msg->ctype_hdr);
		gboolean ok;

		if (!ct)
			return BODY_MIME;
		ok = !g_ascii_strcasecmp(g_mime_content_type_get_media_type(ct),
					 "text") &&
		     is_text_part(ct);
		if (ok)
			*charset = g_strdup(
				g_mime_content_type_get_parameter(ct, "charset"));
		g_object_unref(ct);
		return ok ? kind : BODY_MIME;
	}
	return kind;
}

/*
 * What part_text() gives for a single text part, without building GMime
 * objects: the transfer encoding undone with GMime's decoder, then the
 * text made UTF-8 from @charset (NUL bytes as U+FFFD, reported in *@nul).
 */
static char *
decode_text(const char *s, size_t n, GMimeContentEncoding enc,
	    const char *charset, gboolean *nul)
{
	GMimeEncoding state;
	char *dec, *text;
	size_t dn;

	g_mime_encoding_init_decode(&state, enc);
	dec = g_malloc(g_mime_encoding_outlen(&state, n) + 1);
	dn = g_mime_encoding_flush(&state, s, n, dec);
	text = text_from_bytes(dec, dn, charset, nul);
	g_free(dec);
	return text;
}

const char *
message_body(struct message *msg)
{
	g_autofree char *charset = NULL;
	const char *raw = msg->raw + msg->body_off;
	size_t n = msg->len - msg->body_off;
	GMimeContentEncoding enc = GMIME_CONTENT_ENCODING_DEFAULT;
	enum body_kind kind;
	char *text = NULL;

	if (msg->body_done)
		return msg->body;
	msg->body_done = TRUE;
	kind = body_kind(msg, &charset, &enc);
	/* a NUL would cut the C string short: GMime's path keeps lengths */
	if (kind == BODY_PLAIN && memchr(raw, '\0', n))
		kind = BODY_MIME;
	switch (kind) {
	case BODY_PLAIN:
		/* Most bodies are UTF-8 with LF line ends already: they are
		 * used in place (raw is NUL-terminated), not copied. */
		if (g_utf8_validate(raw, n, NULL) && !memchr(raw, '\r', n)) {
			msg->body = (char *)raw;
			return msg->body;
		}
		text = lore_to_utf8(raw, n, charset);
		break;
	case BODY_ENCODED:
		text = decode_text(raw, n, enc, charset, &msg->body_nul);
		break;
	case BODY_MIME:
		text = body_via_gmime(msg, &msg->body_nul);
		break;
	}
	if (!text)
		text = g_strdup("");
	if (!g_utf8_validate(text, -1, NULL)) {
		char *t = g_utf8_make_valid(text, -1);

		g_free(text);
		text = t;
	}
	strip_cr(text);
	msg->body = text;
	return msg->body;
}
