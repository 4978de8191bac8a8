/*
 * mbox reading (table-driven): git mailsplit's From_ line test, and the
 * blank line that ends each entry, dropped for the last message as for
 * the others while a bare message keeps all its bytes.
 */
#include "mbox.h"
#include "tap.h"

/* git mailsplit's is_from_line(), which git am splits on. */
static const struct {
	const char *line;
	int is_from;
} from_line_cases[] = {
	{ "From a@b Mon Jan  1 00:00:00 2024", 1 },
	{ "From 1234abcd Mon Sep 17 00:00:00 2001", 1 },
	{ "From a@b Mon Jan  1 00:00:00 2024\r\n", 1 },
	{ "From x Mon Jan  1 9:00:00 2024", 1 },
	{ "From git@z Thu Jan  1 00:00:00 1970", 1 },
	{ "From a@b Mon Jan  1 00:00:00 70", 0 },
	{ "From a@b Mon Jan  1 00:00:00", 0 },
	{ "From the other side of the road", 0 },
	{ "From: a@b Mon Jan  1 00:00:00 2024", 0 },
	{ ">From a@b Mon Jan  1 00:00:00 2024", 0 },
	{ "From a@b Mon Jan  1 00:0x:00 2024", 0 },
};

static const struct {
	const char *mbox;
	const char *msgs[3];
} split_cases[] = {
	{ "From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n\n"
	  "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n\n",
	  { "From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n",
	    "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n" } },
	{ "From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n"
	  "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n",
	  { "From a Mon Jan  1 00:00:00 2024\nA: 1\n\nx\n",
	    "From b Mon Jan  1 00:00:00 2024\nB: 2\n\ny\n" } },
	{ "From a Mon Jan  1 00:00:00 2024\r\nA: 1\r\n\r\nx\r\n\r\n",
	  { "From a Mon Jan  1 00:00:00 2024\r\nA: 1\r\n\r\nx\r\n" } },
	{ "A: 1\n\nbare message ending in a blank line\n\n",
	  { "A: 1\n\nbare message ending in a blank line\n\n" } },
	{ "From a Mon Jan  1 00:00:00 2024\nA: 1\n\n>From x\n>>From y\n\n",
	  { "From a Mon Jan  1 00:00:00 2024\nA: 1\n\nFrom x\n>From y\n" } },
};

static void
collect(const char *m, size_t len, void *data)
{
	g_ptr_array_add(data, g_strndup(m, len));
}

int
main(void)
{
	unsigned i, k;

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
