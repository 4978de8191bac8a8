/*
 * run.c - from the parsed command line to a finished job: the target
 * Message-ID (argument or piped message), the sources and their roles
 * handed to gather.h, then the am job, the thread job or the mail
 * filter's series work. The wiring main.c would otherwise hold.
 */
#include "after.h"
#include "amjob.h"
#include "cli.h"
#include "config.h"
#include "lore.h"
#include "mbox.h"
#include "message.h"
#include "msgid.h"
#include "newer.h"
#include "nm.h"
#include "passthrough.h"
#include "gather.h"
#include "thread.h"
#include "threadout.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_LINK_TRAILER "Link: https://patch.msgid.link/%s"
#define DEFAULT_LINK_MASK "https://lore.kernel.org/r/%s"
/* how long a busy notmuch database is retried before exit 75 */
#define NM_RETRY_MS 2000
/* how long --append waits for each lock of the mailbox */
#define DEFAULT_LOCK_TIMEOUT 10

static GPtrArray *
split_list(const char *v)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) parts = NULL;
	guint i;

	if (!v)
		return a;
	parts = g_strsplit_set(v, ",", -1);
	for (i = 0; parts[i]; i++) {
		char *name = NULL, *email = NULL;

		message_parse_addr(parts[i], &name, &email);
		if (*email)
			g_ptr_array_add(a, g_ascii_strdown(email, -1));
		g_free(name);
		g_free(email);
	}
	return a;
}

static void
fill_opts(struct amjob_opts *o, const struct cli *c, struct config *cfg)
{
	const char *v;

	o->trailers.add_trailers = !c->no_add_trailers;
	o->trailers.add_my_sob = c->add_my_sob;
	o->trailers.add_link = c->add_link;
	o->trailers.cc_trailers = c->cc_trailers;
	v = config_get(cfg, "linktrailermask", "linktrailermask");
	if (v) {
		o->trailers.link_trailer = g_strdup(v);
	} else if ((v = config_get(cfg, "linkmask", NULL))) {
		o->trailers.link_trailer = g_strconcat("Link: ", v, NULL);
	} else {
		o->trailers.link_trailer = g_strdup(DEFAULT_LINK_TRAILER);
	}
	o->trailers.trailer_order =
	    g_strdup(config_get(cfg, "trailer-order", "trailer-order"));
	o->trailers.ignore_from = split_list(
	    config_get(cfg, "trailers-ignore-from", "trailers-ignore-from"));
	o->trailers.user_name = g_strdup(config_raw(cfg, "user.name"));
	o->trailers.user_email = g_strdup(config_raw(cfg, "user.email"));
	o->use_version = c->use_version;
	o->cherry_pick = c->cherry_pick;
	o->sloppy = c->sloppy;
	o->allow_incomplete = c->allow_incomplete;
	o->mboxrd = c->mboxrd;
	o->outdir = c->outdir;
	o->mbox_name = c->mbox_name;
	o->no_cover = c->no_cover;
	o->arriving = c->passthrough;
	o->allow_unicode_control = c->allow_unicode_control;
	v = config_get(cfg, "summary-linkmask", "linkmask");
	o->link_mask = g_strdup(v ? v : DEFAULT_LINK_MASK);
}

static void
clear_opts(struct amjob_opts *o)
{
	g_free(o->trailers.link_trailer);
	g_free(o->trailers.trailer_order);
	g_ptr_array_free(o->trailers.ignore_from, TRUE);
	g_free(o->trailers.user_name);
	g_free(o->trailers.user_email);
	g_free(o->link_mask);
}

/* LORE_AM_LOCK_TIMEOUT, or the default; FALSE when it is not a number. */
static gboolean
lock_timeout(guint *secs)
{
	const char *v = g_getenv("LORE_AM_LOCK_TIMEOUT");
	guint64 n;

	*secs = DEFAULT_LOCK_TIMEOUT;
	if (!v || !*v)
		return TRUE;
	if (!g_ascii_string_to_unsigned(v, 10, 0, 3600, &n, NULL))
		return FALSE;
	*secs = (guint)n;
	return TRUE;
}

/*
 * --thread writes mail to read, not patches: options that shape the
 * series have no meaning there, and the output goes to one place only.
 */
int
run_check_thread_opts(struct cli *c)
{
	static const char *const series_only[] = {
	    "--use-version", "--cherry-pick", "--add-my-sob",
	    "--add-link",    "--cc-trailers",
	};
	gboolean set[] = {
	    c->use_version != 0, c->cherry_pick != NULL, c->add_my_sob,
	    c->add_link,	 c->cc_trailers,
	};
	guint i, secs, outs = !!c->outdir + !!c->maildir + !!c->append;

	if (c->maildir || c->append)
		c->thread = TRUE;
	if (c->seen && !c->maildir) {
		lore_err("--seen goes with --maildir");
		return LORE_EUSAGE;
	}
	if (!c->thread)
		return LORE_OK;
	for (i = 0; i < G_N_ELEMENTS(set); i++) {
		if (set[i]) {
			lore_err("%s shapes the patch series; it does not go "
				 "with --thread",
				 series_only[i]);
			return LORE_EUSAGE;
		}
	}
	if (outs > 1) {
		lore_err("give only one of -o, --maildir and --append");
		return LORE_EUSAGE;
	}
	if (c->append && !lock_timeout(&secs)) {
		g_autofree char *v =
		    lore_term_safe(g_getenv("LORE_AM_LOCK_TIMEOUT"), -1);

		lore_err("LORE_AM_LOCK_TIMEOUT is '%s', not a number of "
			 "seconds from 0 to 3600",
			 v);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

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
	lock_timeout(&o.lock_timeout);
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
		lore_err("%s", err->message);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	p = g_bytes_get_data(b, &n);
	if (n)
		*out = piped_message(p, n);
	g_bytes_unref(b);
	return n && !*out ? LORE_EUSAGE : LORE_OK;
}

/* The archive's settings: git config, then the command line. */
static int
setup_lore(struct lore_opts *lo, const struct cli *c, struct config *cfg)
{
	GError *err = NULL;
	guint i;

	if (!lore_opts_load(lo, cfg, &err) ||
	    (c->lore && !lore_opts_set_mask(lo, c->lore, &err))) {
		lore_err("%s", err->message);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	for (i = 0; c->fallbacks && c->fallbacks[i]; i++) {
		if (!lore_opts_add_mirror(lo, c->fallbacks[i], i, &err)) {
			lore_err("%s", err->message);
			g_error_free(err);
			return LORE_EUSAGE;
		}
	}
	lo->no_cache = c->no_cache;
	lo->offline = c->offline;
	lo->progress = !c->quiet && isatty(STDERR_FILENO);
	return LORE_OK;
}

/* --source, else git config lore-am.source, else auto; -N forces notmuch. */
static int
choose_mode(const struct cli *c, struct config *cfg, enum gather_mode *mode)
{
	const char *v = c->source ? c->source : config_get(cfg, "source", NULL);

	*mode = GATHER_AUTO;
	if (v && !gather_parse_mode(v, mode)) {
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("unknown source '%s' in %s: use auto, notmuch, lore "
			 "or mbox",
			 s, c->source ? "--source" : "lore-am.source");
		return LORE_EUSAGE;
	}
	if (c->notmuch) {
		if (c->source && *mode != GATHER_NOTMUCH) {
			g_autofree char *s = lore_term_safe(c->source, -1);

			lore_err("-N and --source %s contradict each other", s);
			return LORE_EUSAGE;
		}
		*mode = GATHER_NOTMUCH;
	}
	return LORE_OK;
}

static int
add_sources(const struct cli *c, enum gather_mode mode, const char *target,
	    struct gather *s)
{
	guint i;

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
 * The thread of @target from the sources, cut to its reply tree, and its
 * series outline (NULL with --thread).
 */
static int
gather(struct gather *g, const char *target, struct message *piped,
       struct thread **out, struct series_set **outline)
{
	struct thread *t = NULL;
	GError *err = NULL;
	g_autofree char *said = NULL;
	guint i;
	int rc;

	rc = gather_run(g, target, piped, &t, outline, &err);
	if (rc) {
		lore_err("%s", err->message);
		g_error_free(err);
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
		series_set_free(*outline);
		*outline = NULL;
		thread_free(t);
		return LORE_ENOTFOUND;
	}
	said = gather_summary(t);
	lore_info("%s", said);
	*out = t;
	return LORE_OK;
}

/* -c/--use-newer: the newer revision's thread joins @t, @s is made anew. */
static int
use_newer(const struct cli *c, struct gather *g, const struct lore_opts *lo,
	  struct thread *t, struct series_set **s)
{
	g_autofree char *id = NULL;
	GError *err = NULL;
	int rc;

	rc = newer_check(*s, lo, c->use_newer, &id);
	if (rc || !id)
		return rc;
	if (!g->archive)
		gather_set_archive(g, source_lore_new(lo));
	rc = gather_more(g, id, t, &err);
	if (rc) {
		lore_err("%s", err->message);
		g_error_free(err);
		return rc;
	}
	series_set_free(*s);
	*s = series_analyse(t);
	return LORE_OK;
}

/*
 * Gather the thread of @target from the sources and run the job asked for.
 * Takes @piped (the message read from stdin, or NULL).
 */
static int
work(struct cli *c, struct config *cfg, struct message *piped,
     const char *target, struct amjob_result *res)
{
	struct amjob_opts o = {0};
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct thread *t = NULL;
	struct series_set *s = NULL;
	enum gather_mode mode;
	gboolean archive, newer = c->check_newer || c->use_newer;
	int rc;

	rc = choose_mode(c, cfg, &mode);
	if (!rc && c->thread && !target) {
		lore_err("--thread needs a message: pipe one in or give its "
			 "Message-ID");
		rc = LORE_EUSAGE;
	}
	if (rc) {
		message_free(piped);
		return rc;
	}
	/* the archive completes what is local; mailboxes given alone are the
	 * whole story (no network), unless -L names an archive */
	archive = mode == GATHER_LORE ||
		  (mode == GATHER_AUTO && (!c->mboxes || c->lore));
	if (archive || newer) {
		rc = setup_lore(&lo, c, cfg);
		if (rc) {
			message_free(piped);
			goto out;
		}
	}
	g = gather_new();
	g->use_version = c->use_version;
	g->no_parent = c->no_parent;
	g->whole_thread = c->thread;
	/* offline, the archive source reads only its cache (lore.c) */
	g->complete = c->check_newer && archive;
	if (archive)
		gather_set_archive(g, source_lore_new(&lo));
	rc = add_sources(c, mode, target, g);
	if (rc) {
		message_free(piped);
		goto out;
	}
	rc = gather(g, target, piped, &t, &s);
	if (rc)
		goto out;
	if (c->thread) {
		rc = run_thread(t, c, target);
		goto out;
	}
	if (!c->parent && !c->no_parent && series_inner_patch(s, target)) {
		g_autofree char *id = lore_term_safe(target, -1);

		lore_info("NOTE: <%s> is a patch of its own inside another "
			  "series' thread: taken alone (--parent takes the "
			  "series it answers)",
			  id);
		thread_prune(t, target, TRUE);
		series_set_free(s);
		s = series_analyse(t);
	}
	if (newer && (rc = use_newer(c, g, &lo, t, &s)))
		goto out;
	fill_opts(&o, c, cfg);
	o.target = target;
	o.result = res;
	rc = attest_new(cfg, c->no_attestation, c->offline, &o.attest);
	if (!rc)
		rc = after_am(s, &o, c, cfg);
	attest_free(o.attest);
	clear_opts(&o);
out:
	/* the archive sources borrow @lo: free them first */
	gather_free(g);
	lore_opts_clear(&lo);
	series_set_free(s);
	thread_free(t);
	return rc;
}

int
run_cli(struct cli *c)
{
	struct config *cfg;
	struct message *piped = NULL;
	g_autofree char *target = NULL;
	gboolean stdin_mbox = FALSE;
	guint i;
	int rc;

	for (i = 0; c->mboxes && c->mboxes[i]; i++)
		if (!strcmp(c->mboxes[i], "-"))
			stdin_mbox = TRUE;
	if (c->args && c->args[0] && c->args[1]) {
		g_autofree char *s = lore_term_safe(c->args[1], -1);

		lore_err("expected at most one MSGID or URL, got '%s' too", s);
		return LORE_EUSAGE;
	}
	if (c->args && c->args[0]) {
		target = msgid_from_arg(c->args[0]);
		if (!target) {
			g_autofree char *s = lore_term_safe(c->args[0], -1);

			lore_err("'%s' is not a Message-ID or archive URL", s);
			return LORE_EUSAGE;
		}
	} else if (stdin_mbox) {
		lore_err("with -m -, give the Message-ID as an argument");
		return LORE_EUSAGE;
	} else if (!c->mboxes || !isatty(STDIN_FILENO)) {
		rc = read_stdin_message(&piped);
		if (rc)
			return rc;
		if (!piped && !c->mboxes) {
			lore_err(
			    "no message on standard input and no MSGID given");
			return LORE_EUSAGE;
		}
		if (piped)
			target = g_strdup(piped->msgid);
	}
	if ((rc = after_precheck(c))) {
		message_free(piped);
		return rc;
	}
	cfg = config_load();
	rc = work(c, cfg, piped, target, NULL);
	config_free(cfg);
	return rc;
}

/* The series work of --passthrough, on the message kept in @pt. */
static int
passthrough_work(struct cli *c, struct config *cfg, struct passthrough *pt,
		 struct amjob_result *res)
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
		rc = work(c, cfg, msg, target, res);
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
	struct config *cfg = NULL;
	g_autofree char *status = NULL;
	GError *err = NULL;
	gboolean header = FALSE;
	int rc = usage_rc, copy_rc = LORE_OK;

	/* a closed stdout must give an error we report, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	if (!passthrough_read(&pt, STDIN_FILENO, PASSTHROUGH_MAX, &err)) {
		lore_err("%s", err->message);
		copy_rc = err->code;
		rc = err->code;
		g_clear_error(&err);
	}
	if (!usage_rc) {
		cfg = config_load();
		header = c->status_header ||
			 config_bool(config_get(cfg, "status-header", NULL));
		if (!rc)
			rc = passthrough_work(c, cfg, &pt, &res);
		if (header)
			status = passthrough_status(&res, rc);
	}
	if (!passthrough_write(&pt, STDOUT_FILENO, status, &err)) {
		lore_err("%s", err->message);
		copy_rc = err->code;
		g_clear_error(&err);
	}
	amjob_result_clear(&res);
	passthrough_clear(&pt);
	config_free(cfg);
	return copy_rc;
}
