/*
 * mboxrd framing for --thread (table-driven): From_ lines, ">*From "
 * quoting, the blank line after each entry, and the round trip through
 * mbox_split that must give every message back byte for byte; and the
 * file name slug for a thread.
 */
#include "write/deliver.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "write/threadout.h"
#include "tap.h"

#include <gmime/gmime.h>

static struct message *
msg(const char *raw)
{
	return message_parse(raw, strlen(raw), NULL);
}

static const struct {
	const char *raw, *from_line;
} from_cases[] = {
    {"From: A <a@example.org>\nDate: Mon, 1 Jan 2024 12:00:00 +0000\n\nx\n",
     "From a@example.org Mon Jan  1 12:00:00 2024"},
    {"From: a@example.org\nDate: Tue, 12 Mar 2024 23:59:59 -0100\n\nx\n",
     "From a@example.org Wed Mar 13 00:59:59 2024"},
    {"From: Nobody <>\nDate: Mon, 1 Jan 2024 12:00:00 +0000\n\nx\n",
     "From MAILER-DAEMON Mon Jan  1 12:00:00 2024"},
    {"From: \"x y\"@example.org\nDate: Mon, 1 Jan 2024 12:00:00 +0000\n\nx\n",
     "From MAILER-DAEMON Mon Jan  1 12:00:00 2024"},
    {"From: a@example.org\nSubject: no date\n\nx\n",
     "From a@example.org Thu Jan  1 00:00:00 1970"},
};

static const struct {
	const char *raw, *entry;
} frame_cases[] = {
    {"Subject: a\n\nbody\n", "Subject: a\n\nbody\n\n"},
    {"Subject: a\n\nFrom here\n>From there\n>>From x\nFrom\n>From\n",
     "Subject: a\n\n>From here\n>>From there\n>>>From x\nFrom\n>From\n\n"},
    {"Subject: a\n\nno newline at the end",
     "Subject: a\n\nno newline at the end\n\n"},
    {"Subject: a\r\n\r\nFrom crlf\r\n", "Subject: a\r\n\r\n>From crlf\r\n\n"},
    {"Subject: a\n\nends in a blank line\n\n",
     "Subject: a\n\nends in a blank line\n\n\n"},
};

/* Messages that must come back unchanged from an mbox we wrote. */
static const char *const round_trip[] = {
    "Message-ID: <1@x>\nFrom: a@x\n\nplain\n",
    "Message-ID: <2@x>\nFrom: a@x\n\nFrom the start\n>From quoted\n\n"
    "From Mon Jan  1 00:00:00 2024\n",
    "Message-ID: <3@x>\nFrom: a@x\n\nformat-patch ending\n-- \n2.39.5\n\n",
    "Message-ID: <4@x>\r\nFrom: a@x\r\n\r\ncrlf\r\n",
    "Message-ID: <5@x>\nFrom: a@x\n\n\n\nthree blank lines above\n",
};

static void
collect(const char *m, size_t len, void *data)
{
	g_ptr_array_add(data, g_strndup(m, len));
}

static const struct {
	const char *id, *slug;
} slug_cases[] = {
    {"20240101.123-1-foo@bar.com", "20240101.123-1-foo@bar.com"},
    {"a/b c@d", "a_b_c@d"},
    {"__x__", "x"},
    {"\xc3\xbc@x", "\xc3\xbc@x"},
    {"a$$b@c", "a_b@c"},
    {"a_/_b@c", "a___b@c"},
    {"../../etc/passwd", ".._.._etc_passwd"},
    {"///", "thread"},
};

int
main(void)
{
	GString *mbox = g_string_new(NULL);
	GPtrArray *got = g_ptr_array_new_with_free_func(g_free);
	unsigned i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(from_cases); i++) {
		struct message *m = msg(from_cases[i].raw);
		char *l = deliver_from_line(m);

		tap_is_str(l, from_cases[i].from_line, "From_ line %u", i);
		tap_ok(mbox_is_from_line(l, strlen(l)),
		       "git mailsplit takes From_ line %u for a separator", i);
		g_free(l);
		message_free(m);
	}
	for (i = 0; i < G_N_ELEMENTS(frame_cases); i++) {
		struct message *m = msg(frame_cases[i].raw);
		GString *s = g_string_new(NULL);
		const char *nl;

		deliver_mboxrd_add(s, m);
		nl = strchr(s->str, '\n');
		tap_is_str(nl + 1, frame_cases[i].entry, "mboxrd entry %u", i);
		g_string_free(s, TRUE);
		message_free(m);
	}
	for (i = 0; i < G_N_ELEMENTS(round_trip); i++) {
		struct message *m = msg(round_trip[i]);

		deliver_mboxrd_add(mbox, m);
		message_free(m);
	}
	mbox_split(mbox->str, mbox->len, collect, got);
	tap_is_int(got->len, G_N_ELEMENTS(round_trip), "every entry read back");
	for (i = 0; i < got->len && i < G_N_ELEMENTS(round_trip); i++) {
		const char *g = got->pdata[i];
		const char *body = strchr(g, '\n');

		/* mbox_split hands the From_ line on; message_parse drops it */
		tap_is_str(body ? body + 1 : g, round_trip[i],
			   "message %u comes back byte for byte", i);
	}
	for (i = 0; i < G_N_ELEMENTS(slug_cases); i++) {
		char *s = threadout_slug(slug_cases[i].id);

		tap_is_str(s, slug_cases[i].slug, "slug of '%s'",
			   slug_cases[i].id);
		g_free(s);
	}
	{
		char *long_id = g_strnfill(300, 'a');
		char *s = threadout_slug(long_id);

		tap_is_int(strlen(s), 200, "a long id is cut to 200 bytes");
		g_free(s);
		g_free(long_id);
	}
	g_ptr_array_free(got, TRUE);
	g_string_free(mbox, TRUE);
	g_mime_shutdown();
	return tap_done();
}
