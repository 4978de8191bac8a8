/*
 * message.c - RFC 5322 header scan and body decoding. Headers are read by
 * hand (unfolding per RFC 5322 2.2.3) because threading a large archive needs
 * only a handful of them; RFC 2047 words, addresses and dates go through
 * GMime, as do bodies that are not plain 7bit/8bit text.
 */
#include "message.h"
#include "msgid.h"
#include "util.h"

#include <gmime/gmime.h>
#include <string.h>

/* Length of [p, end) after dropping a trailing '\r'. */
static size_t
chomp_len(const char *p, size_t n)
{
	return (n && p[n - 1] == '\r') ? n - 1 : n;
}

/* Collapse folding and runs of white space to single spaces. */
static char *
unfold(const char *p, size_t n)
{
	char *out = g_malloc(n + 1), *o = out;
	gboolean sp = FALSE;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = p[i];

		if (c == '\r' || c == '\n' || c == '\t' || c == ' ') {
			sp = TRUE;
			continue;
		}
		if (sp && o > out)
			*o++ = ' ';
		sp = FALSE;
		*o++ = c;
	}
	*o = '\0';
	return out;
}

/*
 * Call @fn for each header field of @raw with its name and raw (folded)
 * value; stops when @fn returns FALSE. Returns the body offset.
 */
typedef gboolean (*header_fn)(const char *name, size_t nlen, const char *val,
			      size_t vlen, void *data);

static size_t
scan_headers(const char *raw, size_t len, header_fn fn, void *data,
	     guint *nfields)
{
	size_t pos = 0, field_start = 0, colon = 0;
	const char *line;
	size_t ll;
	gboolean in_field = FALSE, go = TRUE;
	guint n = 0;

	while (lore_next_line(raw, len, &pos, &line, &ll)) {
		size_t cl = chomp_len(line, ll);

		if (cl && (line[0] == ' ' || line[0] == '\t'))
			continue; /* continuation of the current field */
		if (in_field && go) {
			size_t vend = line - raw;
			const char *v = raw + colon + 1;

			go = fn(raw + field_start, colon - field_start, v,
				vend - (colon + 1), data);
			n++;
		}
		in_field = FALSE;
		if (cl == 0) {
			if (nfields)
				*nfields = n;
			return pos;
		}
		{
			const char *c = memchr(line, ':', cl);
			size_t k;

			if (!c)
				continue; /* not a field: tolerate and skip */
			for (k = 0; line + k < c; k++)
				if (line[k] <= ' ' || line[k] > '~')
					break;
			if (line + k != c || k == 0)
				continue;
			in_field = TRUE;
			field_start = line - raw;
			colon = c - raw;
		}
	}
	if (in_field && go) {
		fn(raw + field_start, colon - field_start, raw + colon + 1,
		   len - (colon + 1), data);
		n++;
	}
	if (nfields)
		*nfields = n;
	return len;
}

struct want {
	const char *name;
	char *value;
};

static gboolean
find_one(const char *name, size_t nlen, const char *val, size_t vlen,
	 void *data)
{
	struct want *w = data;

	if (strlen(w->name) == nlen && !g_ascii_strncasecmp(name, w->name, nlen)) {
		w->value = unfold(val, vlen);
		return FALSE;
	}
	return TRUE;
}

char *
message_header(const struct message *msg, const char *name)
{
	struct want w = { name, NULL };

	scan_headers(msg->raw, msg->body_off, find_one, &w, NULL);
	return w.value;
}

/* RFC 5322 atext, less the few characters whose handling we leave to GMime */
static gboolean
is_atext(char c)
{
	return g_ascii_isalnum(c) || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/*
 * A dot-atom local@domain in ASCII, with a plain host name (letters,
 * digits, '-'; no IDN "xn--" label that a parser might decode): any parser
 * takes it as written.
 */
static gboolean
plain_addr(const char *p, size_t n)
{
	const char *at = memchr(p, '@', n), *end = p + n, *q;

	if (!at || at == p || at == end - 1 ||
	    memchr(at + 1, '@', end - at - 1))
		return FALSE;
	for (q = p; q < end; q++) {
		gboolean label_start = q == p || q == at + 1 || q[-1] == '.';

		if (q == at)
			continue;
		if (*q == '.') {
			/* no dot at either end of a part, no two in a row */
			if (label_start || q + 1 == at || q + 1 == end)
				return FALSE;
		} else if (q < at) {
			if (!is_atext(*q))
				return FALSE;
		} else if (!g_ascii_isalnum(*q) && *q != '-') {
			return FALSE;
		} else if (label_start && end - q >= 4 &&
			   !g_ascii_strncasecmp(q, "xn--", 4)) {
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * The common forms "Name Surname <local@domain>" and "local@domain" in plain
 * ASCII, where the name is atoms separated by single spaces (headers come
 * here unfolded): no quotes, comments, encoded words, groups or lists, so
 * there is nothing for GMime's address parser to interpret. Returns FALSE
 * for anything else.
 */
static gboolean
simple_mailbox(const char *v, char **name, char **email)
{
	size_t n = strlen(v), i;
	const char *lt;

	while (n && v[n - 1] == ' ')
		n--;
	while (n && *v == ' ')
		v++, n--;
	if (!n)
		return FALSE;
	if (v[n - 1] != '>') {
		if (!plain_addr(v, n))
			return FALSE;
		*name = g_strdup("");
		*email = g_strndup(v, n);
		return TRUE;
	}
	lt = memchr(v, '<', n);
	if (!lt || !plain_addr(lt + 1, v + n - 1 - (lt + 1)))
		return FALSE;
	/* the name: atoms (and dots inside them) separated by one space */
	for (i = 0; v + i < lt; i++) {
		char c = v[i];

		if (c == '=' && v[i + 1] == '?')
			return FALSE; /* an encoded word */
		if (c == ' ') {
			if (!i || v[i - 1] == ' ')
				return FALSE;
		} else if (!is_atext(c) &&
			   (c != '.' || !i || v[i - 1] == ' ')) {
			return FALSE; /* a dot may not start a word */
		}
	}
	if (lt > v && lt[-1] != ' ')
		return FALSE;
	*name = g_strndup(v, lt > v ? (size_t)(lt - 1 - v) : 0);
	*email = g_strndup(lt + 1, v + n - 1 - (lt + 1));
	return TRUE;
}

void
message_parse_addr(const char *value, char **name, char **email)
{
	InternetAddressList *list;

	*name = NULL;
	*email = NULL;
	if (!value)
		goto out;
	if (simple_mailbox(value, name, email))
		goto out;
	list = internet_address_list_parse(NULL, value);
	if (list) {
		int i, n = internet_address_list_length(list);

		for (i = 0; i < n && !*email; i++) {
			InternetAddress *ia =
				internet_address_list_get_address(list, i);

			if (INTERNET_ADDRESS_IS_GROUP(ia)) {
				InternetAddressList *m =
					internet_address_group_get_members(
						INTERNET_ADDRESS_GROUP(ia));
				if (!m || !internet_address_list_length(m))
					continue;
				ia = internet_address_list_get_address(m, 0);
			}
			if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
				continue;
			*email = g_strdup(internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(ia)));
			*name = g_strdup(internet_address_get_name(ia));
		}
		g_object_unref(list);
	}
out:
	/* decoded words may hold line breaks and escapes: one clean line */
	{
		char *n = lore_one_line(*name, -1);
		char *e = lore_one_line(*email, -1);

		g_free(*name);
		g_free(*email);
		*name = n;
		*email = e;
	}
}

struct collect {
	struct message *msg;
	char *from, *irt, *refs, *mid;
};

#define IS(h) (nlen == strlen(h) && !g_ascii_strncasecmp(name, h, nlen))

static gboolean
collect_field(const char *name, size_t nlen, const char *val, size_t vlen,
	      void *data)
{
	struct collect *c = data;
	struct message *m = c->msg;
	char **slot = NULL;
	gboolean ids = FALSE;

	switch (g_ascii_tolower(name[0])) {
	case 'm':
		if (IS("message-id"))
			slot = &c->mid, ids = TRUE;
		break;
	case 'i':
		if (IS("in-reply-to"))
			slot = &c->irt, ids = TRUE;
		break;
	case 'r':
		if (IS("references"))
			slot = &c->refs, ids = TRUE;
		break;
	case 's':
		if (IS("subject"))
			slot = &m->subject;
		break;
	case 'f':
		if (IS("from"))
			slot = &c->from;
		break;
	case 'd':
		if (IS("date"))
			slot = &m->date_hdr;
		break;
	case 't':
		if (IS("to"))
			slot = &m->to_hdr;
		break;
	case 'c':
		if (IS("cc"))
			slot = &m->cc_hdr;
		else if (IS("content-type"))
			slot = &m->ctype_hdr;
		else if (IS("content-transfer-encoding"))
			slot = &m->cte_hdr;
		break;
	}
	if (!slot || *slot)
		return TRUE;
	/* what reaches the output or the terminal is cleaned at once; ids
	 * and MIME parameters are kept as written for their parsers */
	if (slot == &m->subject || slot == &c->from || slot == &m->date_hdr ||
	    slot == &m->to_hdr || slot == &m->cc_hdr)
		*slot = lore_one_line(val, vlen);
	else if (ids)
		/* msgid.h reads ids between <> and strips white space around
		 * them itself, so folding needs no undoing for these */
		*slot = g_strndup(val, vlen);
	else
		*slot = unfold(val, vlen);
	return TRUE;
}

/* Printable ASCII without an RFC 2047 encoded word: decoding keeps it. */
static gboolean
plain_ascii(const char *s)
{
	for (; *s; s++)
		if ((guchar)*s < 0x20 || (guchar)*s > 0x7e ||
		    (s[0] == '=' && s[1] == '?'))
			return FALSE;
	return TRUE;
}

/* Read @n digits at *@p into *@v and move past them. */
static gboolean
digits(const char **p, int n, int *v)
{
	int i;

	for (*v = 0, i = 0; i < n; i++, (*p)++) {
		if (!g_ascii_isdigit(**p))
			return FALSE;
		*v = *v * 10 + (**p - '0');
	}
	return TRUE;
}

/*
 * "[Ddd, ]D Mmm YYYY HH:MM:SS +ZZZZ", the form nearly every mailer writes,
 * read without GMime's date parser and the GDateTime it builds. FALSE for
 * anything else (no seconds, two-digit years, zone names, comments,
 * impossible dates), which GMime then reads.
 */
static gboolean
simple_date(const char *s, gint64 *t, int *tz)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const char days[] = "MonTueWedThuFriSatSun";
	const char *p = s, *m;
	int d, y, h, mi, sec, zh, zm, mon;
	GDate date;

	if (g_ascii_isalpha(*p)) {
		if (!p[1] || !p[2])
			return FALSE;
		m = strstr(days, (char[]){p[0], p[1], p[2], 0});
		if (!m || (m - days) % 3 || strncmp(p + 3, ", ", 2))
			return FALSE;
		p += 5;
	}
	if (!digits(&p, 1, &d))
		return FALSE;
	if (g_ascii_isdigit(*p))
		d = d * 10 + (*p++ - '0');
	if (*p++ != ' ' || !*p || !p[1] || !p[2] || p[3] != ' ')
		return FALSE;
	m = strstr(months, (char[]){p[0], p[1], p[2], 0});
	if (!m || (m - months) % 3)
		return FALSE;
	mon = (m - months) / 3 + 1;
	p += 4;
	if (!digits(&p, 4, &y) || *p++ != ' ' || !digits(&p, 2, &h) ||
	    *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' ||
	    !digits(&p, 2, &sec) || *p++ != ' ' || (*p != '+' && *p != '-'))
		return FALSE;
	m = p++;
	if (!digits(&p, 2, &zh) || !digits(&p, 2, &zm) || *p)
		return FALSE;
	if (y < 1970 || h > 23 || mi > 59 || sec > 59 || zh > 14 || zm > 59 ||
	    !g_date_valid_dmy(d, mon, y))
		return FALSE;
	g_date_clear(&date, 1);
	g_date_set_dmy(&date, d, mon, y);
	*tz = (*m == '-' ? -1 : 1) * (zh * 3600 + zm * 60);
	/* 719163: the Julian day (GLib counts from 1 January of year 1)
	 * of 1 January 1970 */
	*t = (gint64)(g_date_get_julian(&date) - 719163) * 86400 + h * 3600 +
	     mi * 60 + sec - *tz;
	return TRUE;
}

static void
decode_dates(struct message *m)
{
	GDateTime *dt;

	if (!m->date_hdr)
		return;
	if (simple_date(m->date_hdr, &m->date, &m->date_tz))
		return;
	dt = g_mime_utils_header_decode_date(m->date_hdr);
	if (!dt)
		return;
	m->date = g_date_time_to_unix(dt);
	m->date_tz = (int)(g_date_time_get_utc_offset(dt) / G_TIME_SPAN_SECOND);
	g_date_time_unref(dt);
}

struct message *
message_parse(const char *buf, size_t len, GError **err)
{
	struct message *m;
	struct collect c = { 0 };
	guint nfields = 0;
	size_t skip = 0;

	if (len > LORE_MAX_MESSAGE) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "the message is larger than %s; refused",
			    LORE_MAX_MESSAGE_TEXT);
		return NULL;
	}
	/* An mbox From_ line before the headers is not part of the message. */
	if (len >= 5 && !memcmp(buf, "From ", 5)) {
		const char *nl = memchr(buf, '\n', len);

		skip = nl ? (size_t)(nl - buf + 1) : len;
	}
	m = g_new0(struct message, 1);
	m->raw = g_malloc(len - skip + 1);
	memcpy(m->raw, buf + skip, len - skip);
	m->raw[len - skip] = '\0';
	m->len = len - skip;
	c.msg = m;
	m->body_off = scan_headers(m->raw, m->len, collect_field, &c, &nfields);
	if (nfields == 0 || memchr(m->raw, '\0', m->body_off)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    nfields ? "NUL byte in the message header"
				    : "not a mail message (no header fields)");
		g_free(c.from);
		g_free(c.irt);
		g_free(c.refs);
		g_free(c.mid);
		message_free(m);
		return NULL;
	}
	m->msgid = msgid_from_header(c.mid);
	m->in_reply_to = msgid_from_header(c.irt);
	m->refs = msgid_list(c.refs);
	if (m->subject && plain_ascii(m->subject)) {
		/* nothing to decode, and it is one clean line already */
	} else if (m->subject) {
		char *d = g_mime_utils_header_decode_text(NULL, m->subject);

		g_free(m->subject);
		m->subject = lore_one_line(d, -1);
		g_free(d);
	} else {
		m->subject = g_strdup("");
	}
	message_parse_addr(c.from, &m->from_name, &m->from_email);
	decode_dates(m);
	g_free(c.from);
	g_free(c.irt);
	g_free(c.refs);
	g_free(c.mid);
	return m;
}

void
message_free(struct message *msg)
{
	if (!msg)
		return;
	g_free(msg->msgid);
	g_free(msg->in_reply_to);
	if (msg->refs)
		g_ptr_array_free(msg->refs, TRUE);
	g_free(msg->subject);
	g_free(msg->from_name);
	g_free(msg->from_email);
	g_free(msg->date_hdr);
	g_free(msg->to_hdr);
	g_free(msg->cc_hdr);
	g_free(msg->ctype_hdr);
	g_free(msg->cte_hdr);
	/* a body used in place belongs to raw */
	if (msg->body != msg->raw + msg->body_off)
		g_free(msg->body);
	g_free(msg->raw);
	g_free(msg);
}

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
