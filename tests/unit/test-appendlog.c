/*
 * The repair of an --append killed in its write (appendlog.h), on files
 * built here: a write torn on a block boundary or inside a block, with or
 * without another program's mail after it, the first entry after an old
 * end that lacked its blank line, a journal cut short, a mailbox cut
 * since. What the repair must give: the killed run's whole entries, no
 * half-written one that could pass for its message, every byte it cannot
 * prove its own untouched, and the other mail a message of its own.
 */
#include "write/appendlog.h"
#include "write/deliver.h"
#include "write/lock.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "tap.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <gmime/gmime.h>
#include <unistd.h>

#define OTHER                                                                  \
	"From other@example.net Tue Jan  2 00:00:00 2024\n"                    \
	"Message-ID: <other@example.net>\n\nanother program's mail\n"

/* the size of each entry's message */
static guint entry_size = 3000;

struct run {
	GString *file;	/* the mailbox after the repair */
	GPtrArray *ids; /* the Message-IDs in it, in order ("-": none) */
	int rc;
};

static void
collect_id(const char *msg, size_t len, void *data)
{
	struct message *m = message_parse(msg, len, NULL);

	g_ptr_array_add(data, g_strdup(m && m->msgid ? m->msgid : "-"));
	message_free(m);
}

/* The new entries: @n messages of about @size bytes, as append.c frames
 * them; @ends gets where each ends, counted from @old. */
static GString *
entries(guint n, guint size, gsize old, const char *sep, GArray *ends)
{
	GString *buf = g_string_new(sep);
	guint i;

	for (i = 0; i < n; i++) {
		GString *raw = g_string_new(NULL);
		struct message *m;
		gsize end;

		g_string_printf(raw,
				"From: a@example.org\nMessage-ID: <e%u@x>\n"
				"Date: Mon, 1 Jan 2024 10:00:00 +0000\n\n",
				i);
		while (raw->len < size)
			g_string_append(raw, "a line of the body, and more\n");
		m = message_parse(raw->str, raw->len, NULL);
		deliver_mboxrd_add(buf, m);
		end = old + buf->len;
		g_array_append_val(ends, end);
		message_free(m);
		g_string_free(raw, TRUE);
	}
	return buf;
}

/*
 * A mailbox @old_text, a write of @n entries torn at @tear bytes of it
 * (G_MAXSIZE: whole), then @after appended; its lock's text cut to
 * @jlen bytes (-1: whole). Repaired; the result in @r.
 */
static void
run(const char *old_text, guint n, gsize tear, const char *after, gssize jlen,
    struct run *r)
{
	g_autofree char *path =
	    g_build_filename(g_get_tmp_dir(), "test-appendlog-XXXXXX", NULL);
	GArray *ends = g_array_new(FALSE, FALSE, sizeof(gsize));
	gsize old = strlen(old_text);
	GString *buf =
	    entries(n, entry_size, old,
		    deliver_separator((const guint8 *)old_text, old), ends);
	g_autofree char *j = appendlog_text(old, ends, buf);
	struct lock l = {0};
	GError *err = NULL;
	gsize len;
	char *text;
	int fd = g_mkstemp(path);

	if (write(fd, old_text, old) < 0 ||
	    write(fd, buf->str, MIN(tear, buf->len)) < 0 ||
	    write(fd, after, strlen(after)) < 0)
		perror("write");
	l.path = path;
	l.fd = fd;
	l.stale = g_strdup_printf("1\nhost\n%.*s", (int)jlen, j);
	r->rc = appendlog_repair(&l, &err);
	g_clear_error(&err);
	g_file_get_contents(path, &text, &len, NULL);
	r->file = g_string_new_len(text, len);
	r->ids = g_ptr_array_new_with_free_func(g_free);
	mbox_split(text, len, collect_id, r->ids);
	g_free(text);
	g_free(l.stale);
	close(fd);
	g_unlink(path);
	g_string_free(buf, TRUE);
	g_array_free(ends, TRUE);
}

static void
run_clear(struct run *r)
{
	g_string_free(r->file, TRUE);
	g_ptr_array_free(r->ids, TRUE);
}

/* "old e0 e1 - other": the ids of @r, joined */
static char *
ids(struct run *r)
{
	g_ptr_array_add(r->ids, NULL);
	return g_strjoinv(" ", (char **)r->ids->pdata);
}

static const char old_mbox[] =
    "From a@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <old@x>\n\n"
    "An old message.\n\n";
#define OLD (sizeof(old_mbox) - 1)
static const char no_blank[] =
    "From a@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <old@x>\n\n"
    "no blank line after it";

int
main(void)
{
	struct run r;
	char *s;

	g_mime_init();
	/* 5 entries of about 3.1 KB after the old message: the write's
	 * blocks end at 4096, 8192, ... */
	run(old_mbox, 5, 8192 - OLD, "", -1, &r);
	s = ids(&r);
	tap_is_str(s, "old@x e0@x e1@x", "torn on a block boundary: cut back");
	tap_ok(g_str_has_suffix(r.file->str, "\n\n"), "... to a whole entry");
	g_free(s);
	run_clear(&r);

	run(old_mbox, 5, 8192 - OLD, OTHER, -1, &r);
	s = ids(&r);
	tap_is_str(s, "old@x e0@x e1@x - other@example.net",
		   "torn, then another program's mail: the torn entry blanked");
	tap_ok(g_str_has_suffix(r.file->str, "\n\n" OTHER),
	       "... the other mail kept byte for byte after a blank line");
	tap_is_int(r.file->len, 8192 + strlen(OTHER), "... and nothing moved");
	tap_ok(strstr(r.file->str, "From MAILER-DAEMON ") != NULL,
	       "... the blank one is a message of its own");
	g_free(s);
	run_clear(&r);

	run("", 5, 4096, OTHER, -1, &r);
	s = ids(&r);
	tap_is_str(s, "e0@x - other@example.net",
		   "a new mailbox torn, then other mail: the same");
	tap_ok(g_str_has_prefix(r.file->str, "From "),
	       "... and it still starts with a From_ line");
	g_free(s);
	run_clear(&r);

	/* an old end without its blank line: the separator goes first */
	entry_size = 6000;
	run(no_blank, 1, 4096 - strlen(no_blank), OTHER, -1, &r);
	entry_size = 3000;
	s = ids(&r);
	tap_is_str(s, "old@x - other@example.net",
		   "the first entry torn after an old end without a blank "
		   "line");
	tap_ok(strstr(r.file->str, "no blank line after it\n\nFrom MAILER") !=
		   NULL,
	       "... the blank one starts with the separator the append wrote");
	g_free(s);
	run_clear(&r);

	/* torn inside a block: what follows the last proved block is kept */
	run(old_mbox, 5, 6000, OTHER, -1, &r);
	s = ids(&r);
	tap_ok(g_str_has_suffix(r.file->str, OTHER),
	       "torn inside a block: the other mail's bytes are kept (%s)", s);
	tap_is_int(r.file->len, OLD + 6000 + strlen(OTHER),
		   "... and nothing moved");
	g_free(s);
	run_clear(&r);

	/* the torn part shorter than a From_ line: blank lines */
	{
		GArray *e = g_array_new(FALSE, FALSE, sizeof(gsize));
		GString *b = entries(2, 3000, 0, "", e);
		GString *pad = g_string_new(old_mbox);
		gsize e0 = g_array_index(e, gsize, 0);

		g_string_truncate(pad, OLD - 2);
		while (pad->len + 2 + e0 < 4096 - 20)
			g_string_append_c(pad, 'x');
		g_string_append(pad, "\n\n");
		run(pad->str, 2, 4096 - pad->len, OTHER, -1, &r);
		s = ids(&r);
		tap_is_str(s, "old@x e0@x other@example.net",
			   "a torn part of 20 bytes: blank lines in its place");
		tap_ok(g_str_has_suffix(r.file->str, "\n\n\n\n\n\n\n" OTHER),
		       "... before the other mail");
		g_free(s);
		run_clear(&r);
		g_string_free(pad, TRUE);
		g_string_free(b, TRUE);
		g_array_free(e, TRUE);
	}

	/* torn in the first block: nothing is proved, nothing changed */
	run(no_blank, 1, 2000, OTHER, -1, &r);
	tap_is_int(r.file->len, strlen(no_blank) + 2000 + strlen(OTHER),
		   "torn in the first block: nothing changed");
	tap_ok(g_str_has_prefix(r.file->str, no_blank) &&
		   g_str_has_suffix(r.file->str, OTHER),
	       "... the old mailbox and the other mail as they were");
	run_clear(&r);

	/* whole, then other mail: nothing to do */
	run(old_mbox, 5, G_MAXSIZE, OTHER, -1, &r);
	s = ids(&r);
	tap_is_str(s, "old@x e0@x e1@x e2@x e3@x e4@x other@example.net",
		   "a whole write that other mail follows: left alone");
	g_free(s);
	run_clear(&r);

	/* a journal cut short was never written: nothing was */
	run(old_mbox, 5, 8192 - OLD, "", 40, &r);
	tap_is_int(r.file->len, 8192, "a journal cut short: the file is left");
	run_clear(&r);

	/* cut since, below the old end: not ours to touch */
	run(old_mbox, 5, 0, "", -1, &r);
	tap_is_int(r.file->len, OLD, "nothing written: nothing to do");
	run_clear(&r);

	g_mime_shutdown();
	return tap_done();
}
