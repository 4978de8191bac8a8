/*
 * msgbody.c - message_body(): a message's text body, put together the way
 * git mailinfo reads a mail (every text part, and every part with a diff,
 * in order; the message converted to UTF-8, the patch kept as sent). A
 * single text part in 7bit/8bit, base64 or quoted-printable, and a plain
 * multipart (mimesplit.h), are decoded without GMime (cte.h); any other
 * multipart goes through GMime's parser.
 */
#include "mail/msgbody.h"
#include "mail/cte.h"
#include "mail/mailinfo.h"
#include "mail/message.h"
#include "mail/mimesplit.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

/* Remove every '\r' before a '\n' (and a final one) from the @n bytes at
 * @s, in place, as git am's mailsplit does to line ends; returns the new
 * length. With @runs, a whole run of CRs before a line end goes, as git's
 * stripspace takes a commit message's trailing white space. */
static size_t
strip_cr_len(char *s, size_t n, gboolean runs)
{
	size_t i, j, o = 0, keep;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && s[j] == '\r'; j++)
			;
		/* a run of CRs [i, j), kept whole unless a line end follows */
		keep = j - i;
		if (keep && (j == n || s[j] == '\n'))
			keep = runs ? 0 : keep - 1;
		memset(s + o, '\r', keep);
		o += keep;
		if (j < n)
			s[o++] = s[j++];
	}
	if (o < n)
		s[o] = '\0';
	return o;
}

static gboolean
has_diff_bytes(const char *t, size_t n)
{
	return (n >= 11 && !memcmp(t, "diff --git ", 11)) ||
	       memmem(t, n, "\ndiff --git ", 12) ||
	       (((n >= 4 && !memcmp(t, "--- ", 4)) ||
		 memmem(t, n, "\n--- ", 5)) &&
		memmem(t, n, "\n+++ ", 5));
}

static gboolean
is_text_part(GMimeContentType *ct)
{
	const char *type = g_mime_content_type_get_media_type(ct);
	const char *sub = g_mime_content_type_get_media_subtype(ct);

	if (!type || !sub)
		return FALSE;
	return (!g_ascii_strcasecmp(sub, "plain") &&
		!g_ascii_strcasecmp(type, "text")) ||
	       !g_ascii_strcasecmp(sub, "x-patch") ||
	       !g_ascii_strcasecmp(sub, "x-diff");
}

/*
 * The body being put together, part after part, as git mailinfo reads it:
 * until the patch break (mailinfo.h) the text is the commit message, made
 * UTF-8 from its part's charset; from the break on it is the patch, whose
 * bytes git applies as they were sent (it converts the message only), so
 * they are kept. NUL bytes would cut a C string short: everywhere they
 * become U+FFFD and are reported in @nul.
 */
struct assembly {
	GString *out;
	gboolean in_patch;
	gboolean nul;
	gboolean flowed, delsp; /* the part's format=flowed; delsp=yes */
};

/*
 * git's has_attr_value(): does the Content-Type value @ct hold "@name"
 * (found anywhere, in any case) with the value @value, quoted or ended by
 * ';' or white space?
 */
static gboolean
attr_is(const char *ct, const char *name, const char *value)
{
	const char *p = ct ? mime_find_ci(ct, name) : NULL;
	size_t n;

	if (!p)
		return FALSE;
	p += strlen(name);
	if (*p == '"')
		n = strcspn(++p, "\"");
	else
		n = strcspn(p, "; \t");
	return n == strlen(value) && !g_ascii_strncasecmp(p, value, n);
}

static void
set_flowed(struct assembly *a, const char *ct)
{
	a->flowed = attr_is(ct, "format=", "flowed");
	a->delsp = a->flowed && attr_is(ct, "delsp=", "yes");
}

/*
 * RFC 3676 unwrapping as git mailinfo does it, on every line of the part,
 * the patch's too: a space-stuffed line loses its first space, a line
 * ending in a space (a soft break) is joined to the next one, without that
 * space when @delsp; the "-- " signature line stays as it is. Returns a
 * new buffer of *@out_n bytes.
 */
static char *
unflow(const char *p, size_t n, gboolean delsp, size_t *out_n)
{
	GString *out = g_string_sized_new(n), *prev = g_string_new(NULL);
	size_t pos = 0, ll;
	const char *l;

	while (lore_next_line(p, n, &pos, &l, &ll)) {
		size_t full = ll + (l + ll < p + n), len = ll;

		if (len && l[len - 1] == '\r')
			len--;
		if (len == 3 && !memcmp(l, "-- ", 3)) {
			g_string_append_len(out, prev->str, prev->len);
			g_string_truncate(prev, 0);
			g_string_append_len(out, l, full);
			continue;
		}
		if (len && l[0] == ' ')
			l++, len--, full--;
		if (len && l[len - 1] == ' ') {
			g_string_append_len(prev, l, len - (delsp ? 1 : 0));
			continue;
		}
		g_string_append_len(out, prev->str, prev->len);
		g_string_truncate(prev, 0);
		g_string_append_len(out, l, full);
	}
	g_string_append_len(out, prev->str, prev->len);
	g_string_free(prev, TRUE);
	*out_n = out->len;
	return g_string_free(out, FALSE);
}

/* Append [p, p+n) with each NUL replaced by U+FFFD, converted from
 * @charset when @convert. */
static void
append_bytes(struct assembly *a, const char *p, size_t n, gboolean convert,
	     const char *charset)
{
	const char *end = p + n;

	while (p < end) {
		const char *z = memchr(p, '\0', end - p);
		const char *e = z ? z : end;

		if (convert) {
			g_autofree char *seg = lore_to_utf8(p, e - p, charset);

			g_string_append(a->out, seg);
		} else {
			g_string_append_len(a->out, p, e - p);
		}
		if (!z)
			break;
		g_string_append(a->out, "\xef\xbf\xbd");
		a->nul = TRUE;
		p = z + 1;
	}
}

static void
append_text(struct assembly *a, const char *p, size_t n, const char *charset)
{
	size_t cut = n, pos = 0, ll;
	g_autofree char *unflowed = NULL;
	const char *l;

	if (!n)
		return;
	if (a->flowed) {
		unflowed = unflow(p, n, a->delsp, &n);
		p = unflowed;
		cut = n;
	}
	while (!a->in_patch && lore_next_line(p, n, &pos, &l, &ll)) {
		size_t cl = ll;

		while (cl && l[cl - 1] == '\r')
			cl--;
		/* git tests the scissors first: "--- >8 ---" is one */
		if (mailinfo_is_patch_break(l, cl) &&
		    !mailinfo_is_scissors(l, cl)) {
			cut = l - p;
			a->in_patch = TRUE;
		}
	}
	/* a CR that base64 or quoted-printable kept (the raw mail's are gone)
	 * ends no line of the commit message (git's stripspace), but stays
	 * in the patch, which git applies with it (--quoted-cr=warn) */
	if (cut && memchr(p, '\r', cut)) {
		/* a copy of the bytes, NULs included (g_strndup would stop) */
		g_autofree char *m = g_malloc(cut + 1);
		size_t mn;

		memcpy(m, p, cut);
		m[cut] = '\0';
		mn = strip_cr_len(m, cut, TRUE);

		append_bytes(a, m, mn, TRUE, charset);
	} else {
		append_bytes(a, p, cut, TRUE, charset);
	}
	append_bytes(a, p + cut, n - cut, FALSE, NULL);
}

GByteArray *
msgbody_part_bytes(GMimePart *part)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *ba;

	if (!w)
		return NULL;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(w, mem);
	/* the stream would free the array with itself: take it over */
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	return ba;
}

/* Is type/sub one git mailinfo reads as text? */
static gboolean
text_type(const char *type, size_t tl, const char *sub, size_t sl)
{
	return (mime_word_is(sub, sl, "plain") &&
		mime_word_is(type, tl, "text")) ||
	       mime_word_is(sub, sl, "x-patch") ||
	       mime_word_is(sub, sl, "x-diff");
}

/*
 * Every part git mailinfo would read for the message and the patch, in
 * order: the text parts, and any other part that holds a diff whatever its
 * type (an application/octet-stream "fix.patch"). HTML is never the message
 * (git takes it too, as text), and other attachments are not text. @data:
 * the part's @n bytes, transfer encoding undone (of @enc); @ctype its
 * Content-Type value, @charset its charset parameter.
 */
static void
take_bytes(struct assembly *a, const char *type, const char *sub,
	   const char *data, size_t n, GMimeContentEncoding enc,
	   const char *ctype, const char *charset)
{
	gboolean text;

	if (!type || !sub)
		return;
	text = text_type(type, strlen(type), sub, strlen(sub));
	/* a diff hides in text/ and application/ parts, never in images or
	 * sound, which are not decoded at all; an empty part adds nothing */
	if ((!text && (g_ascii_strcasecmp(type, "text") &&
		       g_ascii_strcasecmp(type, "application"))) ||
	    (!text && !g_ascii_strcasecmp(sub, "html")) || !n)
		return;
	/* once the patch has begun, a part without a diff (a list footer)
	 * is no part of it, as b4 and patchwork read it; git am takes it for
	 * text after the diff, which changes no commit */
	if (a->in_patch || !text)
		text = has_diff_bytes(data, n);
	if (!text)
		return;
	set_flowed(a, ctype);
	/* each part's lines stand apart from the next part's */
	if (a->out->len && a->out->str[a->out->len - 1] != '\n')
		g_string_append_c(a->out, '\n');
	append_text(a, data, n, charset);
	/* GMime gives the part without the line end before the boundary,
	 * which git reads as the part's last line end; decoded base64 has
	 * none of its own there */
	if (enc != GMIME_CONTENT_ENCODING_BASE64)
		g_string_append_c(a->out, '\n');
}

static void
take_part(GMimeObject *parent, GMimeObject *part, gpointer data)
{
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	GByteArray *ba;

	(void)parent;
	if (!GMIME_IS_PART(part))
		return;
	ba = msgbody_part_bytes(GMIME_PART(part));
	if (!ba)
		return;
	take_bytes(data, g_mime_content_type_get_media_type(ct),
		   g_mime_content_type_get_media_subtype(ct),
		   (const char *)ba->data, ba->len,
		   g_mime_part_get_content_encoding(GMIME_PART(part)),
		   g_mime_object_get_header(part, "Content-Type"),
		   g_mime_object_get_content_type_parameter(part, "charset"));
	g_byte_array_free(ba, TRUE);
}

gboolean
message_mime_too_deep(const struct message *msg)
{
	return mime_too_deep(msg->raw, msg->len);
}

/*
 * The text of a MIME body through GMime's parser. Only the MIME part is
 * built (g_mime_parser_construct_part), not a GMimeMessage: that would also
 * parse every address and date header, which we already have, and cost as
 * much again to free.
 */
static void
body_via_gmime(struct message *msg, const char *raw, size_t len,
	       struct assembly *a)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeObject *part;

	if (message_mime_too_deep(msg))
		return;

	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	part = g_mime_parser_construct_part(parser, NULL);
	g_object_unref(parser);
	if (!part)
		return;
	take_part(NULL, part, a);
	if (GMIME_IS_MULTIPART(part))
		g_mime_multipart_foreach(GMIME_MULTIPART(part), take_part, a);
	g_object_unref(part);
}

/*
 * The message's own Content-Type in its common forms (mimesplit.h): *@text
 * is TRUE for the text parts we take (text/plain, text/x-patch,
 * text/x-diff) and *@charset (g_free) its charset parameter, if any. FALSE,
 * with nothing set, for anything else, which GMime then reads.
 */
static gboolean
simple_ctype(const char *v, gboolean *text, char **charset)
{
	struct mime_ctype ct;

	if (!mime_ctype_simple(v, &ct))
		return FALSE;
	*text = mime_word_is(ct.type, ct.tlen, "text") &&
		text_type(ct.type, ct.tlen, ct.sub, ct.slen);
	*charset = g_steal_pointer(&ct.charset);
	mime_ctype_clear(&ct);
	return TRUE;
}

gboolean msgbody_gmime_only;
gboolean msgbody_by_hand = TRUE;

/* One leaf of a multipart split by hand, decoded, taken as take_part()
 * takes GMime's. */
static void
take_leaf(struct assembly *a, const struct mime_leaf *leaf)
{
	struct mime_ctype ct;
	g_autofree char *type = NULL, *sub = NULL, *dec = NULL;
	const char *data = leaf->data;
	size_t n = leaf->len;

	if (!mime_ctype_simple(leaf->ctype, &ct))
		return; /* mime_split_simple() read it already */
	type = g_strndup(ct.type, ct.tlen);
	sub = g_strndup(ct.sub, ct.slen);
	if (leaf->enc == GMIME_CONTENT_ENCODING_BASE64 ||
	    leaf->enc == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE) {
		dec = cte_decode(leaf->enc ==
				     GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE,
				 data, n, &n);
		data = dec;
	}
	take_bytes(a, type, sub, data, n, leaf->enc, leaf->ctype, ct.charset);
	mime_ctype_clear(&ct);
}

/*
 * A multipart of one level split by hand where it is plain (mimesplit.h),
 * GMime's parser being a hundred times dearer: FALSE, with nothing taken,
 * when GMime must read it.
 */
static gboolean
body_by_hand(const struct message *msg, struct assembly *a)
{
	const char *e = msg->cte_hdr;
	struct mime_ctype ct;
	GArray *leaves = NULL;
	guint i;

	/* a header line that is no field ends GMime's reading of the header
	 * (or of the message): what it reads then is its own to say */
	if (!msgbody_by_hand || msgbody_gmime_only || msg->hdr_odd ||
	    !msg->ctype_hdr || !mime_ctype_simple(msg->ctype_hdr, &ct))
		return FALSE;
	if (mime_word_is(ct.type, ct.tlen, "multipart") && ct.boundary &&
	    (!e || !g_ascii_strcasecmp(e, "7bit") ||
	     !g_ascii_strcasecmp(e, "8bit")) &&
	    message_header_count(msg, "Content-Type") == 1)
		leaves =
		    mime_split_simple(msg->raw + msg->body_off,
				      msg->len - msg->body_off, ct.boundary);
	mime_ctype_clear(&ct);
	if (!leaves)
		return FALSE;
	for (i = 0; i < leaves->len; i++)
		take_leaf(a, &g_array_index(leaves, struct mime_leaf, i));
	g_array_unref(leaves);
	return TRUE;
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
 * A single text part in base64 or quoted-printable, without GMime: the
 * transfer encoding undone as GMime's decoder undoes it (cte.h).
 */
static void
decode_text(struct assembly *a, const char *s, size_t n,
	    GMimeContentEncoding enc, const char *charset)
{
	size_t dn;
	char *dec = cte_decode(enc == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE, s,
			       n, &dn);

	append_text(a, dec, dn, charset);
	g_free(dec);
}

const char *
message_body(struct message *msg)
{
	g_autofree char *charset = NULL;
	const char *raw = msg->raw + msg->body_off;
	size_t n = msg->len - msg->body_off;
	GMimeContentEncoding enc = GMIME_CONTENT_ENCODING_DEFAULT;
	struct assembly a = {NULL, FALSE, FALSE, FALSE, FALSE};
	g_autofree char *nocr = NULL;
	enum body_kind kind;
	char *text, *am = NULL;

	if (msg->body_done)
		return msg->body;
	msg->body_done = TRUE;
	kind = body_kind(msg, &charset, &enc);
	if (kind != BODY_MIME)
		set_flowed(&a, msg->ctype_hdr);
	/* Most bodies are UTF-8 with LF line ends already: used in place
	 * (raw ends in a NUL). ISO-2022-JP is valid UTF-8 too: not it. */
	if (kind == BODY_PLAIN && !a.flowed && !memchr(raw, '\0', n) &&
	    !memchr(raw, '\r', n) && lore_utf8_valid(raw, n) &&
	    !lore_charset_7bit_stateful(charset)) {
		msg->body = (char *)raw;
		return msg->body;
	}
	a.out = g_string_sized_new(n);
	/* what git am reads: the mail with the CR of each line end removed
	 * (mailsplit), before any transfer encoding is undone */
	if (memchr(msg->raw, '\r', msg->len)) {
		nocr = g_memdup2(msg->raw, msg->len + 1);
		if (kind == BODY_MIME) {
			n = strip_cr_len(nocr, msg->len, FALSE);
		} else {
			n = strip_cr_len(nocr + msg->body_off, n, FALSE);
			raw = nocr + msg->body_off;
		}
	}
	switch (kind) {
	case BODY_PLAIN:
		append_text(&a, raw, n, charset);
		break;
	case BODY_ENCODED:
		decode_text(&a, raw, n, enc, charset);
		break;
	case BODY_MIME:
		if (nocr)
			body_via_gmime(msg, nocr, n, &a);
		else if (!body_by_hand(msg, &a))
			body_via_gmime(msg, msg->raw, msg->len, &a);
		break;
	}
	text = g_string_free(a.out, FALSE);
	msg->body_nul = a.nul;
	/* line-end CRs left are a decoded patch's own: kept for the am-ready
	 * message only */
	if (strstr(text, "\r\n") || g_str_has_suffix(text, "\r")) {
		am = g_strdup(text);
		strip_cr_len(text, strlen(text), FALSE);
	}
	/* only a patch's own bytes can be other than UTF-8: they are kept
	 * for the am-ready message, and shown as U+FFFD everywhere else */
	if (!lore_utf8_valid(text, strlen(text))) {
		char *valid = g_utf8_make_valid(text, -1);

		if (am)
			g_free(text);
		else
			am = text;
		text = valid;
	}
	msg->patch_text = am;
	msg->body = text;
	return msg->body;
}

const char *
message_am_body(struct message *msg)
{
	const char *body = message_body(msg);

	return msg->patch_text ? msg->patch_text : body;
}
