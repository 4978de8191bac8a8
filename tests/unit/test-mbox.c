/* mbox reading and writing: From_ lines, mboxrd quoting both ways. */
#include "mbox.h"
#include "writer.h"
#include "tap.h"

#include <string.h>

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

	a = split("From a@b Thu Jan  1 00:00:00 1970\nSubject: one\n\nbody\n>From quoted\n>>From twice\n\n"
		  "From a@b Thu Jan  1 00:00:00 1970\nSubject: two\n\nFrom here on\nno split\n");
	tap_is_int(a->len, 2, "two messages");
	tap_ok(a->len == 2 && strstr(a->pdata[0], "\nFrom quoted\n>From twice\n"),
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

	tap_ok(mbox_is_from_line("From abc Mon Sep 17 00:00:00 2001", 33), "git's From_ line");
	tap_ok(!mbox_is_from_line("From the start it was meant to.", 31), "prose is no From_ line");
	tap_ok(!mbox_is_from_line("From x 12:34:56 1970 but 1980 12:34:56 50", 41), "a year of 50 is no year");

	out = g_string_new(NULL);
	writer_mbox_add(out, "Subject: x\n\nFrom me\n>From you\nplain\n", TRUE);
	tap_is_str(out->str, "From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n\n>From me\n>>From you\nplain\n",
		   "--mboxrd quotes From lines one level more");
	g_string_truncate(out, 0);
	writer_mbox_add(out, "Subject: x\n\nFrom me\n", FALSE);
	tap_is_str(out->str, "From git@z Thu Jan  1 00:00:00 1970\nSubject: x\n\nFrom me\n",
		   "git am's mbox is not quoted");
	g_string_free(out, TRUE);
	tap_ok(writer_has_from_line("a\nFrom x Mon Sep 17 00:00:00 2001\n"), "a From_ look-alike in a body is found");
	return tap_done();
}
