/*
 * fuzz-appendlog.c - the repair of an --append killed in its write
 * (appendlog.c), on a file in memory (memfd). The input's first byte picks
 * the case. Even: the input's pieces become the entries of a real write
 * with its real journal, the write torn anywhere (or on a block boundary)
 * and followed by another program's mail, bytes that are no mail, or
 * nothing; the repair must never grow the file, never change a byte
 * before the write or of what followed it, and when nothing followed a
 * tear on a block boundary, leave the old file and whole entries only.
 * Odd: the input is the stale lock's text itself, against a file of its
 * own; the repair must not crash nor grow the file.
 */
#include "fuzz.h"

#include "write/appendlog.h"
#include "write/deliver.h"
#include "write/lock.h"
#include "mail/mbox.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define OLD "From a@x Mon Jan  1 00:00:00 2024\nMessage-ID: <old@x>\n\nold\n"
#define OTHER "From o@x Tue Jan  2 00:00:00 2024\nMessage-ID: <o@x>\n\nx\n"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static GString *
file_bytes(int fd)
{
	GString *s = g_string_new(NULL);
	char buf[65536];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		g_string_append_len(s, buf, n);
		off += n;
	}
	return s;
}

static int
repair(int fd, const char *stale)
{
	struct lock l = {0};
	GError *err = NULL;
	int rc;

	l.path = (char *)"fuzz.mbox";
	l.fd = fd;
	l.stale = g_strdup(stale);
	rc = appendlog_repair(&l, &err);
	g_clear_error(&err);
	g_free(l.stale);
	return rc;
}

/* The write: each piece of @d (cut at 0xff bytes) an mboxrd entry, its
 * body the piece, its lines repeated @rep times so that blocks fill. */
static GString *
entries(const uint8_t *d, size_t n, guint rep, gsize old, GArray *ends)
{
	GString *buf =
	    g_string_new(deliver_separator((const guint8 *)OLD, strlen(OLD)));
	size_t i = 0;

	while (i <= n) {
		const uint8_t *e = memchr(d + i, 0xff, n - i);
		size_t len = e ? (size_t)(e - (d + i)) : n - i;
		guint r;
		gsize end;

		g_string_append(buf, "From f@x Mon Jan  1 00:00:00 2024\n\n");
		for (r = 0; r < rep; r++) {
			size_t pos = 0, ll;
			const char *line;

			while (lore_next_line((const char *)d + i, len, &pos,
					      &line, &ll)) {
				mbox_append_mboxrd_line(buf, line, ll);
				g_string_append_c(buf, '\n');
			}
		}
		g_string_append_c(buf, '\n');
		end = old + buf->len;
		g_array_append_val(ends, end);
		i += len + 1;
	}
	return buf;
}

static void
structured(const uint8_t *data, size_t size)
{
	GArray *ends = g_array_new(FALSE, FALSE, sizeof(gsize));
	guint rep = 1 + (size > 1 ? data[1] % 64 : 0);
	guint64 seed = size > 3 ? (guint64)data[2] << 8 | data[3] : 0;
	guint how = size > 4 ? data[4] : 0;
	const uint8_t *d = data + MIN(size, 5);
	GString *buf = entries(d, size - MIN(size, 5), rep, strlen(OLD), ends);
	gsize old = strlen(OLD), tear = seed * 97 % (buf->len + 1);
	const char *after = (how & 3) == 1   ? OTHER
			    : (how & 3) == 2 ? "no From_ line\n"
					     : "";
	g_autofree char *j = appendlog_text(old, ends, buf);
	g_autofree char *stale = g_strconcat("1\nhost\n", j, NULL);
	int fd = memfd_create("fuzz-appendlog", 0);
	GString *before, *got;
	guint i;

	fuzz_assert(fd >= 0);
	/* a tear on a block boundary, as SIGKILL leaves it */
	if (how & 4) {
		gsize b = (old + tear) / 4096 * 4096;

		tear = b > old ? b - old : 0;
	}
	if (write(fd, OLD, old) < 0 || write(fd, buf->str, tear) < 0 ||
	    write(fd, after, strlen(after)) < 0)
		abort();
	before = file_bytes(fd);
	fuzz_assert(repair(fd, stale) == LORE_OK);
	got = file_bytes(fd);
	fuzz_assert(got->len <= before->len);
	fuzz_assert(got->len >= old && !memcmp(got->str, OLD, old));
	/* bytes are changed only where they are what the write meant */
	if (got->len < before->len) {
		/* a cut: back to the old end or a whole entry's end, of a
		 * file that held nothing but the write after its old end */
		gboolean at_end = got->len == old;

		for (i = 0; i < ends->len; i++)
			at_end =
			    at_end || got->len == g_array_index(ends, gsize, i);
		fuzz_assert(at_end);
		fuzz_assert(
		    before->len <= old + buf->len &&
		    !memcmp(before->str + old, buf->str, before->len - old));
	} else if (*after &&
		   memcmp(got->str + old + tear, after, strlen(after))) {
		/* what followed the write changed: only when it was
		 * byte for byte what the write meant to put there */
		fuzz_assert(tear + strlen(after) <= buf->len &&
			    !memcmp(buf->str + tear, after, strlen(after)));
	}
	g_string_free(before, TRUE);
	g_string_free(got, TRUE);
	g_string_free(buf, TRUE);
	g_array_free(ends, TRUE);
	close(fd);
}

static void
raw(const uint8_t *data, size_t size)
{
	g_autofree char *stale = fuzz_cstr(data + 1, size - 1);
	int fd = memfd_create("fuzz-appendlog", 0);
	GString *got;
	guint i;

	fuzz_assert(fd >= 0);
	for (i = 0; i < 300; i++)
		if (write(fd, OLD, strlen(OLD)) < 0)
			abort();
	repair(fd, stale);
	got = file_bytes(fd);
	fuzz_assert(got->len <= 300 * strlen(OLD));
	g_string_free(got, TRUE);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		raw(data, size);
	else
		structured(data, size);
	return 0;
}
