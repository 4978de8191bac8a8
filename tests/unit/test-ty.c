/*
 * What lore-am ty reads and fills, against Python's answers (the
 * expected values are what Python 3.11's json and string.Template give,
 * as b4 uses them): the tracking file's JSON (but a NUL escape or a lone
 * surrogate, which a C string cannot hold, and NaN, which is no JSON),
 * the template, and -t/-d's ranges (b4's parse_int_range, but 0 and
 * numbers past the list refused).
 */
#include "git/tyfile.h"
#include "git/tyjson.h"
#include "git/tymail.h"
#include "tap.h"

static const struct {
	const char *in;
	gboolean ok;
} json[] = {
    {"{\"a\": [1, -0, 1e5, 2.5E-3, true, false, null]}", TRUE},
    {" null", TRUE},
    {"true ", TRUE},
    {"\"caf\\u00e9 \\ud83d\\ude00\"", TRUE},
    {"[1,]", FALSE},
    {"{\"a\":1,}", FALSE},
    {"01", FALSE},
    {"1.", FALSE},
    {".5", FALSE},
    {"\"\\x\"", FALSE},
    {"[\"a\x01\"]", FALSE},
    {"\"\\u0000\"", FALSE},
    {"\"\\ud800\"", FALSE},
    {"NaN", FALSE},
    {"{\"a\" 1}", FALSE},
    {"[1] [2]", FALSE},
    {"\"\xff\"", FALSE},
    {"", FALSE},
};

static const struct {
	const char *tpl, *out;
} fills[] = {
    {"Hi ${fromname}, $summary.", "Hi Pat, S."},
    {"$$5 and $$$x", "$5 and $"},
    {"${unknown} $unknown $", "${unknown} $unknown $"},
    {"${ fromname}", "${ fromname}"},
    {"$fromnameX $a_1b $a_1", "$fromnameX $a_1b A"},
    {"${fromname", "${fromname"},
    {"$9 $_", "$9 $_"},
    {"caf\xc3\xa9 $x\xc3\xa9", "caf\xc3\xa9 \xc3\xa9"},
};

static const struct {
	const char *spec, *out; /* out: the numbers, or NULL: refused */
} picks[] = {
    {"1,3-5,7-", "1 3 4 5 7 8 9"},
    {" 2 , <3 ", "2 1 2"},
    {"all", "1 2 3 4 5 6 7 8 9"},
    {"9", "9"},
    {"10", NULL},
    {"0", NULL},
    {"3-12", NULL},
    {"x", NULL},
    {"-3", NULL},
    {"", NULL},
};

int
main(void)
{
	GHashTable *vars = g_hash_table_new(g_str_hash, g_str_equal);
	guint i, k;

	for (i = 0; i < G_N_ELEMENTS(json); i++) {
		GError *e = NULL;
		struct tyjson *j =
		    tyjson_parse(json[i].in, strlen(json[i].in), &e);

		tap_ok(!!j == json[i].ok, "JSON %s: %s", json[i].in,
		       json[i].ok ? "read" : "refused");
		tyjson_free(j);
		g_clear_error(&e);
	}
	{
		const char *t = "{\"k\": \"a\", \"k\": [\"b\", \"\\n\\\"\"]}";
		struct tyjson *j = tyjson_parse(t, strlen(t), NULL);

		tap_is_str(tyjson_str(tyjson_at(tyjson_get(j, "k"), 1)), "\n\"",
			   "a name given twice: the last one, as Python keeps");
		tyjson_free(j);
	}
	g_hash_table_insert(vars, "fromname", "Pat");
	g_hash_table_insert(vars, "summary", "S");
	g_hash_table_insert(vars, "x", "");
	g_hash_table_insert(vars, "a_1", "A");
	for (i = 0; i < G_N_ELEMENTS(fills); i++) {
		g_autofree char *got = tymail_fill(fills[i].tpl, vars);

		tap_is_str(got, fills[i].out, "template '%s'", fills[i].tpl);
	}
	for (i = 0; i < G_N_ELEMENTS(picks); i++) {
		GArray *a = tyfile_pick(picks[i].spec, 9, NULL);
		GString *s = g_string_new(NULL);

		for (k = 0; a && k < a->len; k++)
			g_string_append_printf(s, "%s%u", k ? " " : "",
					       g_array_index(a, guint, k));
		tap_is_str(a ? s->str : NULL, picks[i].out, "-t '%s' of 9",
			   picks[i].spec);
		if (a)
			g_array_free(a, TRUE);
		g_string_free(s, TRUE);
	}
	g_hash_table_destroy(vars);
	return tap_done();
}
