/*
 * json.c - a JSON string escaped (RFC 8259, section 7).
 */
#include "core/json.h"

void
json_str(GString *j, const char *s)
{
	const char *p;

	g_string_append_c(j, '"');
	for (p = s ? s : ""; *p; p++) {
		guchar ch = *p;

		if (ch == '"' || ch == '\\')
			g_string_append_printf(j, "\\%c", ch);
		else if (ch == '\n')
			g_string_append(j, "\\n");
		else if (ch == '\t')
			g_string_append(j, "\\t");
		else if (ch < 0x20)
			g_string_append_printf(j, "\\u%04x", ch);
		else
			g_string_append_c(j, ch);
	}
	g_string_append_c(j, '"');
}
