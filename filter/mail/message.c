/*
 * message.c - RFC 5322 header scan. Headers are read by hand (unfolding per
 * RFC 5322 2.2.3) because threading a large archive needs only a handful of
 * them; plain subjects are read here too, and anything odder goes
 * through GMime. Senders are address.c's, dates msgdate.c's, the body
 * msgbody.c's.
 */
#include "mail/message.h"
#include "core/msgid.h"
#include "mail/rfc2047.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <stdint.h>
#include <string.h>

/* Length of [p, end) after dropping a trailing '\r'. */
static size_t
chomp_len(const char *p, size_t n)
{
	return (n && p[n - 1] == '\r') ? n - 1 : n;
}

/* Collapse folding and runs of white space to single spaces, into @out
 * (@n + 1 bytes); returns the length written. */
static size_t
unfold_into(const char *p, size_t n, char *out)
{
	char *o = out;
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
	return o - out;
}

static char *
unfold(const char *p, size_t n)
{
	char *out = g_malloc(n + 1);

	unfold_into(p, n, out);
	return out;
}

/*
 * Call @fn for each header field of @raw with its name and raw (folded)
 * value; stops when @fn returns FALSE. Returns the body offset. A line
 * that is neither a field nor the continuation of one is skipped, and
 * *@odd (when given) set: GMime reads such a header otherwise.
 */
/* The bytes of a field name: printable ASCII but ':' */
static const guint8 field_name_byte[256] = {
    [0x21 ... 0x39] = TRUE,
    [0x3b ... 0x7e] = TRUE,
};

typedef gboolean (*header_fn)(const char *name, size_t nlen, const char *val,
			      size_t vlen, void *data);

static size_t
scan_headers(const char *raw, size_t len, header_fn fn, void *data,
	     guint *nfields, gboolean *odd)
{
	size_t pos = 0, field_start = 0, colon = 0;
	const char *line;
	size_t ll;
	gboolean in_field = FALSE, go = TRUE;
	guint n = 0;

	while (lore_next_line(raw, len, &pos, &line, &ll)) {
		size_t cl = chomp_len(line, ll);

		if (cl && (line[0] == ' ' || line[0] == '\t')) {
			/* continuation of the current field, if any */
			if (!in_field && odd)
				*odd = TRUE;
			continue;
		}
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
			size_t k = 0;

			/* a field name: printable ASCII up to its colon */
			while (k < cl && field_name_byte[(guchar)line[k]])
				k++;
			if (k == 0 || k == cl || line[k] != ':') {
				if (odd) /* not a field: tolerate and skip */
					*odd = TRUE;
				continue;
			}
			in_field = TRUE;
			field_start = line - raw;
			colon = field_start + k;
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

	if (strlen(w->name) == nlen &&
	    !g_ascii_strncasecmp(name, w->name, nlen)) {
		w->value = unfold(val, vlen);
		return FALSE;
	}
	return TRUE;
}

char *
message_header(const struct message *msg, const char *name)
{
	struct want w = {name, NULL};

	scan_headers(msg->raw, msg->body_off, find_one, &w, NULL, NULL);
	return w.value;
}

/* in this order: collect_field() knows each by its index */
const char *const message_once_fields[] = {
    "From", "Sender", "Subject",     "Date",	   "Message-ID",
    "To",   "Cc",     "In-Reply-To", "References", NULL,
};

struct count {
	const char *name;
	guint n;
};

static gboolean
count_one(const char *name, size_t nlen, const char *val, size_t vlen,
	  void *data)
{
	struct count *c = data;

	if (strlen(c->name) == nlen &&
	    !g_ascii_strncasecmp(name, c->name, nlen))
		c->n++;
	return TRUE;
}

guint
message_header_count(const struct message *msg, const char *name)
{
	struct count c = {name, 0};

	scan_headers(msg->raw, msg->body_off, count_one, &c, NULL, NULL);
	return c.n;
}

/* A field's raw value in the message's bytes */
struct span {
	const char *p;
	size_t n;
};

/* The first of each field read, where it lies; made into strings once the
 * header's size (and so the room for them) is known */
struct collect {
	struct span from, subject, date, to, cc, ctype, cte, irt, refs, mid;
	guint once_seen; /* bit i: message_once_fields[i] was seen */
	gboolean once_twice, dkim_signed, dev_signed;
};

/* Note a field of message_once_fields (index @i) seen a second time. */
static void
seen_once_field(struct collect *c, guint i)
{
	if (c->once_seen & (1u << i))
		c->once_twice = TRUE;
	c->once_seen |= 1u << i;
}

/* Is the field name [@name, @name+@n) @h (lower case), in any case? A
 * loop, not a call: every field of every message is asked a few times. */
static inline gboolean
name_is(const char *name, size_t n, const char *h, size_t hl)
{
	size_t i;

	if (n != hl)
		return FALSE;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != h[i])
			return FALSE;
	}
	return TRUE;
}

#define IS(h) name_is(name, nlen, h, sizeof(h) - 1)

static gboolean
collect_field(const char *name, size_t nlen, const char *val, size_t vlen,
	      void *data)
{
	struct collect *c = data;
	struct span *at = NULL;
	int once = -1; /* its index in message_once_fields */

	switch (g_ascii_tolower(name[0])) {
	case 'm':
		if (IS("message-id"))
			at = &c->mid, once = 4;
		break;
	case 'i':
		if (IS("in-reply-to"))
			at = &c->irt, once = 7;
		break;
	case 'r':
		if (IS("references"))
			at = &c->refs, once = 8;
		break;
	case 's':
		if (IS("subject"))
			at = &c->subject, once = 2;
		else if (IS("sender"))
			once = 1;
		break;
	case 'f':
		if (IS("from"))
			at = &c->from, once = 0;
		break;
	case 'd':
		if (IS("date"))
			at = &c->date, once = 3;
		else if (IS("dkim-signature"))
			c->dkim_signed = TRUE;
		break;
	case 'x':
		if (IS("x-developer-signature"))
			c->dev_signed = TRUE;
		break;
	case 't':
		if (IS("to"))
			at = &c->to, once = 5;
		break;
	case 'c':
		if (IS("cc"))
			at = &c->cc, once = 6;
		else if (IS("content-type"))
			at = &c->ctype;
		else if (IS("content-transfer-encoding"))
			at = &c->cte;
		break;
	}
	if (once >= 0)
		seen_once_field(c, once);
	/* the first of a field is the one read, as git mailinfo and
	 * patchwork read it */
	if (at && !at->p) {
		at->p = val;
		at->n = vlen;
	}
	return TRUE;
}

/*
 * The room the header's strings take in the message's one allocation:
 * each at most its field's bytes and a NUL (the one-line copy, the
 * unfolding and the ids only drop bytes), the sender's name and address
 * at most the From field's each, and an empty subject.
 */
static size_t
strings_room(const struct collect *c)
{
	return c->from.n * 3 + c->subject.n + c->date.n + c->to.n + c->cc.n +
	       c->ctype.n + c->cte.n + c->irt.n + c->refs.n + c->mid.n + 16;
}

/* What reaches the output or the terminal is cleaned at once (a plain
 * ASCII value in @room, anything else apart); NULL for no field. */
static char *
one_line_at(struct span v, char **room)
{
	gssize n;
	char *s = *room;

	if (!v.p)
		return NULL;
	n = lore_one_line_ascii(v.p, v.n, s);
	if (n < 0)
		return lore_one_line(v.p, v.n);
	*room += n + 1;
	return s;
}

/* ids and MIME parameters are kept as written for their parsers */
static char *
unfold_at(struct span v, char **room)
{
	char *s = *room;

	if (!v.p)
		return NULL;
	*room += unfold_into(v.p, v.n, s) + 1;
	return s;
}

static char *
copy_at(const char *p, size_t n, char **room)
{
	char *s = *room;

	memcpy(s, p, n);
	s[n] = '\0';
	*room += n + 1;
	return s;
}

static char *
id_at(struct span v, char **room)
{
	char *id = v.p ? msgid_from_header_to(v.p, v.n, *room) : NULL;

	if (id)
		*room += strlen(id) + 1;
	return id;
}

/* Printable ASCII without an RFC 2047 encoded word: decoding keeps it.
 * What lore_one_line_ascii() made (@ascii) is printable ASCII already. */
static gboolean
plain_ascii(const char *s, gboolean ascii)
{
	if (ascii)
		return !strstr(s, "=?");
	for (; *s; s++)
		if ((guchar)*s < 0x20 || (guchar)*s > 0x7e ||
		    (s[0] == '=' && s[1] == '?'))
			return FALSE;
	return TRUE;
}

/* The header's strings, in @room; the sender's name and address too
 * when they are plain. */
static void
header_strings(struct message *m, const struct collect *c, char *room)
{
	struct message_addr_span sp;

	m->msgid = id_at(c->mid, &room);
	m->in_reply_to = id_at(c->irt, &room);
	m->refs = g_ptr_array_new();
	if (c->refs.p)
		room += msgid_list_to(c->refs.p, c->refs.n, m->refs, room);
	m->subject = one_line_at(c->subject, &room);
	m->from_hdr = one_line_at(c->from, &room);
	m->date_hdr = one_line_at(c->date, &room);
	m->to_hdr = one_line_at(c->to, &room);
	m->cc_hdr = one_line_at(c->cc, &room);
	m->ctype_hdr = unfold_at(c->ctype, &room);
	m->cte_hdr = unfold_at(c->cte, &room);
	if (m->subject &&
	    plain_ascii(m->subject, !message_owns_apart(m, m->subject))) {
		/* nothing to decode, and it is one clean line already */
	} else if (m->subject) {
		char *d = rfc2047_decode(m->subject);

		/* one in the room is left there */
		if (message_owns_apart(m, m->subject))
			g_free(m->subject);
		m->subject = lore_one_line(d, -1);
		g_free(d);
	} else {
		m->subject = copy_at("", 0, &room);
	}
	if (m->from_hdr && message_addr_simple(m->from_hdr, &sp)) {
		m->from_name = copy_at(sp.name, sp.name_len, &room);
		m->from_email = copy_at(sp.email, sp.email_len, &room);
	} else {
		message_parse_addr(m->from_hdr, &m->from_name, &m->from_email);
	}
	g_assert(room <= m->block_end);
}

struct message *
message_parse(const char *buf, size_t len, GError **err)
{
	struct message *m;
	struct collect c = {0};
	guint nfields = 0;
	size_t skip = 0, rlen, off, room;
	gboolean odd = FALSE;

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
	rlen = len - skip;
	/* read where it lies (the strings are made from there too), copied
	 * once its strings' room is known */
	off = scan_headers(buf + skip, rlen, collect_field, &c, &nfields, &odd);
	if (nfields == 0 || memchr(buf + skip, '\0', off)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    nfields ? "NUL byte in the message header"
				    : "not a mail message (no header fields)");
		return NULL;
	}
	/* one allocation: the struct, the raw bytes, the header's strings
	 * (bounded by the header: 64 MiB at most, times four) */
	room = strings_room(&c);
	m = g_malloc(sizeof(*m) + rlen + 1 + room);
	memset(m, 0, sizeof(*m));
	m->raw = (char *)(m + 1);
	m->block_end = m->raw + rlen + 1 + room;
	/* an empty file (a .gz inflated to nothing) may come as NULL, 0 */
	if (rlen)
		memcpy(m->raw, buf + skip, rlen);
	m->raw[rlen] = '\0';
	m->len = rlen;
	m->body_off = off;
	m->hdr_odd = odd;
	m->once_twice = c.once_twice;
	m->dkim_signed = c.dkim_signed;
	m->dev_signed = c.dev_signed;
	header_strings(m, &c, m->raw + rlen + 1);
	message_read_date(m);
	return m;
}

gboolean
message_owns_apart(const struct message *m, const void *p)
{
	uintptr_t a = (uintptr_t)p;

	return a < (uintptr_t)m || a >= (uintptr_t)m->block_end;
}

/* g_free() of a string of @m's that is not in its one allocation */
#define FREE_APART(m, p)                                                       \
	do {                                                                   \
		if ((p) && message_owns_apart(m, p))                           \
			g_free(p);                                             \
	} while (0)

void
message_set_in_reply_to(struct message *m, const char *id)
{
	FREE_APART(m, m->in_reply_to);
	m->in_reply_to = g_strdup(id);
}

void
message_free(struct message *msg)
{
	if (!msg)
		return;
	FREE_APART(msg, msg->msgid);
	FREE_APART(msg, msg->in_reply_to);
	/* the ids are in the allocation: the array frees none */
	if (msg->refs)
		g_ptr_array_free(msg->refs, TRUE);
	FREE_APART(msg, msg->subject);
	FREE_APART(msg, msg->from_name);
	FREE_APART(msg, msg->from_email);
	FREE_APART(msg, msg->date_hdr);
	FREE_APART(msg, msg->from_hdr);
	FREE_APART(msg, msg->to_hdr);
	FREE_APART(msg, msg->cc_hdr);
	FREE_APART(msg, msg->ctype_hdr);
	FREE_APART(msg, msg->cte_hdr);
	/* a body used in place belongs to raw */
	FREE_APART(msg, msg->body);
	g_free(msg->patch_text);
	if (msg->split)
		g_ptr_array_unref(msg->split);
	g_free(msg);
}
