/*
 * git mailinfo's rules as mailinfo.c and rfc2047.c follow them
 * (table-driven): the author of a From: value (the expected values are
 * what `git mailinfo` 2.39 prints for the same lines), RFC 2047 words
 * (adjacent base64 words whose first ends in '=', which GMime 3.2 cuts),
 * the scissors and the patch break.
 */
#include "mail/mailinfo.h"
#include "mail/rfc2047.h"
#include "tap.h"

#include <string.h>

static const struct {
	const char *from, *name, *email;
} authors[] = {
    {"A (zzz) U Thor <a@example.com> (Comment)", "A (zzz) U Thor (Comment)",
     "a@example.com"},
    {"<a@example.com> (A U Thor)", "A U Thor", "a@example.com"},
    {"A U Thor <a@example.com> (unterminated", "A U Thor (unterminated",
     "a@example.com"},
    {"\"Doe, John\" <j@example.com>", "Doe, John", "j@example.com"},
    {"a@example.com", "a@example.com", "a@example.com"},
    {"Jo <jo@example.com>", "Jo", "jo@example.com"},
    {"John Doe <johndoe>", "John Doe", "johndoe"},
    {"\"Q \\\"x\\\" R\" <q@example.com>", "Q \"x\" R", "q@example.com"},
    {"a@example.com (Real (nested) Name)", "Real (nested) Name",
     "a@example.com"},
    {"Very Long Name That Goes On And On And On Beyond Sixty Bytes Here "
     "<l@example.com>",
     "l@example.com", "l@example.com"},
    {"x@y <x@example.com>", "x@y", "x@y"},
    {"", "", ""},
};

static const struct {
	const char *in, *out;
} words[] = {
    {"=?UTF-8?B?SGVsbG8=?= =?UTF-8?B?IHdvcmxk?=", "Hello world"},
    {"=?utf-8?b?0J/RgNC40LI=?= =?utf-8?b?0LXRgg==?=",
     "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"},
    /* a character cut between two words */
    {"=?utf-8?b?0J/R?= =?utf-8?b?gA==?=", "\xd0\x9f\xd1\x80"},
    {"=?iso-8859-1?q?Jos=E9_N?= <j@x>", "Jos\xc3\xa9 N <j@x>"},
    {"a =?utf-8?q?b?= c", "a b c"},
    {"=?utf-8?q?a?=  =?iso-8859-1?q?=E9?=", "a\xc3\xa9"},
    {"=?utf-8*en?q?lang?=", "lang"},
    {"=?utf-8?x?bad?= =?broken", "=?utf-8?x?bad?= =?broken"},
    {"plain text", "plain text"},
    /* 7-bit stateful charsets: valid UTF-8 as they stand, converted all
     * the same */
    {"Taro / =?ISO-2022-JP?B?GyRCOzNFREJATzobKEI=?= <t@x>",
     "Taro / \xe5\xb1\xb1\xe7\x94\xb0\xe5\xa4\xaa\xe9\x83\x8e <t@x>"},
    {"=?utf-7?q?+ZeVnLA-?=", "\xe6\x97\xa5\xe6\x9c\xac"},
};

static const struct {
	const char *line;
	gboolean scissors, brk;
} lines[] = {
    {"-- >8 --", TRUE, FALSE},
    {"----- >8", FALSE, FALSE},
    {"------ >8", TRUE, FALSE},
    {"--- >8 ---", TRUE, TRUE},
    {"---", FALSE, TRUE},
    {"--- a/file.c", FALSE, TRUE},
    {"---x", FALSE, FALSE},
    {"diff --git a/f b/f", FALSE, TRUE},
    {"Diff --git a/f b/f", FALSE, FALSE},
    {"Index: f", FALSE, TRUE},
};

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(authors); i++) {
		char *name, *email;

		mailinfo_author(authors[i].from, &name, &email);
		tap_is_str(name, authors[i].name, "author of '%s'",
			   authors[i].from);
		tap_is_str(email, authors[i].email, "address of '%s'",
			   authors[i].from);
		g_free(name);
		g_free(email);
	}
	for (i = 0; i < G_N_ELEMENTS(words); i++) {
		char *d = rfc2047_decode(words[i].in);

		tap_is_str(d, words[i].out, "decode '%s'", words[i].in);
		g_free(d);
	}
	{
		const char *t = "ti\xc3\xa9tle =?a?q?b?= and a long one to cut "
				"into more than one word";
		char *e = rfc2047_encode(t), *d = rfc2047_decode(e);

		tap_is_str(d, t, "an encoded title decodes to itself");
		tap_ok(strchr(e, ' ') != NULL, "in words a header can fold at");
		g_free(e);
		g_free(d);
	}
	for (i = 0; i < G_N_ELEMENTS(lines); i++) {
		const char *l = lines[i].line;

		tap_is_int(mailinfo_is_scissors(l, strlen(l)),
			   lines[i].scissors, "scissors: '%s'", l);
		tap_is_int(mailinfo_is_patch_break(l, strlen(l)), lines[i].brk,
			   "patch break: '%s'", l);
	}
	return tap_done();
}
