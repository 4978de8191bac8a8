/*
 * json.c - JSON strings from hostile bytes (RFC 8259 section 7): the
 * escapes JSON requires, U+2028/U+2029 escaped too (JavaScript reads
 * them as line ends), invalid UTF-8 replaced byte by byte with U+FFFD as
 * lore_term_safe() does, so the text stays one line and parses.
 */
#include "core/json.h"

#include <string.h>

void
json_str(GString *j, const char *s, gssize len)
{
	const char *p, *end;

	if (!s) {
		g_string_append(j, "null");
		return;
	}
	end = s + (len < 0 ? (gssize)strlen(s) : len);
	g_string_append_c(j, '"');
	for (p = s; p < end;) {
		gunichar c = g_utf8_get_char_validated(p, end - p);

		if (!*p || c == (gunichar)-1 || c == (gunichar)-2) {
			/* a NUL, a stray byte or a cut sequence */
			g_string_append(j, *p ? "\\ufffd" : "\\u0000");
			p++;
			continue;
		}
		if (c == '"' || c == '\\')
			g_string_append_printf(j, "\\%c", (char)c);
		else if (c == '\n')
			g_string_append(j, "\\n");
		else if (c == '\t')
			g_string_append(j, "\\t");
		else if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029)
			g_string_append_printf(j, "\\u%04x", c);
		else
			g_string_append_len(j, p, g_utf8_next_char(p) - p);
		p = g_utf8_next_char(p);
	}
	g_string_append_c(j, '"');
}

static void
comma(GString *j)
{
	char last = j->len ? j->str[j->len - 1] : '{';

	if (last != '{' && last != '[')
		g_string_append_c(j, ',');
}

static void
key(GString *j, const char *k)
{
	comma(j);
	json_str(j, k, -1);
	g_string_append_c(j, ':');
}

void
json_kv(GString *j, const char *k, const char *s)
{
	key(j, k);
	json_str(j, s, -1);
}

void
json_kv_int(GString *j, const char *k, gint64 n)
{
	key(j, k);
	g_string_append_printf(j, "%" G_GINT64_FORMAT, n);
}

void
json_kv_bool(GString *j, const char *k, gboolean b)
{
	key(j, k);
	g_string_append(j, b ? "true" : "false");
}

void
json_kv_open(GString *j, const char *k, char open)
{
	key(j, k);
	g_string_append_c(j, open);
}

void
json_open(GString *j, char open)
{
	comma(j);
	g_string_append_c(j, open);
}
