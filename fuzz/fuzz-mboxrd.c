/*
 * fuzz-mboxrd.c - the mboxrd path: a message written with mboxrd quoting
 * (writer.c) and split again (mbox.c) must come back byte for byte, as
 * exactly one message, whatever "From " and ">From " lines it holds. Also
 * runs the splitter over the raw input, which must not crash.
 */
#include "fuzz.h"

#include "mail/mbox.h"
#include "write/writer.h"

#include <string.h>

#define FROM_LINE "From mboxrd@z Thu Jan  1 00:00:00 1970\n"

struct got {
	guint n;
	GString *first;
	size_t total;
};

static void
collect(const char *msg, size_t len, void *data)
{
	struct got *g = data;

	if (!g->n++)
		g->first = g_string_new_len(msg, len);
	g->total += len;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	GString *mbox = g_string_new(NULL);
	struct got g = {0}, raw = {0};

	writer_mbox_add(mbox, s, TRUE);
	mbox_split(mbox->str, mbox->len, collect, &g);
	fuzz_assert(g.n == 1);
	{
		/*
		 * A last blank line is the mbox separator: the reader drops
		 * it, so a message whose last line is blank ("\n" or "\r\n")
		 * comes back without that line, and only that line.
		 */
		size_t n = strlen(s), fl = strlen(FROM_LINE), got;

		fuzz_assert(g.first->len >= fl);
		got = g.first->len - fl;
		fuzz_assert(got <= n);
		if (got < n) {
			const char *cut = s + got;

			fuzz_assert(!strcmp(cut, "\n") || !strcmp(cut, "\r\n"));
			fuzz_assert(got == 0 || s[got - 1] == '\n');
		}
		fuzz_assert(!memcmp(g.first->str, FROM_LINE, fl));
		fuzz_assert(!memcmp(g.first->str + fl, s, got));
	}
	g_string_free(g.first, TRUE);
	g_string_free(mbox, TRUE);

	/* the raw bytes as an mbox: pieces never exceed the input */
	mbox_split((const char *)data, size, collect, &raw);
	fuzz_assert(raw.total <= size);
	if (raw.first)
		g_string_free(raw.first, TRUE);
	return 0;
}
