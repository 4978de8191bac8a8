/*
 * mbox reading and writing: From_ lines (git mailsplit's rule), mboxrd
 * quoting both ways, and the blank line that ends each entry, dropped for
 * the last message as for the others while a bare message keeps its bytes.
 */
#include "mail/mbox.h"
#include "write/writer.h"
#include "tap.h"

#include <string.h>

/* git mailsplit's is_from_line(), which git am splits on. */
static const struct {
	const char *line;
	int is_from;
} from_line_cases[] = {
    {"From a@b Mon Jan  1 00:00:00 2024", 1},
    {"From 1234abcd Mon Sep 17 00:00:00 2001", 1},
    {"From a@b Mon Jan  1 00:00:00 2024\r\n", 1},
    {"From x Mon Jan  1 9:00:00 2024", 1},
    {"From git@z Thu Jan  1 00:00:00 1970", 1},
    {"From a@b Mon Jan  1 00:00:00 70", 0},
    {"From a@b Mon Jan  1 00:00:00", 0},
    {"From the other side of the road", 0},
    {"From: a@b Mon Jan  1 00:00:00 2024", 0},
    {">From a@b Mon Jan  1 00:00:00 2024", 0},
    {"From a@b Mon Jan  1 00:0x:00 2024", 0},
};

static const struct {
	const char *mbox;
	const char *msgs[3];
} split_cases[] = {
    {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n\n"
     "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n\n",
     {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n",
      "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n"}},
    {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n"
     "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n",
     {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n",
      "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n"}},
    {"From a Mon Jan  1 00:00:00 2024\r\nA: 1\r\n\r\nx\r\n\r\n",
     {"From a Mon Jan  1 00:00:00 2024\r\nA: 1\r\n\r\nx\r\n"}},
    {"A: 1\n\nbare message ending in a blank line\n\n",
     {"A: 1\n\nbare message ending in a blank line\n\n"}},
    {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\n>From x\n>>From y\n\n",
     {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nFrom x\n>From y\n"}},
    /* only '>'s before "From " at a line's start make it quoted; the
     * message's last line may be one, without its newline */
    {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx>From y\n >From z\n"
     ">>>From w\n>>From v>From u\n>From t",
     {"From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx>From y\n >From z\n"
      ">>From w\n>From v>From u\nFrom t"}},
};

static void
collect(const char *msg, size_t len, void *data)
{
	g_ptr_array_add(data, g_strndup(msg, len));
}

static GPtrArray *
split(const char *s)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	mbox_split(s, strlen(s), collect, a);
	return a;
}

int
main(void)
{
	GPtrArray *a;
	GString *out;
	unsigned i, k;

	a = split("From a@b Thu Jan  1 00:00:00 1970\nSubject: "
		  "one\n\nbody\n>From quoted\n>>From twice\n\n"
		  "From a@b Thu Jan  1 00:00:00 1970\nSubject: two\n\nFrom "
		  "here on\nno split\n");
	tap_is_int(a->len, 2, "two messages");
	tap_ok(a->len == 2 &&
		   strstr(a->pdata[0], "\nFrom quoted\n>From twice\n"),
	       "mboxrd: one level of > removed");
	tap_ok(a->len == 2 && g_str_has_suffix(a->pdata[0], ">From twice\n"),
	       "the separating blank line is not part of the message");
	tap_ok(a->len == 2 && strstr(a->pdata[1], "From here on\nno split"),
	       "an unescaped 'From ' body line without a date does not split");
	g_ptr_array_free(a, TRUE);

	a = split("Subject: no from line\n\nbody\n");
	tap_is_int(a->len, 1, "a single message without a From_ line");
	g_ptr_array_free(a, TRUE);
	a = split("");
	tap_is_int(a->len, 0, "empty input, no message");
	g_ptr_array_free(a, TRUE);

	tap_ok(mbox_is_from_line("From abc Mon Sep 17 00:00:00 2001", 33),
	       "git's From_ line");
	tap_ok(!mbox_is_from_line("From the start it was meant to.", 31),
	       "prose is no From_ line");
	tap_ok(
	    !mbox_is_from_line("From x 12:34:56 1970 but 1980 12:34:56 50", 41),
	    "a year of 50 is no year");

	out = g_string_new(NULL);
	writer_mbox_add(out, "Subject: x\n\nFrom me\n>From you\nplain\n", TRUE);
	tap_is_str(out->str,
		   "From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: "
		   "x\n\n>From me\n>>From you\nplain\n",
		   "--mboxrd quotes From lines one level more");
	g_string_truncate(out, 0);
	writer_mbox_add(out, "Subject: x\n\nFrom me\n", FALSE);
	tap_is_str(
	    out->str,
	    "From git@z Thu Jan  1 00:00:00 1970\nSubject: x\n\nFrom me\n",
	    "git am's mbox is not quoted");
	g_string_free(out, TRUE);
	tap_ok(writer_has_from_line("a\nFrom x Mon Sep 17 00:00:00 2001\n"),
	       "a From_ look-alike in a body is found");
	for (i = 0; i < G_N_ELEMENTS(from_line_cases); i++) {
		const char *l = from_line_cases[i].line;

		tap_is_int(mbox_is_from_line(l, strlen(l)),
			   from_line_cases[i].is_from, "From_ line case %u", i);
	}
	for (i = 0; i < G_N_ELEMENTS(split_cases); i++) {
		GPtrArray *got = g_ptr_array_new_with_free_func(g_free);
		const char *mb = split_cases[i].mbox;
		unsigned want = 0;

		while (want < 3 && split_cases[i].msgs[want])
			want++;
		mbox_split(mb, strlen(mb), collect, got);
		tap_is_int(got->len, want, "split case %u: message count", i);
		for (k = 0; k < got->len && k < want; k++)
			tap_is_str(got->pdata[k], split_cases[i].msgs[k],
				   "split case %u: message %u", i, k);
		g_ptr_array_free(got, TRUE);
	}
	return tap_done();
}
