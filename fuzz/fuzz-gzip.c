/*
 * fuzz-gzip.c - the gzip stream path of the archive source: a thread as a
 * server sends it (a gzipped mboxrd, one or two gzip members) is inflated
 * and cut into messages as it streams in (fetch.c, built here with a tiny
 * inflate chunk so the cuts fall everywhere). It must give exactly the
 * messages that splitting the same mbox in one piece gives; and the raw
 * input taken as a server's answer must not crash it.
 */
#include "fuzz.h"

#include "source/fetch.h"
#include "source/lore.h"
#include "mail/mbox.h"
#include "thread/thread.h"

#include <string.h>
#include <zlib.h>

static struct lore_opts opts;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	opts.max_size = 1 << 20;
	return 0;
}

/* Append @n bytes at @p to @out as one gzip member. */
static void
gzip_member(GByteArray *out, const guint8 *p, size_t n)
{
	z_stream zs;
	guint8 buf[4096];
	int rc;

	memset(&zs, 0, sizeof(zs));
	fuzz_assert(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				 Z_DEFAULT_STRATEGY) == Z_OK);
	zs.next_in = (Bytef *)p;
	zs.avail_in = n;
	do {
		zs.next_out = buf;
		zs.avail_out = sizeof(buf);
		rc = deflate(&zs, Z_FINISH);
		g_byte_array_append(out, buf, sizeof(buf) - zs.avail_out);
	} while (rc == Z_OK);
	fuzz_assert(rc == Z_STREAM_END);
	deflateEnd(&zs);
}

static void
add_one(const char *msg, size_t len, void *data)
{
	thread_add_raw(data, msg, len, "fuzz");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct thread *streamed = thread_new(), *whole = thread_new();
	struct thread *raw = thread_new();
	GByteArray *gz = g_byte_array_new();
	guint i;

	/* odd first byte: the answer comes as two gzip members */
	if (size > 1 && (data[0] & 1)) {
		gzip_member(gz, data, size / 2);
		gzip_member(gz, data + size / 2, size - size / 2);
	} else {
		gzip_member(gz, data, size);
	}
	if (size)
		mbox_split((const char *)data, size, add_one, whole);
	/* only a thread that costs more memory than the cap (its messages
	 * with their overhead, and the bytes not yet cut) may be refused */
	if (!fetch_replay(&opts, gz->data, gz->len, streamed)) {
		fuzz_assert(whole->cost + size > opts.max_size);
		goto out;
	}
	if (getenv("FUZZ_DEBUG"))
		fprintf(stderr, "streamed %u, whole %u messages\n",
			streamed->msgs->len, whole->msgs->len);
	fuzz_assert(streamed->msgs->len == whole->msgs->len);
	for (i = 0; i < whole->msgs->len; i++) {
		struct message *a = streamed->msgs->pdata[i];
		struct message *b = whole->msgs->pdata[i];

		fuzz_assert(!strcmp(a->msgid, b->msgid));
		if (getenv("FUZZ_DEBUG") &&
		    (a->len != b->len || memcmp(a->raw, b->raw, a->len)))
			fprintf(
			    stderr,
			    "<%s>: streamed %zu bytes [%s], whole %zu [%s]\n",
			    a->msgid, a->len,
			    g_strescape(
				a->raw + (a->len > 40 ? a->len - 40 : 0), NULL),
			    b->len,
			    g_strescape(b->raw +
					    (b->len > 40 ? b->len - 40 : 0),
					NULL));
		fuzz_assert(a->len == b->len &&
			    !memcmp(a->raw, b->raw, a->len));
	}
out:
	/* the bytes themselves as a server's answer: anything but a crash */
	fetch_replay(&opts, data, size, raw);

	g_byte_array_unref(gz);
	thread_free(streamed);
	thread_free(whole);
	thread_free(raw);
	return 0;
}
