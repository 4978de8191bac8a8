/*
 * run.c - from the parsed command line to a finished job: the target
 * Message-ID (argument or piped message), the sources and their roles
 * handed to gather.h, the series chosen by choice.h (which answers
 * gather's "enough?"), then the am job, the thread job or the mail
 * filter's series work. The wiring main.c would otherwise hold; each
 * stage's options come from runopts.h. No stage decision is made here.
 */
#include "cli/after.h"
#include "write/amjob.h"
#include "cli/cli.h"
#include "cli/deps.h"
#include "core/config.h"
#include "source/lore.h"
#include "mail/mbox.h"
#include "source/mdindex.h"
#include "mail/message.h"
#include "core/msgid.h"
#include "series/choice.h"
#include "source/nm.h"
#include "write/passthrough.h"
#include "cli/pipesep.h"
#include "queue/queue.h"
#include "cli/runopts.h"
#include "cli/stitch.h"
#include "source/gather.h"
#include "thread/thread.h"
#include "trailers/trailer.h"
#include "write/threadout.h"
#include "core/util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* how long a busy notmuch database is retried before exit 75 */
#define NM_RETRY_MS 2000

static int
run_thread(struct thread *t, const struct cli *c, const char *target)
{
	struct threadout_opts o = {0};

	o.target = target;
	o.no_parent = c->no_parent;
	o.outdir = c->outdir;
	o.maildir = c->maildir;
	o.append = c->append;
	o.seen = c->seen;
	runopts_lock_timeout(&o.lock_timeout);
	return threadout_run(t, &o);
}

/*
 * The message a mail client piped in (@n bytes, not 0): the one the user
 * is looking at. NULL, reported, when it is no mail or has no id.
 */
static struct message *
piped_message(const char *p, size_t n)
{
	GError *err = NULL;
	struct message *m = message_parse(p, n, &err);

	if (!m) {
		lore_err("standard input: %s", err->message);
		g_error_free(err);
		return NULL;
	}
	if (!m->msgid) {
		lore_err(
		    "standard input: the message has no usable Message-ID");
		message_free(m);
		return NULL;
	}
	return m;
}

/* Read standard input; *@out stays NULL when it is empty. */
static int
read_stdin_message(struct message **out)
{
	GError *err = NULL;
	GBytes *b = mbox_slurp("-", LORE_MAX_MESSAGE, &err);
	gsize n;
	const char *p;

	*out = NULL;
	if (!b) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	p = g_bytes_get_data(b, &n);
	if (n)
		*out = piped_message(p, n);
	g_bytes_unref(b);
	return n && !*out ? LORE_EUSAGE : LORE_OK;
}

static int
add_sources(const struct cli *c, enum gather_mode mode, const char *target,
	    struct gather *s)
{
	guint i;

	if (c->stdin_mails)
		gather_add_local(s, source_mails_new(c->stdin_mails, "stdin"),
				 GATHER_REQUIRED);
	for (i = 0; c->mboxes && c->mboxes[i]; i++)
		gather_add_local(s, source_mbox_new(c->mboxes[i]),
				 GATHER_REQUIRED);
	switch (mode) {
	case GATHER_NOTMUCH:
		if (!nm_compiled_in()) {
			lore_err("-N: notmuch support is not compiled in "
				 "(built with NO_NOTMUCH=1)");
			return LORE_EUSAGE;
		}
		if (!target) {
			lore_err("-N needs a Message-ID: pipe the message in "
				 "or give it as an argument");
			return LORE_EUSAGE;
		}
		gather_add_local(s, source_notmuch_new(NM_RETRY_MS),
				 GATHER_REQUIRED);
		break;
	case GATHER_AUTO:
		gather_add_local(s, source_notmuch_new(NM_RETRY_MS),
				 GATHER_FALLBACK);
		break;
	case GATHER_MBOX:
		if (!c->mboxes) {
			lore_err("--source mbox needs -m PATH");
			return LORE_EUSAGE;
		}
		break;
	case GATHER_LORE:
		break;
	}
	return LORE_OK;
}

/*
 * The thread of @target from the sources, cut to its reply tree, gathered
 * until @need says it is enough (NULL, --thread: from every source).
 */
static int
gather(struct gather *g, const char *target, struct message *piped,
       const struct gather_need *need, struct thread **out)
{
	struct thread *t = NULL;
	GError *err = NULL;
	g_autofree char *said = NULL;
	guint i;
	int rc;

	rc = gather_run(g, target, piped, need, &t, &err);
	if (rc) {
		lore_err_take(err);
		return rc;
	}
	if (t->too_big)
		lore_err("warning: %u message(s) larger than %s skipped",
			 t->too_big, LORE_MAX_MESSAGE_TEXT);
	for (i = 0; i < g->notes->len; i++)
		lore_info("NOTE: %s", (char *)g->notes->pdata[i]);
	if (target && !thread_get(t, target)) {
		g_autofree char *id = lore_term_safe(target, -1);
		g_autofree char *names = NULL;
		GString *n = g_string_new(NULL);

		for (i = 0; i < g->asked->len; i++)
			g_string_append_printf(n, "%s%s", i ? ", " : "",
					       (char *)g->asked->pdata[i]);
		names = lore_term_safe(n->str, -1);
		g_string_free(n, TRUE);
		lore_err("message <%s> is not in %s", id, names);
		thread_free(t);
		return LORE_ENOTFOUND;
	}
	said = gather_summary(t);
	lore_info("%s", said);
	*out = t;
	return LORE_OK;
}

/*
 * --single-message: of the thread gathered, the target alone (b4's), no
 * reply and no other patch; a copy made of its bytes, as a source adds.
 */
static void
only_target(struct thread **t, const char *target)
{
	struct message *m = thread_get(*t, target);
	struct thread *one = thread_new();

	if (m)
		thread_add_raw(one, m->raw, m->len, m->origin);
	thread_free(*t);
	*t = one;
}

/* What the run asks of the series stage, from the command line. */
static struct choice *
new_choice(const struct cli *c, const struct lore_opts *lo)
{
	struct choice_opts o = {0};

	o.use_version = c->use_version;
	o.parent = c->parent;
	o.no_parent = c->no_parent;
	o.check_newer = c->check_newer;
	o.use_newer = c->use_newer;
	o.offline = lo->offline;
	o.no_reroll = c->no_partial_reroll;
	o.sends = trailer_reply_sends;
	return choice_new(&o);
}

/*
 * The gathering for this run: its settings and memory bound, the archive
 * when it is one of the sources (@lo filled in for it, and for -c), then
 * the local sources. *@out is the caller's even on failure.
 */
static int
new_gather(struct cli *c, struct config *cfg, const char *target,
	   struct lore_opts *lo, struct gather **out)
{
	gboolean archive, newer = c->check_newer || c->use_newer;
	enum gather_mode mode;
	struct gather *g;
	GError *err = NULL;
	int rc;

	rc = runopts_mode(c, cfg, &mode);
	if (!rc && c->thread && !target) {
		lore_err("--thread needs a message: pipe one in or give its "
			 "Message-ID");
		rc = LORE_EUSAGE;
	}
	if (rc)
		return rc;
	/* the archive completes what is local; mailboxes given alone are the
	 * whole story (no network), unless -L names an archive */
	archive = mode == GATHER_LORE ||
		  (mode == GATHER_AUTO &&
		   ((!c->mboxes && !c->stdin_mails) || c->lore));
	if ((archive || newer) && (rc = runopts_lore(lo, c, cfg)))
		return rc;
	g = *out = gather_new();
	/* the memory bound of the thread, from every source */
	if (!lore_max_size(cfg, &g->max_cost, &err)) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	g->no_parent = c->no_parent;
	/* offline, the archive source reads only its cache (lore.c) */
	g->complete = c->check_newer && archive;
	if (archive)
		gather_set_archive(g, source_lore_new(lo));
	return add_sources(c, mode, target, g);
}

/*
 * Gather the thread of @target from the sources and run the job asked for.
 * Takes @piped (the message read from stdin, or NULL).
 */
static int
work(struct cli *c, struct config *cfg, struct message *piped,
     const char *target, struct amjob_result *res, struct queue_seen *seen)
{
	struct amjob_opts o = {0};
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct choice *ch = NULL;
	struct thread *t = NULL;
	struct series_set *s = NULL;
	struct deps *deps = NULL;
	struct followups *f = NULL;
	gboolean newer = c->check_newer || c->use_newer;
	int rc;

	mdindex_setup(cfg, c->no_index);
	runopts_thread(cfg);
	rc = new_gather(c, cfg, target, &lo, &g);
	if (rc) {
		message_free(piped);
		goto out;
	}
	ch = new_choice(c, &lo);
	if (c->single_message && piped) {
		/* the message as piped, no source asked */
		t = thread_new();
		thread_add(t, piped, "stdin");
		lore_info("Sources: stdin 1 message (--single-message)");
	} else {
		rc = gather(g, target, piped, c->thread ? NULL : &ch->need, &t);
	}
	if (!rc && c->single_message)
		only_target(&t, target);
	if (!rc && c->rethread)
		rc = stitch_run(g, ch, t, target, c->rethread_ids);
	if (rc)
		goto out;
	if (c->thread) {
		rc = run_thread(t, c, target);
		goto out;
	}
	/* -c searches, and --use-newer fetches, through the archive */
	if (newer && !g->archive)
		gather_set_archive(g, source_lore_new(&lo));
	if ((rc = choice_make(ch, g, t, target, &s)))
		goto out;
	/* the queue's state of the series, before anything is written; the
	 * trailers stage run once, for the queue and the am job */
	if (queue_enabled(cfg))
		f = followup_collect(s, c->sloppy);
	queue_note(cfg, s, f, target, seen);
	runopts_am(&o, c, cfg);
	o.followups = f;
	o.target = target;
	o.result = res;
	rc = runopts_gate(&o, c, cfg);
	if (!rc)
		rc = attest_new(cfg, c->no_attestation, c->offline, &o.attest);
	if (!rc)
		rc = deps_run(g, s, &o, c, cfg, &deps);
	if (!rc)
		rc = after_am(s, &o, c, cfg);
	deps_free(deps);
	attest_free(o.attest);
	runopts_am_clear(&o);
out:
	/* the archive sources borrow @lo: free them first */
	gather_free(g);
	lore_opts_clear(&lo);
	choice_free(ch);
	followup_free(f);
	series_set_free(s);
	thread_free(t);
	return rc;
}

/*
 * The message the command line names: the argument (a Message-ID or
 * URL), else the mail piped in (*@piped, the caller's). *@target the
 * caller's (g_free), NULL with -m alone. A lore_status, reported.
 */
int
run_target(struct cli *c, struct message **piped, char **target)
{
	gboolean stdin_mbox = FALSE;
	guint i;
	int rc;

	*piped = NULL;
	*target = NULL;
	for (i = 0; c->mboxes && c->mboxes[i]; i++)
		if (!strcmp(c->mboxes[i], "-"))
			stdin_mbox = TRUE;
	/* b4's --rethread ID ID...: the first is the target */
	if (c->rethread && (rc = stitch_ids(c)))
		return rc;
	if (c->stdin_pipe_sep && (rc = pipesep_read(c, target)))
		return rc;
	if (c->args && c->args[0] && c->args[1]) {
		g_autofree char *s = lore_term_safe(c->args[1], -1);

		lore_err("expected at most one MSGID or URL, got '%s' too", s);
		return LORE_EUSAGE;
	}
	if (c->stdin_pipe_sep) {
		/* the target is pipesep_read()'s */
	} else if (c->args && c->args[0]) {
		*target = msgid_from_arg(c->args[0]);
		if (!*target) {
			g_autofree char *s = lore_term_safe(c->args[0], -1);

			lore_err("'%s' is not a Message-ID or archive URL", s);
			return LORE_EUSAGE;
		}
	} else if (stdin_mbox) {
		/* b4 am -m -: the mailbox on standard input is the thread,
		 * as -m MBOX alone (its latest series) */
	} else if (!c->no_stdin && (!c->mboxes || !isatty(STDIN_FILENO))) {
		rc = read_stdin_message(piped);
		if (rc)
			return rc;
		if (!*piped && !c->mboxes) {
			lore_err(
			    "no message on standard input and no MSGID given");
			return LORE_EUSAGE;
		}
		if (*piped)
			*target = g_strdup((*piped)->msgid);
	}
	return LORE_OK;
}

int
run_cli(struct cli *c)
{
	struct config *cfg;
	struct message *piped = NULL;
	g_autofree char *target = NULL;
	int rc;

	if ((rc = run_target(c, &piped, &target)))
		return rc;
	if ((rc = after_precheck(c))) {
		message_free(piped);
		return rc;
	}
	cfg = config_load();
	rc = work(c, cfg, piped, target, NULL, NULL);
	config_free(cfg);
	return rc;
}

int
run_sources(struct cli *c, struct config *cfg, const char *target,
	    struct lore_opts *lo, struct gather **g)
{
	mdindex_setup(cfg, c->no_index);
	runopts_thread(cfg);
	return new_gather(c, cfg, target, lo, g);
}

int
run_gather(struct gather *g, const char *target, struct message *piped,
	   const struct gather_need *need, struct thread **t)
{
	return gather(g, target, piped, need, t);
}

/* The series work of --passthrough, on the message kept in @pt. */
static int
passthrough_work(struct cli *c, struct config *cfg, struct passthrough *pt,
		 struct amjob_result *res, struct queue_seen *seen)
{
	const guint8 *p = pt->buf->data;
	struct message *msg;
	guint i;

	if (!pt->eof) {
		lore_err("the message is larger than %zu MiB: copied through "
			 "without the series work",
			 PASSTHROUGH_MAX >> 20);
		return LORE_EUSAGE;
	}
	if (!pt->buf->len) {
		lore_err("no message on standard input");
		return LORE_EUSAGE;
	}
	if (c->args && c->args[0]) {
		lore_err("--passthrough takes the message on standard input, "
			 "not a MSGID");
		return LORE_EUSAGE;
	}
	if (!c->outdir) {
		lore_err("--passthrough needs -o DIR: standard output carries "
			 "the mail");
		return LORE_EUSAGE;
	}
	for (i = 0; c->mboxes && c->mboxes[i]; i++) {
		if (!strcmp(c->mboxes[i], "-")) {
			lore_err("--passthrough reads the mail on standard "
				 "input: -m - cannot be used");
			return LORE_EUSAGE;
		}
	}
	msg = piped_message((const char *)p, pt->buf->len);
	if (!msg)
		return LORE_EUSAGE;
	{
		g_autofree char *target = g_strdup(msg->msgid);
		g_autofree char *about = lore_term_safe(target, -1);
		int rc;

		/* a filter's log holds many mails: each line names its own */
		lore_err_about = about;
		rc = work(c, cfg, msg, target, res, seen);
		lore_err_about = NULL;
		return rc;
	}
}

/*
 * --passthrough: the mail goes out as it came in, whatever happens to the
 * series work; the exit status is not 0 only when the mail itself could not
 * be copied, so that the delivery agent keeps its own copy. With @usage_rc
 * set the options were wrong: report nothing more, just copy.
 */
int
run_passthrough(struct cli *c, int usage_rc)
{
	struct passthrough pt;
	struct amjob_result res = {0};
	struct queue_seen seen = {0};
	struct config *cfg = NULL;
	g_autofree char *status = NULL;
	GError *err = NULL;
	gboolean header = FALSE;
	int rc = usage_rc, copy_rc = LORE_OK;

	/* a closed stdout must give an error we report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	if (!passthrough_read(&pt, STDIN_FILENO, PASSTHROUGH_MAX, &err))
		copy_rc = rc = lore_err_take(g_steal_pointer(&err));
	if (!usage_rc) {
		cfg = config_load();
		header = c->status_header ||
			 config_bool(config_get(cfg, "status-header", NULL));
		if (!rc)
			rc = passthrough_work(c, cfg, &pt, &res, &seen);
		if (header)
			status = passthrough_status(&res, rc, &seen);
	}
	if (!passthrough_write(&pt, STDOUT_FILENO, status, &err))
		copy_rc = lore_err_take(g_steal_pointer(&err));
	amjob_result_clear(&res);
	queue_seen_clear(&seen);
	passthrough_clear(&pt);
	config_free(cfg);
	return copy_rc;
}
