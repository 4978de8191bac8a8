/*
 * main.c - lore-am: turn one message of a patch thread into an mbox that
 * `git am` applies. Parses the command line, finds the Message-ID, asks the
 * sources for the thread and hands it to the am job. Only this file exits.
 */
#include "amjob.h"
#include "config.h"
#include "mbox.h"
#include "message.h"
#include "msgid.h"
#include "source.h"
#include "thread.h"
#include "util.h"

#include <gmime/gmime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LORE_VERSION
#define LORE_VERSION "0.1"
#endif

#define DEFAULT_LINK_TRAILER "Link: https://patch.msgid.link/%s"
#define DEFAULT_LINK_MASK "https://lore.kernel.org/r/%s"

struct cli {
	char **mboxes;
	int use_version;
	char *cherry_pick;
	gboolean cover_trailers;
	gboolean no_add_trailers;
	gboolean sloppy;
	gboolean add_my_sob;
	gboolean add_link;
	gboolean cc_trailers;
	char *outdir;
	gboolean mboxrd;
	gboolean quiet;
	gboolean version;
	gboolean allow_incomplete;
	gboolean no_parent;
	gboolean allow_unicode_control;
	char **args;
};

static GOptionEntry *
entries(struct cli *c)
{
	static GOptionEntry e[] = {
		{ "mbox", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
		  "Read the thread from this mbox file, maildir, or - (stdin); repeatable",
		  "PATH" },
		{ "use-version", 'v', 0, G_OPTION_ARG_INT, NULL,
		  "Use revision N of the series instead of the latest", "N" },
		{ "cherry-pick", 'P', 0, G_OPTION_ARG_STRING, NULL,
		  "Keep only these patches: 1-3,5,7- or _ (the given message)",
		  "SPEC" },
		{ "apply-cover-trailers", 't', 0, G_OPTION_ARG_NONE, NULL,
		  "Accepted for b4 compatibility: cover letter trailers always apply",
		  NULL },
		{ "no-add-trailers", 'T', 0, G_OPTION_ARG_NONE, NULL,
		  "Do not add follow-up trailers from replies", NULL },
		{ "sloppy-trailers", 'S', 0, G_OPTION_ARG_NONE, NULL,
		  "Accept trailers whose address does not match the sender", NULL },
		{ "add-my-sob", 's', 0, G_OPTION_ARG_NONE, NULL,
		  "Add your Signed-off-by (git config user.name/user.email)", NULL },
		{ "add-link", 'l', 0, G_OPTION_ARG_NONE, NULL,
		  "Add a Link: trailer to each patch", NULL },
		{ "cc-trailers", 0, 0, G_OPTION_ARG_NONE, NULL,
		  "Copy the patch's To/Cc addresses as Cc: trailers", NULL },
		{ "outdir", 'o', 0, G_OPTION_ARG_FILENAME, NULL,
		  "Write NAME.mbx and NAME.cover into DIR instead of stdout",
		  "DIR" },
		{ "mboxrd", 0, 0, G_OPTION_ARG_NONE, NULL,
		  "Write mboxrd (for git am --patch-format=mboxrd)", NULL },
		{ "allow-incomplete", 0, 0, G_OPTION_ARG_NONE, NULL,
		  "Write the patches that exist even when some are missing",
		  NULL },
		{ "no-parent", 0, 0, G_OPTION_ARG_NONE, NULL,
		  "Start the thread at the given message, not at its root",
		  NULL },
		{ "allow-unicode-control-chars", 0, 0, G_OPTION_ARG_NONE, NULL,
		  "Write patches holding Unicode bidi or zero-width controls",
		  NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, NULL,
		  "Print only errors on stderr", NULL },
		{ "version", 'V', 0, G_OPTION_ARG_NONE, NULL,
		  "Print the version and exit", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL,
		  NULL, "[MSGID|URL]" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	void *targets[] = {
		&c->mboxes,	 &c->use_version,      &c->cherry_pick,
		&c->cover_trailers, &c->no_add_trailers, &c->sloppy,
		&c->add_my_sob,	 &c->add_link,	       &c->cc_trailers,
		&c->outdir,	 &c->mboxrd,	       &c->allow_incomplete,
		&c->no_parent,	 &c->allow_unicode_control,
		&c->quiet,	 &c->version,	       &c->args,
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(targets); i++)
		e[i].arg_data = targets[i];
	return e;
}

static const char summary[] =
	"Reads a patch mail on stdin (or takes a Message-ID or archive URL),\n"
	"gathers its thread, and writes the latest revision of the series,\n"
	"with the reviewers' trailers added, as an mbox that git am applies.\n"
	"\n"
	"Exit status: 0 written; 1 no patches, incomplete series or unknown\n"
	"message; 2 usage or unreadable input; 74 output not written;\n"
	"75 source temporarily unavailable.";

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

	o->am.add_trailers = !c->no_add_trailers;
	o->am.add_my_sob = c->add_my_sob;
	o->am.add_link = c->add_link;
	o->am.cc_trailers = c->cc_trailers;
	v = config_get(cfg, "linktrailermask", "linktrailermask");
	if (v) {
		o->am.link_trailer = g_strdup(v);
	} else if ((v = config_get(cfg, "linkmask", NULL))) {
		o->am.link_trailer = g_strconcat("Link: ", v, NULL);
	} else {
		o->am.link_trailer = g_strdup(DEFAULT_LINK_TRAILER);
	}
	o->am.trailer_order =
		g_strdup(config_get(cfg, "trailer-order", "trailer-order"));
	o->am.ignore_from = split_list(
		config_get(cfg, "trailers-ignore-from", "trailers-ignore-from"));
	o->am.user_name = g_strdup(config_raw(cfg, "user.name"));
	o->am.user_email = g_strdup(config_raw(cfg, "user.email"));
	o->use_version = c->use_version;
	o->cherry_pick = c->cherry_pick;
	o->sloppy = c->sloppy;
	o->allow_incomplete = c->allow_incomplete;
	o->mboxrd = c->mboxrd;
	o->allow_unicode_control = c->allow_unicode_control;
	o->outdir = c->outdir;
	v = config_get(cfg, "summary-linkmask", "linkmask");
	o->link_mask = g_strdup(v ? v : DEFAULT_LINK_MASK);
}

static void
clear_opts(struct amjob_opts *o)
{
	g_free(o->am.link_trailer);
	g_free(o->am.trailer_order);
	g_ptr_array_free(o->am.ignore_from, TRUE);
	g_free(o->am.user_name);
	g_free(o->am.user_email);
	g_free(o->link_mask);
}

/* The message piped in by a mail client: the one the user is looking at. */
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
	if (n == 0) {
		g_bytes_unref(b);
		return LORE_OK;
	}
	*out = message_parse(p, n, &err);
	g_bytes_unref(b);
	if (!*out) {
		lore_err("standard input: %s", err->message);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	if (!(*out)->msgid) {
		lore_err("standard input: the message has no usable Message-ID");
		message_free(*out);
		*out = NULL;
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

static int
run(struct cli *c)
{
	struct amjob_opts o = { 0 };
	struct config *cfg;
	struct thread *t;
	struct message *piped = NULL;
	g_autofree char *target = NULL;
	gboolean stdin_mbox = FALSE;
	guint i;
	int rc;

	for (i = 0; c->mboxes && c->mboxes[i]; i++)
		if (!strcmp(c->mboxes[i], "-"))
			stdin_mbox = TRUE;
	if (c->args && c->args[0] && c->args[1]) {
		lore_err("expected at most one MSGID or URL, got '%s' too",
			 c->args[1]);
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
			lore_err("no message on standard input and no MSGID given");
			return LORE_EUSAGE;
		}
		if (piped)
			target = g_strdup(piped->msgid);
	}
	if (!c->mboxes) {
		lore_err("no thread source: give -m MBOX (fetching from an archive is not built yet)");
		message_free(piped);
		return LORE_EUSAGE;
	}
	t = thread_new();
	if (piped)
		thread_add(t, piped, "stdin");
	for (i = 0; c->mboxes[i]; i++) {
		struct source *src = source_mbox_new(c->mboxes[i]);
		GError *err = NULL;

		rc = source_fetch(src, target, t, &err);
		source_free(src);
		if (rc) {
			lore_err("%s", err->message);
			g_error_free(err);
			thread_free(t);
			return rc;
		}
	}
	if (t->too_big)
		lore_err("warning: %u message(s) larger than %s skipped",
			 t->too_big, LORE_MAX_MESSAGE_TEXT);
	if (target) {
		if (!thread_get(t, target)) {
			g_autofree char *s = lore_term_safe(target, -1);

			lore_err("message <%s> is not in the given mailboxes", s);
			thread_free(t);
			return LORE_ENOTFOUND;
		}
		thread_prune(t, target, c->no_parent);
	}
	cfg = config_load();
	fill_opts(&o, c, cfg);
	o.target = target;
	rc = amjob_run(t, &o);
	clear_opts(&o);
	config_free(cfg);
	thread_free(t);
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli c = { 0 };
	GOptionContext *ctx;
	GError *err = NULL;
	int rc;

	ctx = g_option_context_new("[MSGID|URL]");
	g_option_context_set_summary(ctx, summary);
	g_option_context_add_main_entries(ctx, entries(&c), NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		lore_err("%s (see lore-am --help)", err->message);
		g_error_free(err);
		g_option_context_free(ctx);
		return LORE_EUSAGE;
	}
	g_option_context_free(ctx);
	if (c.version) {
		printf("lore-am %s\n", LORE_VERSION);
		return 0;
	}
	if (c.use_version < 0) {
		lore_err("--use-version takes a positive number");
		return LORE_EUSAGE;
	}
	lore_quiet = c.quiet;
	/* past a file size limit, a write must fail (and be reported, the old
	 * file kept) rather than kill us with a temporary file left behind */
	signal(SIGXFSZ, SIG_IGN);
	g_mime_init();
	rc = run(&c);
	g_mime_shutdown();
	g_strfreev(c.mboxes);
	g_strfreev(c.args);
	g_free(c.cherry_pick);
	g_free(c.outdir);
	return rc;
}
