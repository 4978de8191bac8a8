/*
 * fuzz-message.c - the message reader: one raw mail (as a mail client pipes
 * it) through the header scan, RFC 2047 and address decoding, the body
 * decoder (GMime for MIME), git mailinfo's rules, the body anatomy and the
 * patch-id; and the Message-ID parsers and the base64 and quoted-printable
 * decoders (against GMime's) on the same bytes. The body as git
 * applies it keeps the patch mailinfo finds, byte for byte.
 */
#include "fuzz.h"

#include "mail/body.h"
#include "mail/cte.h"
#include "trailers/bodyparts.h"
#include "mail/mailinfo.h"
#include "mail/message.h"
#include "mail/msgbody.h"
#include "core/msgid.h"
#include "mail/patchid.h"
#include "core/util.h"

#include <string.h>

/* GMime's decoder called directly (the tests link GMime): lore-am's own
 * table (mail/gmimelib.h) does not hold it, and must not redirect it */
#ifdef g_mime_encoding_flush
#error "g_mime_encoding_flush is redirected by mail/gmimelib.h"
#endif

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static void
check_id(const char *id)
{
	if (id)
		fuzz_assert(msgid_valid(id));
}

static void
check_ids(const char *s)
{
	GPtrArray *ids = msgid_list(s);
	char *id;
	guint i;

	for (i = 0; i < ids->len; i++)
		check_id(ids->pdata[i]);
	g_ptr_array_free(ids, TRUE);
	id = msgid_from_arg(s);
	check_id(id);
	g_free(id);
	id = msgid_from_header(s);
	check_id(id);
	g_free(id);
}

/* Decoded header values never hold a line break: they end up in the
 * headers of the am-ready message. */
static void
check_one_line(const char *s)
{
	fuzz_assert(s && !strpbrk(s, "\r\n"));
}

/* The offset of the first patch break line of @t, or its length. */
static size_t
patch_start(const char *t)
{
	size_t pos = 0, len = strlen(t), ll;
	const char *l;

	while (lore_next_line(t, len, &pos, &l, &ll))
		if (mailinfo_is_patch_break(l, ll) &&
		    !mailinfo_is_scissors(l, ll))
			return l - t;
	return len;
}

/*
 * The body as git applies it (message_am_body) differs from the UTF-8 one
 * only in the patch's bytes: the commit message above the break is the
 * same valid UTF-8 text in both, and the patch git mailinfo's rules cut
 * from it is the patch that follows the break, byte for byte.
 */
static void
check_am_body(struct message *m, const char *body)
{
	const char *am = message_am_body(m);
	size_t a = patch_start(am), b = patch_start(body);
	struct mailinfo mi;

	fuzz_assert(am != NULL);
	fuzz_assert(a == b && !strncmp(am, body, a));
	fuzz_assert(g_utf8_validate(am, a, NULL));
	mailinfo_run(m, am, &mi);
	if (am[a]) {
		size_t n = strlen(am + a);

		fuzz_assert(strlen(mi.body) >= n &&
			    !memcmp(mi.body + strlen(mi.body) - n, am + a, n));
	}
	mailinfo_clear(&mi);
}

/*
 * A mail with several patches attached becomes a cover letter with its
 * own Message-ID and at least two patches, each answering it, with valid
 * ids and one-line subjects; made once.
 */
static void
check_split(struct message *m)
{
	const GPtrArray *sp = message_split(m);
	guint i;

	fuzz_assert(message_split(m) == sp);
	if (!sp)
		return;
	fuzz_assert(sp->len >= 3);
	for (i = 0; i < sp->len; i++) {
		struct message *d = sp->pdata[i];

		check_id(d->msgid);
		check_one_line(d->subject);
		fuzz_assert(g_utf8_validate(message_body(d), -1, NULL));
		if (i)
			fuzz_assert(!g_strcmp0(d->in_reply_to, m->msgid));
		else
			fuzz_assert(!g_strcmp0(d->msgid, m->msgid));
	}
}

/* A multipart split by hand (mimesplit.h) gives the bytes GMime's
 * parser gives. */
static void
check_by_gmime(const uint8_t *data, size_t size, struct message *m)
{
	struct message *g;

	msgbody_gmime_only = TRUE;
	g = message_parse((const char *)data, size, NULL);
	fuzz_assert(g != NULL);
	fuzz_assert(!strcmp(message_body(g), message_body(m)));
	fuzz_assert(!strcmp(message_am_body(g), message_am_body(m)));
	fuzz_assert(g->body_nul == m->body_nul);
	message_free(g);
	msgbody_gmime_only = FALSE;
}

/* A sender read by hand (message_addr_simple(), an encoded-word name)
 * is what GMime's address parser reads. */
static void
check_addr(const char *value)
{
	char *n, *e, *gn, *ge;

	if (!value)
		return;
	message_parse_addr(value, &n, &e);
	message_addr_gmime_only = TRUE;
	message_parse_addr(value, &gn, &ge);
	message_addr_gmime_only = FALSE;
	fuzz_assert(!strcmp(n, gn) && !strcmp(e, ge));
	g_free(n);
	g_free(e);
	g_free(gn);
	g_free(ge);
}

/* The bytes, as a base64 and as a quoted-printable body, decoded by hand
 * (cte.h) as GMime's decoder decodes them. */
static void
check_cte(const uint8_t *data, size_t size)
{
	int qp;

	for (qp = 0; qp < 2; qp++) {
		GMimeEncoding st;
		char *want = g_malloc(size + 4), *got;
		size_t wn, gn;

		g_mime_encoding_init_decode(
		    &st, qp ? GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE
			    : GMIME_CONTENT_ENCODING_BASE64);
		wn = g_mime_encoding_flush(&st, (const char *)data, size, want);
		got = cte_decode(qp, (const char *)data, size, &gn);
		fuzz_assert(wn == gn && !memcmp(want, got, wn));
		g_free(want);
		g_free(got);
	}
}

/* The files a patch-id is taken of give that patch-id, and are the same
 * as themselves read again. */
static void
check_patchid_files(const char *body, const char *pid)
{
	struct patchid_files *f = patchid_files_new(body), *g;
	char *fp;

	fuzz_assert(!f == !pid);
	if (!f)
		return;
	fp = patchid_files_stable(f);
	fuzz_assert(!strcmp(fp, pid));
	g = patchid_files_new(body);
	fuzz_assert(patchid_files_equal(f, g) &&
		    patchid_files_hash(f) == patchid_files_hash(g));
	g_free(fp);
	patchid_files_free(g);
	patchid_files_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	struct message *m;
	struct mailinfo mi;
	struct body_parts bp;
	const char *body;
	char *h, *pid, *rebuilt;
	GPtrArray *none = g_ptr_array_new();
	guint i;

	check_ids(s);
	check_cte(data, size);
	m = message_parse((const char *)data, size, NULL);
	if (!m)
		goto out;
	check_id(m->msgid);
	check_id(m->in_reply_to);
	for (i = 0; i < m->refs->len; i++)
		check_id(m->refs->pdata[i]);
	check_one_line(m->subject);
	check_one_line(m->from_name);
	check_one_line(m->from_email);
	check_addr(m->from_hdr);
	fuzz_assert(g_utf8_validate(m->subject, -1, NULL));
	fuzz_assert(m->body_off <= m->len);

	body = message_body(m);
	fuzz_assert(body != NULL);
	fuzz_assert(g_utf8_validate(body, -1, NULL));
	fuzz_assert(message_body(m) == body);

	h = message_header(m, "subject");
	g_free(h);
	h = message_header(m, "x-missing");
	fuzz_assert(h == NULL);

	mailinfo_run(m, body, &mi);
	check_one_line(mi.author_name);
	check_one_line(mi.subject);
	mailinfo_clear(&mi);
	check_am_body(m, body);
	check_by_gmime(data, size, m);
	check_split(m);

	body_split(body, &bp);
	rebuilt = body_rebuild(&bp, none);
	g_free(rebuilt);
	body_parts_clear(&bp);

	pid = patchid_stable(body);
	fuzz_assert(!pid || strlen(pid) == 40);
	check_patchid_files(body, pid);
	g_free(pid);
	message_free(m);
out:
	g_ptr_array_free(none, TRUE);
	return 0;
}
