/* The shared helpers that stand between mail and the user: terminal-safe
 * text, one-line header values, the Trojan Source check and user masks
 * (table-driven). */
#include "core/util.h"
#include "tap.h"

static const struct {
	const char *in, *want;
} term[] = {
    {"plain", "plain"},
    {"tab\there", "tab here"},
    {"esc\x1b[2Jx", "esc?[2Jx"},
    {"osc\x1b]0;t\x07", "osc?]0;t?"},
    {"line\nbreak\r", "line?break?"},
    {"del\x7f", "del?"},
    {"c1 \xc2\x9b", "c1 ?"},
    {"bidi \xe2\x80\xae x", "bidi ? x"},
    {"zwsp \xe2\x80\x8b x", "zwsp ? x"},
    {"raw \x9b", "raw \xef\xbf\xbd"},
    {"Zo\xc3\xab \xc3\x98", "Zo\xc3\xab \xc3\x98"},
};

static const struct {
	const char *in, *want;
} oneline[] = {
    {"  a  b  ", "a b"},
    {"a\r\n b", "a b"},
    {"x\nSigned-off-by: y", "x Signed-off-by: y"},
    {"e\x1b[31m", "e [31m"},
    {"c1\xc2\x85next", "c1 next"},
    {"latin1 caf\xe9", "latin1 caf\xc3\xa9"},
    {"", ""},
    /* single spaces are copied eight bytes at a time: every place of a
     * second blank, a control or a NUL against the eight-byte words */
    {" [PATCH v2 01/10] mtd: ballast-core: use named\n",
     "[PATCH v2 01/10] mtd: ballast-core: use named"},
    {"1234567  9", "1234567 9"},
    {"12345678  ", "12345678"},
    {"1234567 \t9abcdef", "1234567 9abcdef"},
    {"12345678 abcdefg  x", "12345678 abcdefg x"},
    {"12345678abcdefg  x", "12345678abcdefg x"},
    {"abcdefghijklmno\x7fp", "abcdefghijklmno p"},
    {"abcdefgh\x01ijklmnop", "abcdefgh ijklmnop"},
    {"\x7f a b \x7f", "a b"},
    {"Dana Patchwell <dana.patchwell@example.org>",
     "Dana Patchwell <dana.patchwell@example.org>"},
    {"tilde~ and 0x7e~~~~~~~~~~~~~", "tilde~ and 0x7e~~~~~~~~~~~~~"},
};

static const struct {
	const char *text;
	gunichar c;
	guint line;
} ctl[] = {
    {"plain\ntext\n", 0, 0},
    {"a\n\xe2\x80\xae\n", 0x202e, 2},
    /* Lo letters excuse a format character in prose, as in b4 */
    {"\xd9\x85\xdb\x8c\xe2\x80\x8c\xd8\xae\n", 0, 0},
    /* not a bidi control in a diff */
    {"msg\n\ndiff --git a/x b/x\n+\xd8\xa7\xe2\x81\xa7\n", 0x2067, 4},
    {"msg\n\ndiff --git a/x b/x\n+\xd9\x85\xe2\x80\x8c\xd8\xae\n", 0, 0},
    {"Fixes: abc\xe2\x80\x8b\n", 0x200b, 1},
    {"soft\xc2\xadhyphen\n", 0xad, 1},
    {"emoji \xf0\x9f\x91\x8d\n", 0, 0},
    /* a Latin-1 byte kept in a diff does not hide a control after it */
    {"m\n\ndiff --git a/x b/x\n+caf\xe9 \xe2\x80\xae\n", 0x202e, 4},
};

/* ASCII without a NUL, a word at a time: a byte beyond it or a NUL in
 * each place of a word, and in the bytes after the last whole word */
static const struct {
	const char *s;
	size_t len;
	gboolean ascii;
} ascii[] = {
    {"", 0, TRUE},
    {"seven b", 7, TRUE},
    {"eight by", 8, TRUE},
    {"sixteen bytes ok", 16, TRUE},
    {"\x80ight by", 8, FALSE},
    {"eight b\xff", 8, FALSE},
    {"sixteen bytes o\xc3", 16, FALSE},
    {"sixteen \xc3\xa9 bytes", 16, FALSE},
    {"with a\0NUL", 10, FALSE},
    {"eight by\0", 9, FALSE},
    {"nine byte\x7f", 10, TRUE},
};

/* the 7-bit charsets that shift with escapes, and the common others */
static const struct {
	const char *cs;
	gboolean stateful;
} charsets[] = {
    {"ISO-2022-JP", TRUE}, {"iso-2022-jp-2", TRUE},
    {"ISO2022KR", TRUE},   {"csISO2022JP", TRUE},
    {"UTF-7", TRUE},	   {"utf7", TRUE},
    {"HZ-GB-2312", TRUE},  {"utf-8", FALSE},
    {"UTF-70", FALSE},	   {"us-ascii", FALSE},
    {"iso-8859-1", FALSE}, {"iso-2021", FALSE},
    {"i", FALSE},	   {"", FALSE},
    {NULL, FALSE},
};

static const struct {
	const char *path, *dir;
	gboolean under;
} under[] = {
    {"/a/b", "/a/b", TRUE}, {"/a/b/c", "/a/b", TRUE}, {"/a/bc", "/a/b", FALSE},
    {"/a", "/a/b", FALSE},  {"/x", "/", TRUE},	      {"/", "/", TRUE},
};

int
main(void)
{
	unsigned i;
	char *s;

	for (i = 0; i < G_N_ELEMENTS(under); i++)
		tap_ok(lore_path_at_or_under(under[i].path, under[i].dir) ==
			   under[i].under,
		       "'%s' at or under '%s': %s", under[i].path, under[i].dir,
		       under[i].under ? "yes" : "no");

	for (i = 0; i < G_N_ELEMENTS(term); i++) {
		g_autofree char *shown = g_strescape(term[i].in, NULL);

		s = lore_term_safe(term[i].in, -1);
		tap_is_str(s, term[i].want, "term_safe '%s'", shown);
		g_free(s);
	}
	{
		GString *big = g_string_new(NULL);
		glong n;

		while (big->len < 5000)
			g_string_append(big, "word ");
		s = lore_term_safe(big->str, -1);
		n = g_utf8_strlen(s, -1);
		tap_ok(n == LORE_TERM_MAX + 3 && g_str_has_suffix(s, "..."),
		       "term_safe cuts long text to %d characters and '...'",
		       LORE_TERM_MAX);
		g_free(s);
		g_string_free(big, TRUE);
	}
	for (i = 0; i < G_N_ELEMENTS(oneline); i++) {
		g_autofree char *shown = g_strescape(oneline[i].in, NULL);

		s = lore_one_line(oneline[i].in, -1);
		tap_is_str(s, oneline[i].want, "one_line '%s'", shown);
		g_free(s);
	}
	for (i = 0; i < G_N_ELEMENTS(ctl); i++) {
		g_autofree char *shown = g_strescape(ctl[i].text, NULL);
		guint line;
		gunichar c = lore_find_control(ctl[i].text, &line);

		tap_ok(c == ctl[i].c && line == ctl[i].line,
		       "find_control '%s' (U+%04X line %u)", shown, c, line);
	}
	{
		guint line = 7;

		tap_ok(!lore_find_control("plain\nASCII text\n", &line) &&
			   line == 0,
		       "find_control: none in ASCII, line 0");
	}
	for (i = 0; i < G_N_ELEMENTS(ascii); i++) {
		g_autofree char *shown = g_strescape(ascii[i].s, NULL);

		tap_is_int(lore_ascii(ascii[i].s, ascii[i].len), ascii[i].ascii,
			   "ascii '%s' (%zu bytes)", shown, ascii[i].len);
	}
	for (i = 0; i < G_N_ELEMENTS(charsets); i++)
		tap_is_int(lore_charset_7bit_stateful(charsets[i].cs),
			   charsets[i].stateful, "7-bit stateful: %s",
			   charsets[i].cs ? charsets[i].cs : "(null)");
	s = lore_mask_fill("https://x/%s/%%s/%d%n", "a%sb%n");
	tap_is_str(
	    s, "https://x/a%sb%n/%s/%d%n",
	    "mask_fill: the value is never a format, only %%s is filled");
	g_free(s);
	return tap_done();
}
