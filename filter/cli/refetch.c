/*
 * refetch.c - b4 mbox -r MBOX (--refetch): every message of an mbox file
 * fetched again from the sources (-m mailboxes, notmuch, the archive) as
 * they hold it, its original headers back, in the file's order; a message
 * no source knows is kept as it was, with a warning. The file is replaced
 * whole (writer_file(): a temporary name, then rename), under its mail
 * lock, and only when nobody changed it meanwhile; on any failure it is
 * left as it was. A maildir is refetched a file at a time (refetchmd.c).
 */
#include "cli/cmd.h"
#include "cli/refetch-int.h"
#include "cli/runopts.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "source/gather.h"
#include "thread/thread.h"
#include "write/deliver.h"
#include "write/lock.h"
#include "write/writer.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

static void
entry_clear(struct entry *e)
{
	g_free(e->raw);
	g_free(e->msgid);
	g_free(e->path);
}

void
refetch_unknown(const struct entry *e)
{
	g_autofree char *id = lore_term_safe(e->msgid, -1);

	lore_err("warning: <%s> is known to no source: kept as it was", id);
}

static void
add_entry(const char *msg, size_t len, void *data)
{
	struct refetch *r = data;
	struct message *m = message_parse(msg, len, NULL);
	struct entry e = {.raw = g_strndup(msg, len), .len = len};

	if (r->entries->len >= REFETCH_MAX_MESSAGES) {
		r->too_many = TRUE;
		g_free(e.raw);
		message_free(m);
		return;
	}
	if (m && m->msgid)
		e.msgid = g_strdup(m->msgid);
	message_free(m);
	g_array_append_val(r->entries, e);
}

/* The mbox file @path into @r; a lore_status, reported. */
static int
read_mbox(const char *path, struct refetch *r, struct stat *st)
{
	g_autofree char *p = lore_term_safe(path, -1);
	GError *err = NULL;
	GBytes *b;
	gsize n;
	const char *d;

	if (g_stat(path, st) < 0) {
		lore_err("cannot read '%s': %s", p, g_strerror(errno));
		return LORE_EUSAGE;
	}
	if (!S_ISREG(st->st_mode) || g_str_has_suffix(path, ".gz")) {
		lore_err("-r '%s': an mbox file or a maildir is refetched in "
			 "place, not a compressed file or anything else",
			 p);
		return LORE_EUSAGE;
	}
	if (!(b = mbox_slurp(path, REFETCH_MAX_BYTES, &err))) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	d = g_bytes_get_data(b, &n);
	mbox_split(d, n, add_entry, r);
	g_bytes_unref(b);
	return LORE_OK;
}

/*
 * The thread of every Message-ID of @r that no thread fetched so far
 * holds, from @g, into @all. A message no source knows is no failure; a
 * source that fails (the archive down) is: the status, reported.
 */
static int
fetch_all(struct gather *g, struct refetch *r, struct thread *all)
{
	guint i;

	for (i = 0; i < r->entries->len; i++) {
		const struct entry *e =
		    &g_array_index(r->entries, struct entry, i);
		struct thread *t = NULL;
		GError *err = NULL;
		int rc;

		if (!e->msgid || thread_get(all, e->msgid))
			continue;
		rc = gather_run(g, e->msgid, NULL, NULL, &t, &err);
		if (rc == LORE_OK) {
			thread_merge(all, t);
			thread_free(t);
		} else if (rc != LORE_ENOTFOUND) {
			lore_err_take(err);
			return rc;
		} else {
			g_clear_error(&err);
		}
	}
	return LORE_OK;
}

/* The new mbox: each message the sources' copy, else as it was. */
static GString *
build(struct refetch *r, struct thread *all, guint *got)
{
	GString *out = g_string_new(NULL);
	guint i;

	*got = 0;
	for (i = 0; i < r->entries->len; i++) {
		const struct entry *e =
		    &g_array_index(r->entries, struct entry, i);
		struct message *m = e->msgid ? thread_get(all, e->msgid) : NULL;

		if (m) {
			deliver_mboxrd_add(out, m);
			(*got)++;
			continue;
		}
		if (e->msgid)
			refetch_unknown(e);
		writer_mbox_add(out, e->raw, TRUE);
		if (!g_str_has_suffix(out->str, "\n"))
			g_string_append_c(out, '\n');
		g_string_append_c(out, '\n');
	}
	return out;
}

/*
 * @out in place of @path, under the mailbox's lock, when the file is
 * still the one read (@was): the same size and time. Its mode is kept.
 */
static int
replace(const char *path, const GString *out, const struct stat *was)
{
	g_autofree char *p = lore_term_safe(path, -1);
	struct lock l = {0};
	struct stat now;
	GError *err = NULL;
	guint secs;
	int rc;

	runopts_lock_timeout(&secs);
	if ((rc = lock_open(&l, path, secs, &err))) {
		lore_err_take(err);
		return rc;
	}
	if (fstat(l.fd, &now) < 0 || now.st_size != was->st_size ||
	    now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != was->st_mtim.tv_nsec ||
	    now.st_ino != was->st_ino) {
		lore_err("'%s' changed while it was refetched: left as it is, "
			 "run again",
			 p);
		lock_release(&l, FALSE);
		return LORE_ETEMP;
	}
	if (!writer_file(path, out, &err)) {
		lore_err_take(err);
		rc = LORE_EIO;
	} else if (g_chmod(path, was->st_mode & 07777) < 0) {
		lore_err("warning: cannot give '%s' its mode back: %s", p,
			 g_strerror(errno));
	}
	lock_release(&l, FALSE);
	return rc;
}

static int
refetch_check(struct cli *c)
{
	if ((c->args && c->args[0]) || c->outdir || c->maildir || c->append ||
	    c->stdin_pipe_sep || c->rethread || c->single_message) {
		lore_err("-r MBOX (--refetch) refetches the messages of MBOX "
			 "in place: no MSGID, -o, --maildir, --append, "
			 "--stdin-pipe-sep, --rethread or --single-message");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

static int
refetch_run(struct cli *c)
{
	struct refetch r = {g_array_new(FALSE, TRUE, sizeof(struct entry)),
			    FALSE};
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct thread *all = thread_new();
	struct config *cfg = NULL;
	GString *out = NULL;
	struct stat st;
	guint got = 0, same = 0, i;
	gboolean md = refetch_is_maildir(c->refetch);
	int rc = md ? refetch_read_maildir(c->refetch, &r)
		    : read_mbox(c->refetch, &r, &st);
	const char *first = NULL;

	if (!rc && r.too_many) {
		g_autofree char *p = lore_term_safe(c->refetch, -1);

		lore_err("'%s' holds more than %d messages: not refetched", p,
			 REFETCH_MAX_MESSAGES);
		rc = LORE_EUSAGE;
	}
	for (i = 0; !rc && !first && i < r.entries->len; i++)
		first = g_array_index(r.entries, struct entry, i).msgid;
	if (!rc && !first) {
		g_autofree char *p = lore_term_safe(c->refetch, -1);

		lore_err("'%s' holds no message with a Message-ID", p);
		rc = LORE_ENOTFOUND;
	}
	if (!rc) {
		cfg = config_load();
		rc = run_sources(c, cfg, first, &lo, &g);
	}
	if (!rc)
		rc = fetch_all(g, &r, all);
	for (i = 0; g && i < g->notes->len; i++)
		lore_info("NOTE: %s", (char *)g->notes->pdata[i]);
	if (!rc && md) {
		rc = refetch_replace_maildir(c->refetch, &r, all, &got, &same);
	} else if (!rc) {
		out = build(&r, all, &got);
		rc = replace(c->refetch, out, &st);
	}
	if (!rc) {
		g_autofree char *p = lore_term_safe(c->refetch, -1);
		g_autofree char *already =
		    same ? g_strdup_printf("; %u %s the sources' copy already",
					   same, same == 1 ? "was" : "were")
			 : NULL;

		lore_info("Refetched %u of the %u messages of '%s'%s",
			  got + same, r.entries->len, p,
			  already ? already : "");
	}
	if (out)
		g_string_free(out, TRUE);
	gather_free(g);
	lore_opts_clear(&lo);
	config_free(cfg);
	thread_free(all);
	for (i = 0; i < r.entries->len; i++)
		entry_clear(&g_array_index(r.entries, struct entry, i));
	g_array_free(r.entries, TRUE);
	return rc;
}

const struct cmd cmd_refetch = {"refetch", refetch_check, refetch_run};
