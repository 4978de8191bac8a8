/* core/json.h: JSON strings from hostile bytes, table-driven: each
 * escape RFC 8259 asks, U+2028/U+2029, and every kind of invalid UTF-8
 * (a stray byte, a cut sequence, an overlong form, a NUL inside the
 * length) giving valid JSON text; and the builders' commas. */
#include "core/json.h"
#include "tap.h"

static const struct {
	const char *in;
	gssize len;
	const char *want;
} str[] = {
    {"plain", -1, "\"plain\""},
    {"q\"b\\s", -1, "\"q\\\"b\\\\s\""},
    {"nl\ntab\tcr\r", -1, "\"nl\\ntab\\tcr\\u000d\""},
    {"esc\x1b[31m del\x7f", -1, "\"esc\\u001b[31m del\\u007f\""},
    {"ls\xe2\x80\xa8ps\xe2\x80\xa9", -1, "\"ls\\u2028ps\\u2029\""},
    {"Zo\xc3\xab \xf0\x9f\x91\x8d", -1, "\"Zo\xc3\xab \xf0\x9f\x91\x8d\""},
    {"bad\xff\xfe", -1, "\"bad\\ufffd\\ufffd\""},
    {"cut\xe2\x80", -1, "\"cut\\ufffd\\ufffd\""},
    {"overlong\xc0\xaf", -1, "\"overlong\\ufffd\\ufffd\""},
    {"nul\0in", 6, "\"nul\\u0000in\""},
    {"", -1, "\"\""},
    {NULL, -1, "null"},
};

int
main(void)
{
	GString *j = g_string_new(NULL);
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(str); i++) {
		g_autofree char *shown =
		    str[i].in ? g_strescape(str[i].in, NULL) : g_strdup("NULL");

		g_string_truncate(j, 0);
		json_str(j, str[i].in, str[i].len);
		tap_is_str(j->str, str[i].want, "json_str '%s'", shown);
		tap_ok(g_utf8_validate(j->str, j->len, NULL),
		       "json_str '%s' is valid UTF-8", shown);
	}
	g_string_assign(j, "{");
	json_kv(j, "a", "x");
	json_kv_int(j, "n", -3);
	json_kv_open(j, "l", '[');
	json_open(j, '{');
	json_kv_bool(j, "t", TRUE);
	g_string_append(j, "}");
	json_open(j, '{');
	g_string_append(j, "}]}");
	tap_is_str(j->str, "{\"a\":\"x\",\"n\":-3,\"l\":[{\"t\":true},{}]}",
		   "the builders put commas between members and elements");
	g_string_free(j, TRUE);
	return tap_done();
}
