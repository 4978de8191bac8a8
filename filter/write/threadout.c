/*
 * threadout.c - the whole thread as mail to read: ordered by thread.c,
 * framed and stored by deliver.c or writer.c, never rewritten, so DKIM
 * and other signatures stay valid. The summary follows b4 mbox's ("N
 * messages in the thread") with what was new to the target added.
 */
#include "write/threadout.h"
#include "write/append.h"
#include "write/deliver.h"
#include "core/util.h"
#include "write/writer.h"

#include <string.h>

#define SLUG_MAX 200

char *
threadout_slug(const char *msgid)
{
	GString *s = g_string_new(NULL);
	gboolean gap = FALSE;
	const char *p;

	for (p = msgid; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char_validated(p, -1);

		if (c == (gunichar)-1 || c == (gunichar)-2)
			break;
		if (g_unichar_isalnum(c) ||
		    (c < 0x80 && c && strchr("_@.+%-", (int)c))) {
			if (gap && s->len)
				g_string_append_c(s, '_');
			gap = FALSE;
			g_string_append_unichar(s, c);
		} else {
			gap = TRUE;
		}
	}
	while (s->len && s->str[s->len - 1] == '_')
		g_string_truncate(s, s->len - 1);
	while (s->len && s->str[0] == '_')
		g_string_erase(s, 0, 1);
	if (s->len > SLUG_MAX) {
		const char *cut =
		    g_utf8_find_prev_char(s->str, s->str + SLUG_MAX + 1);

		g_string_truncate(s, cut ? (gsize)(cut - s->str) : SLUG_MAX);
	}
	if (!s->len)
		g_string_assign(s, "thread");
	return g_string_free(s, FALSE);
}

static void
report_thread(GPtrArray *msgs, const struct threadout_opts *o)
{
	g_autofree char *id = lore_term_safe(o->target, -1);

	/* main.c has said which source gave how many ("Sources: ...") */
	lore_info("%u message%s in the thread of <%s>", msgs->len,
		  msgs->len == 1 ? "" : "s", id);
	if (o->no_parent)
		lore_info("Starting at <%s>: its parents and their other "
			  "replies left out",
			  id);
	lore_info("---");
}

static void
report_new(const char *verb, const char *what, const char *path, guint added,
	   guint total)
{
	g_autofree char *p = lore_term_safe(path, -1);

	lore_info("%s %u new message%s %s '%s' (%u already there)", verb, added,
		  added == 1 ? "" : "s", what, p, total - added);
}

static int
write_mbox(GPtrArray *msgs, const struct threadout_opts *o, GError **err)
{
	GString *mbox = g_string_new(NULL);
	g_autofree char *slug = NULL, *path = NULL;
	gboolean ok;
	guint i;

	for (i = 0; i < msgs->len; i++)
		deliver_mboxrd_add(mbox, msgs->pdata[i]);
	if (o->outdir) {
		slug = threadout_slug(o->target);
		path = g_strdup_printf("%s/%s.mbx", o->outdir, slug);
		ok = writer_file(path, mbox, err);
	} else {
		ok = writer_stdout(mbox, err);
	}
	g_string_free(mbox, TRUE);
	if (!ok)
		return LORE_EIO;
	if (path) {
		g_autofree char *p = lore_term_safe(path, -1);

		lore_info("Saved %u message%s to %s", msgs->len,
			  msgs->len == 1 ? "" : "s", p);
	} else {
		lore_info("Wrote %u message%s to standard output", msgs->len,
			  msgs->len == 1 ? "" : "s");
	}
	return LORE_OK;
}

int
threadout_run(struct thread *t, const struct threadout_opts *o)
{
	GPtrArray *msgs = thread_ordered(t);
	GError *err = NULL;
	guint added = 0;
	int rc;

	report_thread(msgs, o);
	if (o->maildir) {
		rc = deliver_maildir(o->maildir, msgs, o->seen, &added, &err);
		if (!rc)
			report_new("Delivered", "to maildir", o->maildir, added,
				   msgs->len);
		else if (added)
			g_prefix_error(
			    &err, "%u new message%s delivered, then: ", added,
			    added == 1 ? "" : "s");
	} else if (o->append) {
		rc =
		    append_mbox(o->append, msgs, o->lock_timeout, &added, &err);
		if (!rc)
			report_new("Appended", "to", o->append, added,
				   msgs->len);
	} else {
		rc = write_mbox(msgs, o, &err);
	}
	if (rc)
		lore_err_take(err);
	g_ptr_array_free(msgs, TRUE);
	return rc;
}
