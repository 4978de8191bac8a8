/*
 * address.c - message_parse_addr() (message.h): an address header's first
 * mailbox. The common plain forms are read here (a name that is one
 * encoded word too), anything odder (quotes, comments, other encoded
 * words, groups) by GMime's address parser.
 */
#include "mail/message.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

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
 * for anything else; else where the name and the address lie in @v.
 */
gboolean
message_addr_simple(const char *v, struct message_addr_span *out)
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
		out->name = v;
		out->name_len = 0;
		out->email = v;
		out->email_len = n;
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
	out->name = v;
	out->name_len = lt > v ? (size_t)(lt - 1 - v) : 0;
	out->email = lt + 1;
	out->email_len = v + n - 1 - (lt + 1);
	return TRUE;
}

gboolean message_addr_gmime_only;

/* The decoded text of a Q-encoded word, strictly written: letters,
 * digits, '_' for a space and "=XX" in upper-case hex; FALSE for any
 * other byte. */
static gboolean
decode_q_strict(const char *p, size_t n, GString *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < n; i++) {
		const char *hi, *lo;

		if (g_ascii_isalnum(p[i])) {
			g_string_append_c(out, p[i]);
		} else if (p[i] == '_') {
			g_string_append_c(out, ' ');
		} else if (p[i] == '=' && i + 2 < n && p[i + 1] && p[i + 2] &&
			   (hi = strchr(hex, p[i + 1])) &&
			   (lo = strchr(hex, p[i + 2]))) {
			g_string_append_c(out,
					  (char)((hi - hex) << 4 | (lo - hex)));
			i += 2;
		} else {
			return FALSE;
		}
	}
	return TRUE;
}

/* The decoded text of a B-encoded word in whole groups of four, padding
 * only at its end; FALSE for anything else. */
static gboolean
decode_b_strict(const char *p, size_t n, GString *out)
{
	size_t i, pad = 0;
	g_autofree guchar *d = NULL;
	gsize dn;

	if (!n || n % 4)
		return FALSE;
	for (i = 0; i < n; i++) {
		if (p[i] == '=' && i + 2 >= n)
			pad++;
		else if (pad ||
			 !(g_ascii_isalnum(p[i]) || p[i] == '+' || p[i] == '/'))
			return FALSE;
	}
	{
		g_autofree char *c = g_strndup(p, n);

		d = g_base64_decode(c, &dn);
	}
	g_string_append_len(out, (const char *)d, dn);
	return TRUE;
}

/*
 * "=?UTF-8?q?Jos=C3=A9_=C3=81lvarez?= <local@domain>" (or ?b?): the name
 * one encoded word in UTF-8 that decodes to letters, digits, spaces and
 * dashes, the address plain, as mailers write a name that is not ASCII.
 * Such a name reads the same to any parser, and decoding it here spares
 * GMime's address parser, which costs as much as the rest of the header.
 * FALSE, with nothing set, for anything else.
 */
static gboolean
encoded_name(const char *v, char **name, char **email)
{
	size_t n = strlen(v), wn;
	const char *lt, *txt, *p;
	GString *dec;
	gboolean ok, text = FALSE;

	while (n && v[n - 1] == ' ')
		n--;
	while (n && *v == ' ')
		v++, n--;
	if (!n || v[n - 1] != '>' || !(lt = memchr(v, '<', n)) ||
	    !plain_addr(lt + 1, v + n - 1 - (lt + 1)))
		return FALSE;
	/* the word: up to the one space before the '<' */
	wn = lt - v - 1;
	if (lt - v < 16 || lt[-1] != ' ' ||
	    g_ascii_strncasecmp(v, "=?utf-8?", 8) || v[9] != '?' ||
	    !strchr("qQbB", v[8]) || memcmp(v + wn - 2, "?=", 2))
		return FALSE;
	txt = v + 10;
	if (memchr(txt, '?', v + wn - 2 - txt) ||
	    memchr(txt, ' ', v + wn - 2 - txt))
		return FALSE;
	dec = g_string_new(NULL);
	if (v[8] == 'q' || v[8] == 'Q')
		ok = decode_q_strict(txt, v + wn - 2 - txt, dec);
	else
		ok = decode_b_strict(txt, v + wn - 2 - txt, dec);
	ok = ok && g_utf8_validate(dec->str, dec->len, NULL);
	for (p = dec->str; ok && p < dec->str + dec->len; p++) {
		ok = (guchar)*p >= 0x80 || g_ascii_isalnum(*p) || *p == ' ' ||
		     *p == '-';
		text |= *p != ' ';
	}
	if (ok && text) {
		*name = lore_one_line(dec->str, dec->len);
		*email = g_strndup(lt + 1, v + n - 1 - (lt + 1));
	}
	g_string_free(dec, TRUE);
	return ok && text;
}

void
message_parse_addr(const char *value, char **name, char **email)
{
	InternetAddressList *list;
	struct message_addr_span sp;

	*name = NULL;
	*email = NULL;
	if (!value)
		goto out;
	/* atoms and a plain address: one clean line as they are */
	if (!message_addr_gmime_only && message_addr_simple(value, &sp)) {
		*name = g_strndup(sp.name, sp.name_len);
		*email = g_strndup(sp.email, sp.email_len);
		return;
	}
	if (!message_addr_gmime_only && encoded_name(value, name, email))
		return;
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
