/*
 * mbox_read_path() splits files as it reads them, 64 KB at a time; it must
 * hand over exactly the messages mbox_split() finds in the whole buffer,
 * wherever the chunk boundaries fall (CRLF pairs, From_ lines, escaped
 * ">From " lines, blank separators, a last line without its newline), for
 * plain files and gzip files alike.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <zlib.h>

#include "mail/mbox.h"
#include "tap.h"

static void
collect(const char *msg, size_t len, void *data)
{
	g_ptr_array_add(data, g_strndup(msg, len));
}

static GPtrArray *
split_buffer(const GString *mbox)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	mbox_split(mbox->str, mbox->len, collect, a);
	return a;
}

static gboolean
same(GPtrArray *a, GPtrArray *b)
{
	guint i;

	if (a->len != b->len)
		return FALSE;
	for (i = 0; i < a->len; i++)
		if (strcmp(a->pdata[i], b->pdata[i]))
			return FALSE;
	return TRUE;
}

/*
 * A few messages, the first padded so that the 64 KB read boundary falls
 * @pad bytes into a run of lines where a cut matters: a From_ line that
 * separates without a blank line before it, an escaped one, a blank line
 * and a From_ line after it, CRLF pairs.
 */
static GString *
make_mbox(size_t pad, const char *eol, gboolean final_newline)
{
	GString *s = g_string_new(NULL);
	size_t boundary;
	int i = 0, k;

	g_string_append_printf(s,
			       "From a@example.org Mon Jan  1 12:00:00 2024%s"
			       "Message-ID: <m0@x>%sSubject: m0%s%s",
			       eol, eol, eol, eol);
	/* two boundaries, so that the second read starts mid-message too */
	for (boundary = 65536; boundary <= 2 * 65536; boundary += 65536) {
		while (s->len < boundary - pad)
			g_string_append_printf(s, "filler filler filler%s",
					       eol);
		g_string_truncate(s, boundary - pad);
		g_string_append(s, eol);
		for (k = 0; k < 2; k++, i++)
			g_string_append_printf(
			    s,
			    "text%sFrom b@example.org Mon Jan  1 12:00:0%d "
			    "2024%s"
			    "Message-ID: <m%d@x>%s%s>From escaped%s%s"
			    "From c@example.org Mon Jan  1 12:01:0%d 2024%s"
			    "Message-ID: <n%d@x>%s%sbody%s",
			    eol, i % 10, eol, i, eol, eol, eol, eol, i % 10,
			    eol, i, eol, eol, eol);
	}
	if (!final_newline)
		g_string_truncate(s, s->len - strlen(eol));
	return s;
}

static int failures;

static void
check(const GString *mbox, const char *dir, gboolean gz)
{
	g_autofree char *path =
	    g_build_filename(dir, gz ? "t.mbox.gz" : "t.mbox", NULL);
	GPtrArray *want = split_buffer(mbox);
	GPtrArray *got = g_ptr_array_new_with_free_func(g_free);
	GError *err = NULL;

	if (gz) {
		gzFile f = gzopen(path, "wb");

		gzwrite(f, mbox->str, mbox->len);
		gzclose(f);
	} else {
		g_file_set_contents(path, mbox->str, mbox->len, NULL);
	}
	if (!mbox_read_path(path, collect, got, &err))
		failures++;
	else if (want->len < 4 || !same(want, got))
		failures++;
	g_clear_error(&err);
	g_unlink(path);
	g_ptr_array_free(want, TRUE);
	g_ptr_array_free(got, TRUE);
}

int
main(void)
{
	g_autofree char *dir = g_dir_make_tmp("lore-am-unit.XXXXXX", NULL);
	static const struct {
		const char *what, *eol;
		gboolean final_newline;
	} cases[] = {
	    {"LF", "\n", TRUE},
	    {"CRLF", "\r\n", TRUE},
	    {"LF, no final newline", "\n", FALSE},
	    {"CRLF, no final newline", "\r\n", FALSE},
	};
	GPtrArray *got = g_ptr_array_new_with_free_func(g_free);
	GError *err = NULL;
	unsigned i, pad;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		failures = 0;
		for (pad = 1; pad <= 170; pad++) {
			GString *m = make_mbox(pad, cases[i].eol,
					       cases[i].final_newline);

			check(m, dir, FALSE);
			if (pad % 4 == 0)
				check(m, dir, TRUE);
			g_string_free(m, TRUE);
		}
		tap_is_int(failures, 0,
			   "%s: read boundary at 170 places, plain and gzip: "
			   "the same messages as from memory",
			   cases[i].what);
	}
	tap_ok(!mbox_read_path("/nonexistent/t.mbox", collect, got, &err) &&
		   err && strstr(err->message, "cannot read"),
	       "a missing file is an error");
	g_clear_error(&err);
	g_ptr_array_free(got, TRUE);
	g_rmdir(dir);
	return tap_done();
}
