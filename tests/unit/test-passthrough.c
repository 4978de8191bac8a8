/*
 * The mail filter's two pure parts, table-driven: where the X-Lore-Am
 * header goes (and that nothing else changes), and what its value says.
 */
#include "write/passthrough.h"
#include "tap.h"
#include "core/util.h"

#include <stdlib.h>
#include <unistd.h>

/* a string literal and its length, NUL bytes included */
#define S(x) x, sizeof(x) - 1

static const struct {
	const char *name, *in;
	size_t inlen;
	const char *out;
	size_t outlen, max;
} copies[] = {
    {"plain headers", S("Subject: x\nFrom: a@b\n\nbody\n"),
     S("X-Lore-Am: S\nSubject: x\nFrom: a@b\n\nbody\n"), 0},
    {"after a From_ line",
     S("From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nb\n"),
     S("From a@b Mon Jan  1 00:00:00 2024\nX-Lore-Am: S\nSubject: x\n\nb\n"),
     0},
    {"CRLF mail gets a CRLF header", S("Subject: x\r\n\r\nb\r\n"),
     S("X-Lore-Am: S\r\nSubject: x\r\n\r\nb\r\n"), 0},
    {"obsolete 'Name :' syntax", S("Subject : x\n\nb\n"),
     S("X-Lore-Am: S\nSubject : x\n\nb\n"), 0},
    {"empty input stays empty", S(""), S(""), 0},
    {"not mail: no header", S("hello world\nsecond line\n"),
     S("hello world\nsecond line\n"), 0},
    {"not mail: blank first line", S("\nSubject: x\n"), S("\nSubject: x\n"), 0},
    {"not mail: From_ line alone", S("From a@b Mon Jan  1 00:00:00 2024"),
     S("From a@b Mon Jan  1 00:00:00 2024"), 0},
    {"no final newline kept", S("Subject: x\n\nb"),
     S("X-Lore-Am: S\nSubject: x\n\nb"), 0},
    {"NUL bytes kept", S("Subject: x\n\na\0b\n"),
     S("X-Lore-Am: S\nSubject: x\n\na\0b\n"), 0},
    {"larger than the limit: rest streamed", S("Subject: x\n\nabcdefghij\n"),
     S("X-Lore-Am: S\nSubject: x\n\nabcdefghij\n"), 16},
};

static char *
run_copy(const char *in, size_t inlen, size_t max, size_t *outlen,
	 gboolean *eof)
{
	char path[] = "/tmp/lore-am-unit.XXXXXX";
	char opath[] = "/tmp/lore-am-unit-out.XXXXXX";
	int fd = mkstemp(path), out = mkstemp(opath);
	struct passthrough pt;
	GError *err = NULL;
	char *res = NULL;

	if (fd < 0 || out < 0 || write(fd, in, inlen) != (ssize_t)inlen)
		abort();
	lseek(fd, 0, SEEK_SET);
	passthrough_read(&pt, fd, max ? max : PASSTHROUGH_MAX, &err);
	*eof = pt.eof;
	passthrough_write(&pt, out, "S", &err);
	g_file_get_contents(opath, &res, outlen, NULL);
	unlink(opath);
	close(out);
	passthrough_clear(&pt);
	close(fd);
	unlink(path);
	return res;
}

static const struct {
	struct amjob_result r;
	int missing[3];
	int rc;
	const char *want;
} statuses[] = {
    {{.revision = 2,
      .expected = 5,
      .present = 5,
      .stem = "v2_x",
      .written = TRUE,
      .attestation = "pass"},
     {0},
     LORE_OK,
     "status=complete; revision=2; patches=5/5; series=v2_x; attestation=pass"},
    {{.revision = 1,
      .expected = 5,
      .present = 3,
      .stem = "s",
      .written = FALSE},
     {2, 4},
     LORE_ENOTFOUND,
     "status=incomplete; revision=1; patches=3/5; missing=2,4; series=s; "
     "attestation=none"},
    {{.revision = 1,
      .expected = 3,
      .present = 2,
      .stem = "s",
      .written = TRUE,
      .attestation = "fail"},
     {3},
     LORE_OK,
     "status=incomplete; revision=1; patches=2/3; missing=3; series=s; "
     "attestation=fail"},
    {{0}, {0}, LORE_ENOTFOUND, "status=none"},
    {{0}, {0}, LORE_EUSAGE, "status=error; code=2"},
    {{.revision = 1,
      .expected = 2,
      .present = 2,
      .stem = "s",
      .written = FALSE},
     {0},
     LORE_EIO,
     "status=error; code=74; revision=1; patches=2/2; series=s; "
     "attestation=none"},
    /* the gate's hardfail refused the series: what it found, not an
     * error; its warnings said; nothing found, no field */
    {{.revision = 1, .expected = 2, .present = 2, .stem = "s", .gate = "fail"},
     {0},
     LORE_EGATE,
     "status=complete; revision=1; patches=2/2; series=s; "
     "attestation=none; gate=fail"},
    {{.revision = 1,
      .expected = 2,
      .present = 2,
      .stem = "s",
      .written = TRUE,
      .gate = "warn"},
     {0},
     LORE_OK,
     "status=complete; revision=1; patches=2/2; series=s; "
     "attestation=none; gate=warn"},
    {{.revision = 1,
      .expected = 2,
      .present = 2,
      .stem = "s",
      .written = TRUE,
      .gate = "pass"},
     {0},
     LORE_OK,
     "status=complete; revision=1; patches=2/2; series=s; "
     "attestation=none"},
};

int
main(void)
{
	unsigned i, k;

	for (i = 0; i < G_N_ELEMENTS(copies); i++) {
		size_t inlen = copies[i].inlen, wantlen = copies[i].outlen;
		size_t outlen = 0;
		gboolean eof;
		char *got =
		    run_copy(copies[i].in, inlen, copies[i].max, &outlen, &eof);

		tap_ok(got && outlen == wantlen &&
			   !memcmp(got, copies[i].out, wantlen),
		       "copy: %s", copies[i].name);
		if (copies[i].max)
			tap_ok(!eof, "copy: %s: stopped keeping at the limit",
			       copies[i].name);
		g_free(got);
	}
	for (i = 0; i < G_N_ELEMENTS(statuses); i++) {
		struct amjob_result r = statuses[i].r;
		char *got;

		if (statuses[i].missing[0]) {
			r.missing = g_array_new(FALSE, FALSE, sizeof(int));
			for (k = 0; k < 3 && statuses[i].missing[k]; k++)
				g_array_append_val(r.missing,
						   statuses[i].missing[k]);
		}
		got = passthrough_status(&r, statuses[i].rc, NULL);
		tap_is_str(got, statuses[i].want, "status: %s",
			   statuses[i].want);
		g_free(got);
		if (r.missing)
			g_array_unref(r.missing);
	}
	{
		char *got = passthrough_status(NULL, LORE_ETEMP, NULL);

		tap_is_str(got, "status=error; code=75", "status: job not run");
		g_free(got);
	}
	{
		struct amjob_result r = {0};
		struct queue_seen q = {TRUE, QUEUE_SUPERSEDED, 1, "2,0,1"};
		char *got;

		r.revision = 2;
		r.expected = r.present = 3;
		got = passthrough_status(&r, LORE_OK, &q);
		tap_is_str(got,
			   "status=complete; revision=2; patches=3/3; "
			   "state=superseded; reviews=2,0,1; attestation=none",
			   "status: the queue's state and reviews, then "
			   "attestation");
		g_free(got);
	}
	return tap_done();
}
