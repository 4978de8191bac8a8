/*
 * pipesep.c - standard input cut at a separator string into mails. The
 * separator is matched anywhere, as b4 splits the bytes, and every piece
 * is bounded by what standard input may hold (PIPESEP_MAX).
 */
#include "cli/pipesep.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/msgid.h"
#include "core/util.h"

#include <string.h>

/* Add [p, p + n) to @out when it holds more than white space, its
 * leading blank lines (what a separator ending in text leaves) left out. */
static void
add_piece(GPtrArray *out, const char *p, gsize n)
{
	gsize i = 0, start = 0;

	for (i = 0; i < n && g_ascii_isspace(p[i]); i++)
		if (p[i] == '\n')
			start = i + 1;
	if (i < n)
		g_ptr_array_add(out, g_bytes_new(p + start, n - start));
}

/* @all cut at @sep: a new array of GBytes. */
static GPtrArray *
split(GBytes *all, const char *sep)
{
	GPtrArray *out =
	    g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	gsize n, sl = strlen(sep);
	const char *p = g_bytes_get_data(all, &n), *end = p + n, *hit;

	while (p < end && (hit = memmem(p, end - p, sep, sl))) {
		add_piece(out, p, hit - p);
		p = hit + sl;
	}
	if (p < end)
		add_piece(out, p, end - p);
	return out;
}

/* The Message-ID of the first piece that has one (b4's target), or NULL. */
static char *
first_id(GPtrArray *mails)
{
	guint i;

	for (i = 0; i < mails->len; i++) {
		gsize n;
		const char *p = g_bytes_get_data(mails->pdata[i], &n);
		struct message *m = message_parse(p, n, NULL);
		char *id = m && m->msgid ? g_strdup(m->msgid) : NULL;

		message_free(m);
		if (id)
			return id;
	}
	return NULL;
}

/* b4 says "-m -" with it: that is this mailbox, not another */
static void
drop_stdin_mbox(struct cli *c)
{
	guint i, k = 0;

	for (i = 0; c->mboxes && c->mboxes[i]; i++) {
		if (strcmp(c->mboxes[i], "-"))
			c->mboxes[k++] = c->mboxes[i];
		else
			g_free(c->mboxes[i]);
	}
	if (c->mboxes)
		c->mboxes[k] = NULL;
	if (c->mboxes && !k) {
		g_free(c->mboxes);
		c->mboxes = NULL;
	}
}

int
pipesep_read(struct cli *c, char **target)
{
	g_autofree char *sep = g_strcompress(c->stdin_pipe_sep);
	GError *e = NULL;
	GBytes *all;

	*target = NULL;
	if (!*sep) {
		lore_err("--stdin-pipe-sep takes a separator that is not "
			 "empty");
		return LORE_EUSAGE;
	}
	if (c->args && c->args[0] && !(*target = msgid_from_arg(c->args[0]))) {
		g_autofree char *s = lore_term_safe(c->args[0], -1);

		lore_err("'%s' is not a Message-ID or archive URL", s);
		return LORE_EUSAGE;
	}
	if (!(all = mbox_slurp("-", PIPESEP_MAX, &e))) {
		lore_err_take(e);
		return LORE_EUSAGE;
	}
	c->stdin_mails = split(all, sep);
	g_bytes_unref(all);
	drop_stdin_mbox(c);
	if (!*target)
		*target = first_id(c->stdin_mails);
	if (!*target) {
		lore_err("standard input: no mail with a Message-ID between "
			 "the --stdin-pipe-sep separators");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}
