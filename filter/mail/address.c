/*
 * address.c - message_parse_addr() (message.h): an address header's first
 * mailbox. The common plain forms are read here, anything odder (quotes,
 * comments, encoded words, groups) by GMime's address parser.
 */
#include "mail/message.h"
#include "core/util.h"

#include <gmime/gmime.h>
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
	if (message_addr_simple(value, &sp)) {
		*name = g_strndup(sp.name, sp.name_len);
		*email = g_strndup(sp.email, sp.email_len);
		return;
	}
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
