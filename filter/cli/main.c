/*
 * main.c - lore-am: turn one message of a patch thread into an mbox that
 * `git am` applies. Parses the command line and hands it to run.c, which
 * finds the Message-ID, asks the sources and runs the job. Only this file
 * exits.
 */
#include "cli/cli.h"
#include "source/lore.h"
#include "core/util.h"

#include <gmime/gmime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LORE_VERSION
#define LORE_VERSION "0.1"
#endif

static struct cli *parsed;

/* --apply takes an optional value: a callback is glib's only way */
static gboolean
apply_cb(const char *name, const char *value, gpointer data, GError **err)
{
	g_free(parsed->apply);
	parsed->apply = g_strdup(value ? value : "");
	return TRUE;
}

/* -v N, or with --range-diff OLD..NEW (b4 diff's -v): a string first */
static gboolean
version_cb(const char *name, const char *value, gpointer data, GError **err)
{
	g_autofree char *s = NULL;
	gint64 n;

	if (g_ascii_string_to_signed(value, 10, G_MININT, G_MAXINT, &n, NULL)) {
		parsed->use_version = (int)n;
		return TRUE;
	}
	if (strstr(value, "..")) {
		g_free(parsed->version_pair);
		parsed->version_pair = g_strdup(value);
		return TRUE;
	}
	s = lore_term_safe(value, -1);
	g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "%s takes a revision number (or OLD..NEW with "
		    "--range-diff), not '%s'",
		    name, s);
	return FALSE;
}

static gboolean
range_diff_cb(const char *name, const char *value, gpointer data, GError **err)
{
	g_free(parsed->range_diff);
	parsed->range_diff = g_strdup(value ? value : "");
	return TRUE;
}

static GOptionEntry *
entries(struct cli *c)
{
	static GOptionEntry e[] = {
	    {"mbox", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
	     "Read the thread from this mbox file, maildir, or - (stdin); "
	     "repeatable",
	     "PATH"},
	    {"notmuch", 'N', 0, G_OPTION_ARG_NONE, NULL,
	     "Read the thread from the notmuch database (--source notmuch)",
	     NULL},
	    {"source", 0, 0, G_OPTION_ARG_STRING, NULL,
	     "Where the thread comes from: auto (default: -m files, then "
	     "notmuch, each only when needed), notmuch, lore or mbox",
	     "SRC"},
	    {"lore", 'L', 0, G_OPTION_ARG_STRING, NULL,
	     "Fetch the thread from this public-inbox archive, %s for the "
	     "Message-ID (default: " LORE_DEFAULT_MASK ")",
	     "URL"},
	    {"fallback", 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL,
	     "A mirror archive tried when the one before is down or failing; "
	     "repeatable",
	     "URL"},
	    {"no-cache", 'C', 0, G_OPTION_ARG_NONE, NULL,
	     "Neither read nor write the cache of fetched threads", NULL},
	    {"offline", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Never use the network: the cache and -m mailboxes only", NULL},
	    {"check-newer-revisions", 'c', 0, G_OPTION_ARG_NONE, NULL,
	     "Ask the archive whether a newer revision of the series exists",
	     NULL},
	    {"use-newer", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Use the newer revision that -c finds (implies -c)", NULL},
	    {"use-version", 'v', 0, G_OPTION_ARG_CALLBACK, NULL,
	     "Use revision N of the series instead of the latest; with "
	     "--range-diff: compare OLD..NEW (or OLD NEW, or N with the "
	     "latest)",
	     "N"},
	    {"cherry-pick", 'P', 0, G_OPTION_ARG_STRING, NULL,
	     "Keep only these patches: 1-3,5,7-, _ (the given message) or "
	     "*glob* (subjects)",
	     "SPEC"},
	    {"apply-cover-trailers", 't', 0, G_OPTION_ARG_NONE, NULL,
	     "Accepted for b4 compatibility: cover letter trailers always "
	     "apply",
	     NULL},
	    {"no-add-trailers", 'T', 0, G_OPTION_ARG_NONE, NULL,
	     "Do not add follow-up trailers from replies", NULL},
	    {"sloppy-trailers", 'S', 0, G_OPTION_ARG_NONE, NULL,
	     "Accept trailers whose address does not match the sender", NULL},
	    {"add-my-sob", 's', 0, G_OPTION_ARG_NONE, NULL,
	     "Add your Signed-off-by (git config user.name/user.email)", NULL},
	    {"add-link", 'l', 0, G_OPTION_ARG_NONE, NULL,
	     "Add a Link: trailer to each patch", NULL},
	    {"cc-trailers", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Copy the patch's To/Cc addresses as Cc: trailers", NULL},
	    {"outdir", 'o', 0, G_OPTION_ARG_FILENAME, NULL,
	     "Write NAME.mbx and NAME.cover (with --thread: MSGID.mbx) into "
	     "DIR instead of stdout; - is stdout, as in b4",
	     "DIR"},
	    {"mbox-name", 'n', 0, G_OPTION_ARG_FILENAME, NULL,
	     "With -o DIR: name the files NAME.mbx and NAME.cover, not after "
	     "the series",
	     "NAME"},
	    {"no-cover", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "With -o DIR: do not write the cover letter", NULL},
	    {"save-as-maildir", 'M', 0, G_OPTION_ARG_NONE, NULL,
	     "b4's series as a maildir: not built yet (refused)", NULL},
	    {"quilt-ready", 'Q', 0, G_OPTION_ARG_NONE, NULL,
	     "b4's quilt-ready folder: not built yet (refused)", NULL},
	    {"mboxrd", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Write mboxrd (for git am --patch-format=mboxrd)", NULL},
	    {"allow-incomplete", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Write the patches that exist even when some are missing", NULL},
	    {"no-parent", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Start the thread at the given message, not at its root", NULL},
	    {"parent", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "A patch without i/N (or a Re: mail with a diff) inside another "
	     "series' thread: take the series it answers, not the patch "
	     "alone",
	     NULL},
	    {"thread", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Write the whole thread, every message as received, not the "
	     "series",
	     NULL},
	    {"maildir", 0, 0, G_OPTION_ARG_FILENAME, NULL,
	     "Deliver the whole thread into this maildir, skipping messages it "
	     "holds",
	     "DIR"},
	    {"append", 0, 0, G_OPTION_ARG_FILENAME, NULL,
	     "Append the whole thread to this mbox, under lock, skipping "
	     "messages it holds",
	     "MBOX"},
	    {"seen", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "With --maildir: flag the delivered messages as seen", NULL},
	    {"passthrough", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Mail filter: copy the message on stdin to stdout unchanged, "
	     "write the series into -o DIR, exit 0 even when that fails",
	     NULL},
	    {"status-header", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "With --passthrough, add an X-Lore-Am: header saying what was "
	     "found",
	     NULL},
	    {"allow-unicode-control-chars", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Write patches holding Unicode bidi or zero-width controls", NULL},
	    {"apply", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
	     NULL,
	     "Apply the series with git am to the current branch; =head: on "
	     "its base, as FETCH_HEAD; =merge: that, merged with the cover "
	     "letter as message; with -o DIR, also kept there",
	     "MODE"},
	    {"guess-base", 'g', 0, G_OPTION_ARG_NONE, NULL,
	     "Find the recent commit the series applies to when its "
	     "base-commit is absent",
	     NULL},
	    {"prep-3way", '3', 0, G_OPTION_ARG_NONE, NULL,
	     "Prepare the blobs git am -3 needs from the patches; with "
	     "--apply, use git am -3",
	     NULL},
	    {"range-diff", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
	     NULL,
	     "Show what changed between two revisions (default: the latest and "
	     "the one before; or -v OLD..NEW) with git range-diff",
	     "OLD..NEW"},
	    {"check", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Run the per-patch check command (checkpatch.pl in a kernel tree) "
	     "on each patch",
	     NULL},
	    {"no-index", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Read -m mailboxes whole, without their index (lore-am.index)",
	     NULL},
	    {"no-attestation", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Do not check the DKIM and patatt signatures of the patches",
	     NULL},
	    {"explain", 0, 0, G_OPTION_ARG_NONE, NULL,
	     "Say why this revision and these patches, and the option that "
	     "takes each other candidate",
	     NULL},
	    {"quiet", 'q', 0, G_OPTION_ARG_NONE, NULL,
	     "Print only errors on stderr", NULL},
	    {"version", 'V', 0, G_OPTION_ARG_NONE, NULL,
	     "Print the version and exit", NULL},
	    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, NULL, NULL,
	     NULL},
	    {NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	void *targets[] = {
	    &c->mboxes,
	    &c->notmuch,
	    &c->source,
	    &c->lore,
	    &c->fallbacks,
	    &c->no_cache,
	    &c->offline,
	    &c->check_newer,
	    &c->use_newer,
	    (void *)version_cb,
	    &c->cherry_pick,
	    &c->cover_trailers,
	    &c->no_add_trailers,
	    &c->sloppy,
	    &c->add_my_sob,
	    &c->add_link,
	    &c->cc_trailers,
	    &c->outdir,
	    &c->mbox_name,
	    &c->no_cover,
	    &c->save_maildir,
	    &c->quilt,
	    &c->mboxrd,
	    &c->allow_incomplete,
	    &c->no_parent,
	    &c->parent,
	    &c->thread,
	    &c->maildir,
	    &c->append,
	    &c->seen,
	    &c->passthrough,
	    &c->status_header,
	    &c->allow_unicode_control,
	    (void *)apply_cb,
	    &c->guess_base,
	    &c->prep_3way,
	    (void *)range_diff_cb,
	    &c->check,
	    &c->no_index,
	    &c->no_attestation,
	    &c->explain,
	    &c->quiet,
	    &c->version,
	    &c->args,
	};
	guint i;

	parsed = c;
	for (i = 0; i < G_N_ELEMENTS(targets); i++)
		e[i].arg_data = targets[i];
	return e;
}

static const char usage[] = "lore-am [OPTION...] [MSGID|URL]";

static const char summary[] =
    "Reads a patch mail on stdin (or takes a Message-ID or archive URL),\n"
    "gathers its thread, and writes the latest revision of the series,\n"
    "with the reviewers' trailers added, as an mbox that git am applies.\n"
    "With --thread (or --maildir, --append), writes the whole thread\n"
    "instead: every message, unchanged, in thread order.\n"
    "b4's word 'am' may come first: lore-am am -o - ID > series.mbx\n"
    "\n"
    "Exit status: 0 written; 1 no patches, incomplete series or unknown\n"
    "message; 2 usage or unreadable input; 74 output not written;\n"
    "75 source temporarily unavailable or mailbox locked. With\n"
    "--passthrough: 0 unless the mail itself could not be copied.\n"
    "\n"
    "Environment: LORE_AM_LOCK_TIMEOUT, seconds --append waits for the\n"
    "mailbox's locks (default 10).";

static gboolean
has_passthrough(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--passthrough"))
			return TRUE;
	return FALSE;
}

/*
 * What b4 users type: the subcommand word (`lore-am am ID`), -o - for
 * standard output, and b4's letters that lore-am does not do yet, refused
 * by name rather than taken for something else.
 */
static int
b4_habits(struct cli *c)
{
	if (c->args && c->args[0] &&
	    (!strcmp(c->args[0], "am") || !strcmp(c->args[0], "shazam"))) {
		char *word = c->args[0];

		if (!strcmp(word, "shazam")) {
			lore_err("shazam (apply the series with git am) is not "
				 "built yet: use lore-am -o - ID > series.mbx "
				 "&& git am series.mbx");
			return LORE_EUSAGE;
		}
		/* `am` is b4's subcommand, and lore-am only does that */
		memmove(c->args, c->args + 1,
			g_strv_length(c->args) * sizeof(*c->args));
		g_free(word);
	}
	if (c->save_maildir || c->quilt) {
		lore_err("%s is not built yet: lore-am writes an mbox (-o DIR "
			 "for files)",
			 c->save_maildir ? "-M (--save-as-maildir)"
					 : "-Q (--quilt-ready)");
		return LORE_EUSAGE;
	}
	if (c->outdir && !strcmp(c->outdir, "-")) {
		if (c->passthrough) {
			lore_err("--passthrough needs -o DIR, not -o -: "
				 "standard output carries the mail");
			return LORE_EUSAGE;
		}
		/* as in b4: the mbox goes to standard output (./- is a folder)
		 */
		g_clear_pointer(&c->outdir, g_free);
	}
	if (c->mbox_name && (!*c->mbox_name || strchr(c->mbox_name, '/') ||
			     c->mbox_name[0] == '.')) {
		g_autofree char *s = lore_term_safe(c->mbox_name, -1);

		lore_err("-n '%s': a file name, without '/' and not starting "
			 "with '.'",
			 s);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/*
 * Fold -v into --range-diff: b4 diff names the revisions with -v. -v N
 * ("use revision N") becomes, with --range-diff, N against the latest;
 * -v OLD NEW takes the next argument when it is a number (no Message-ID
 * is one), and -v OLD..NEW the pair as written; c->range_diff then holds
 * the pair and c->use_version is cleared. A pair without --range-diff, or
 * revisions given twice, is a usage error (reported).
 */
static int
take_versions(struct cli *c)
{
	char *spec = NULL;

	if (!c->range_diff) {
		g_autofree char *s = NULL;

		if (!c->version_pair)
			return LORE_OK;
		s = lore_term_safe(c->version_pair, -1);
		lore_err("-v %s: a pair of revisions goes with --range-diff",
			 s);
		return LORE_EUSAGE;
	}
	if (!c->version_pair && !c->use_version)
		return LORE_OK;
	if (*c->range_diff) {
		lore_err("give the revisions to compare once: "
			 "--range-diff=OLD..NEW or -v OLD..NEW");
		return LORE_EUSAGE;
	}
	if (c->version_pair) {
		spec = g_strdup(c->version_pair);
	} else if (c->args && c->args[0] && *c->args[0] &&
		   strspn(c->args[0], "0123456789") == strlen(c->args[0])) {
		spec = g_strdup_printf("%d..%s", c->use_version, c->args[0]);
		g_free(c->args[0]);
		memmove(c->args, c->args + 1,
			g_strv_length(c->args) * sizeof(*c->args));
	} else {
		spec = g_strdup_printf("%d..", c->use_version);
	}
	g_free(c->range_diff);
	c->range_diff = spec;
	/* the revisions are the pair's now, not one to write */
	c->use_version = 0;
	return LORE_OK;
}

/*
 * No MSGID and a terminal on stdin: nobody is piping a message in, so say
 * how to use lore-am instead of waiting for one.
 */
static int
check_terminal(const struct cli *c)
{
	if (c->passthrough || c->mboxes || (c->args && c->args[0]) ||
	    !isatty(STDIN_FILENO))
		return LORE_OK;
	lore_err("no MSGID given and no message piped in");
	fprintf(stderr, "usage: %s (lore-am --help for more)\n", usage);
	return LORE_EUSAGE;
}

/* Every string GOptionContext filled in, for a leak-free exit. */
static void
cli_clear(struct cli *c)
{
	g_strfreev(c->mboxes);
	g_strfreev(c->args);
	g_strfreev(c->fallbacks);
	g_free(c->lore);
	g_free(c->cherry_pick);
	g_free(c->outdir);
	g_free(c->mbox_name);
	g_free(c->source);
	g_free(c->maildir);
	g_free(c->append);
	g_free(c->apply);
	g_free(c->range_diff);
	g_free(c->version_pair);
	memset(c, 0, sizeof(*c));
}

/*
 * GLib ends the process when an allocation fails (g_malloc() and all that
 * is built on it, GMime included): a memory cap (ulimit -v) met by input
 * too big for it. Say so in one line and exit 2, as for any input refused,
 * rather than abort with a core; whatever was being written is in a
 * temporary file or behind a lock and journal, never half in place. Any
 * other fatal GLib error still aborts.
 */
static void
glib_fatal(const gchar *domain, GLogLevelFlags level, const gchar *message,
	   gpointer data)
{
	static const char head[] = "lore-am: out of memory (";
	static const char tail[] = ")\n";

	if (!message || !strstr(message, "failed to allocate")) {
		g_log_default_handler(domain, level, message, data);
		return;
	}
	if (write(STDERR_FILENO, head, strlen(head)) < 0 ||
	    write(STDERR_FILENO, message, strlen(message)) < 0 ||
	    write(STDERR_FILENO, tail, strlen(tail)) < 0) {
		/* nothing more can be said */
	}
	_exit(LORE_EUSAGE);
}

int
main(int argc, char **argv)
{
	struct cli c = {0};
	GOptionContext *ctx;
	GError *err = NULL;
	gboolean filter = has_passthrough(argc, argv);
	static char apply_bare[] = "--apply=", range_bare[] = "--range-diff=";
	int rc, i;

	g_log_set_handler(
	    "GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION,
	    glib_fatal, NULL);
	/* glib would take the word after a bare --apply for its value: the
	 * Message-ID in "--apply ID". "--apply=" keeps it an argument (and
	 * the same for --range-diff). */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--apply"))
			argv[i] = apply_bare;
		else if (!strcmp(argv[i], "--range-diff"))
			argv[i] = range_bare;
	ctx = g_option_context_new(usage + strlen("lore-am [OPTION...] "));
	g_option_context_set_summary(ctx, summary);
	g_option_context_add_main_entries(ctx, entries(&c), NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		lore_err("%s (see lore-am --help)", err->message);
		g_error_free(err);
		g_option_context_free(ctx);
		/* a mail filter with a typo in its options still delivers */
		rc = filter ? run_passthrough(&c, LORE_EUSAGE) : LORE_EUSAGE;
		cli_clear(&c);
		return rc;
	}
	g_option_context_free(ctx);
	if (c.version) {
		printf("lore-am %s\n", LORE_VERSION);
		cli_clear(&c);
		return 0;
	}
	if (c.use_version < 0) {
		lore_err("--use-version takes a positive number");
		rc = LORE_EUSAGE;
	} else if (c.parent && c.no_parent) {
		lore_err("--parent and --no-parent contradict each other");
		rc = LORE_EUSAGE;
	} else if (!(rc = b4_habits(&c)) && !(rc = take_versions(&c)) &&
		   !(rc = check_terminal(&c))) {
		rc = run_check_thread_opts(&c);
	}
	if (rc) {
		if (c.passthrough)
			rc = run_passthrough(&c, rc);
	} else {
		/* a filter's stderr goes to a log: only errors belong there */
		lore_quiet = c.quiet || c.passthrough;
		/* a file size limit must fail the write (EFBIG), not kill us
		 * halfway: the temporary file is then removed and reported */
		signal(SIGXFSZ, SIG_IGN);
		g_mime_init();
		rc = c.passthrough ? run_passthrough(&c, LORE_OK) : run_cli(&c);
		g_mime_shutdown();
	}
	cli_clear(&c);
	return rc;
}
