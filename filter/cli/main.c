/*
 * main.c - lore-am: turn one message of a patch thread into an mbox that
 * `git am` applies. The option table, and the dispatch to the command
 * the options (or b4's word) ask for: one file per command (cmd.h), the
 * am job the default. Only this file exits.
 */
#include "cli/cmd.h"
#include "source/lore.h"
#include "core/config.h"
#include "core/say.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef LORE_VERSION
#define LORE_VERSION "0.1"
#endif

/* what the table fills: main()'s, for the whole run */
static struct cli opts;

/* --apply takes an optional value: a callback is glib's only way */
static gboolean
apply_cb(const char *name, const char *value, gpointer data, GError **err)
{
	g_free(opts.apply);
	opts.apply = g_strdup(value ? value : "");
	return TRUE;
}

/* -v N, or with --range-diff OLD..NEW (b4 diff's -v): a string first */
static gboolean
version_cb(const char *name, const char *value, gpointer data, GError **err)
{
	g_autofree char *s = NULL;
	gint64 n;

	if (g_ascii_string_to_signed(value, 10, G_MININT, G_MAXINT, &n, NULL)) {
		opts.use_version = (int)n;
		return TRUE;
	}
	if (strstr(value, "..")) {
		g_free(opts.version_pair);
		opts.version_pair = g_strdup(value);
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
	g_free(opts.range_diff);
	opts.range_diff = g_strdup(value ? value : "");
	return TRUE;
}

/* -c NAME=VALUE (b4's --config): this run's setting, above git config */
static gboolean
config_cb(const char *name, const char *value, gpointer data, GError **err)
{
	return config_override(value, err);
}

static GOptionEntry entries[] = {
    {"mbox", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &opts.mboxes,
     "Read the thread from this mbox file, maildir, or - (stdin); "
     "repeatable",
     "PATH"},
    {"use-local-mbox", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME_ARRAY,
     &opts.mboxes, "b4's name for -m", "PATH"},
    {"stdin-pipe-sep", 0, 0, G_OPTION_ARG_STRING, &opts.stdin_pipe_sep,
     "Several mails on stdin with SEP between them (\\n and the like "
     "decoded), as the mailbox the thread comes from (b4's)",
     "SEP"},
    {"notmuch", 'N', 0, G_OPTION_ARG_NONE, &opts.notmuch,
     "Read the thread from the notmuch database (--source notmuch)", NULL},
    {"source", 0, 0, G_OPTION_ARG_STRING, &opts.source,
     "Where the thread comes from: auto (default: -m files, then "
     "notmuch, each only when needed), notmuch, lore or mbox",
     "SRC"},
    {"lore", 'L', 0, G_OPTION_ARG_STRING, &opts.lore,
     "Fetch the thread from this public-inbox archive, %s for the "
     "Message-ID (default: " LORE_DEFAULT_MASK ")",
     "URL"},
    {"fallback", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.fallbacks,
     "A mirror archive tried when the one before is down or failing; "
     "repeatable",
     "URL"},
    {"no-cache", 'C', 0, G_OPTION_ARG_NONE, &opts.no_cache,
     "Neither read nor write the cache of fetched threads", NULL},
    {"offline", 0, 0, G_OPTION_ARG_NONE, &opts.offline,
     "Never use the network: the cache and -m mailboxes only", NULL},
    {"offline-mode", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opts.offline,
     "b4's name for --offline", NULL},
    {"check-newer-revisions", 'c', 0, G_OPTION_ARG_NONE, &opts.check_newer,
     "Ask the archive whether a newer revision of the series exists", NULL},
    {"use-newer", 0, 0, G_OPTION_ARG_NONE, &opts.use_newer,
     "Use the newer revision that -c finds (implies -c)", NULL},
    {"use-version", 'v', 0, G_OPTION_ARG_CALLBACK, (void *)version_cb,
     "Use revision N of the series instead of the latest; with "
     "--range-diff: compare OLD..NEW (or OLD NEW, or N with the "
     "latest)",
     "N"},
    {"cherry-pick", 'P', 0, G_OPTION_ARG_STRING, &opts.cherry_pick,
     "Keep only these patches: 1-3,5,7-, _ (the given message) or "
     "*glob* (subjects)",
     "SPEC"},
    {"apply-cover-trailers", 't', 0, G_OPTION_ARG_NONE, &opts.cover_trailers,
     "Accepted for b4 compatibility: cover letter trailers always "
     "apply",
     NULL},
    {"no-add-trailers", 'T', 0, G_OPTION_ARG_NONE, &opts.no_add_trailers,
     "Do not add follow-up trailers from replies", NULL},
    {"sloppy-trailers", 'S', 0, G_OPTION_ARG_NONE, &opts.sloppy,
     "Accept trailers whose address does not match the sender", NULL},
    {"add-my-sob", 's', 0, G_OPTION_ARG_NONE, &opts.add_my_sob,
     "Add your Signed-off-by (git config user.name/user.email)", NULL},
    {"add-link", 'l', 0, G_OPTION_ARG_NONE, &opts.add_link,
     "Add a Link: trailer to each patch", NULL},
    {"add-message-id", 'i', 0, G_OPTION_ARG_NONE, &opts.add_message_id,
     "Add a Message-ID: trailer to each patch (not with -l)", NULL},
    {"cc-trailers", 0, 0, G_OPTION_ARG_NONE, &opts.cc_trailers,
     "Copy the patch's To/Cc addresses as Cc: trailers", NULL},
    {"outdir", 'o', 0, G_OPTION_ARG_FILENAME, &opts.outdir,
     "Write NAME.mbx and NAME.cover (with --thread: MSGID.mbx) into "
     "DIR instead of stdout; - is stdout, as in b4",
     "DIR"},
    {"mbox-name", 'n', 0, G_OPTION_ARG_FILENAME, &opts.mbox_name,
     "With -o DIR: name the files NAME.mbx and NAME.cover, not after "
     "the series",
     "NAME"},
    {"no-cover", 0, 0, G_OPTION_ARG_NONE, &opts.no_cover,
     "With -o DIR: do not write the cover letter", NULL},
    {"save-as-maildir", 'M', 0, G_OPTION_ARG_NONE, &opts.save_maildir,
     "Write the series as a maildir, DIR/NAME.maildir (-o DIR, default: "
     "the current folder)",
     NULL},
    {"quilt-ready", 'Q', 0, G_OPTION_ARG_NONE, &opts.quilt,
     "Also write the patches for quilt into DIR/NAME.patches, with a "
     "series file",
     NULL},
    {"mboxrd", 0, 0, G_OPTION_ARG_NONE, &opts.mboxrd,
     "Write mboxrd (for git am --patch-format=mboxrd)", NULL},
    {"allow-incomplete", 0, 0, G_OPTION_ARG_NONE, &opts.allow_incomplete,
     "Write the patches that exist even when some are missing", NULL},
    {"no-parent", 0, 0, G_OPTION_ARG_NONE, &opts.no_parent,
     "Start the thread at the given message, not at its root", NULL},
    {"single-message", 0, 0, G_OPTION_ARG_NONE, &opts.single_message,
     "Only the message given or piped, not its thread (b4's): no reply's "
     "trailers, the series' other patches named but not needed",
     NULL},
    {"no-partial-reroll", 0, 0, G_OPTION_ARG_NONE, &opts.no_partial_reroll,
     "A revision that re-sends only some patches is not completed from "
     "the one before (b4's): incomplete, its missing patches named",
     NULL},
    {"parent", 0, 0, G_OPTION_ARG_NONE, &opts.parent,
     "A patch without i/N (or a Re: mail with a diff) inside another "
     "series' thread: take the series it answers, not the patch "
     "alone",
     NULL},
    {"rethread", 0, 0, G_OPTION_ARG_NONE, &opts.rethread,
     "A series sent unthreaded: find its other [PATCH i/N] mails (one "
     "sender, within an hour) in the -m mailboxes, notmuch and the "
     "archive's search, or take the MSGIDs given (b4's form; - reads them "
     "from stdin), and make it one thread",
     NULL},
    {"thread", 0, 0, G_OPTION_ARG_NONE, &opts.thread,
     "Write the whole thread, every message as received, not the "
     "series",
     NULL},
    {"maildir", 0, 0, G_OPTION_ARG_FILENAME, &opts.maildir,
     "Deliver the whole thread into this maildir, skipping messages it "
     "holds",
     "DIR"},
    {"append", 0, 0, G_OPTION_ARG_FILENAME, &opts.append,
     "Append the whole thread to this mbox, under lock, skipping "
     "messages it holds",
     "MBOX"},
    {"seen", 0, 0, G_OPTION_ARG_NONE, &opts.seen,
     "With --maildir: flag the delivered messages as seen", NULL},
    {"passthrough", 0, 0, G_OPTION_ARG_NONE, &opts.passthrough,
     "Mail filter: copy the message on stdin to stdout unchanged, "
     "write the series into -o DIR, exit 0 even when that fails",
     NULL},
    {"status-header", 0, 0, G_OPTION_ARG_NONE, &opts.status_header,
     "With --passthrough, add an X-Lore-Am: header saying what was "
     "found",
     NULL},
    {"allow-unicode-control-chars", 0, 0, G_OPTION_ARG_NONE,
     &opts.allow_unicode_control,
     "Write patches holding Unicode bidi or zero-width controls", NULL},
    {"apply", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
     (void *)apply_cb,
     "Apply the series with git am to the current branch; =head: on "
     "its base, as FETCH_HEAD; =merge: that, merged with the cover "
     "letter as message; with -o DIR, also kept there",
     "MODE"},
    {"guess-base", 'g', 0, G_OPTION_ARG_NONE, &opts.guess_base,
     "Find the recent commit the series applies to when its "
     "base-commit is absent",
     NULL},
    {"guess-lookback", 0, 0, G_OPTION_ARG_STRING, &opts.lookback_arg,
     "With -g: look this many days back (default: lore-am.guess-lookback, "
     "else 14)",
     "DAYS"},
    {"guess-branch", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &opts.guess_branch,
     "-g on this branch only (b4's; implies -g); repeatable", "BRANCH"},
    {"merge-base", 0, 0, G_OPTION_ARG_STRING, &opts.merge_base,
     "With --apply=head or =merge: apply on this commit, not the series' "
     "base",
     "COMMIT"},
    {"prep-3way", '3', 0, G_OPTION_ARG_NONE, &opts.prep_3way,
     "Prepare the blobs git am -3 needs from the patches; with "
     "--apply, use git am -3",
     NULL},
    {"range-diff", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
     (void *)range_diff_cb,
     "Show what changed between two revisions (default: the latest and "
     "the one before; or -v OLD..NEW) with git range-diff",
     "OLD..NEW"},
    {"range-diff-opts", 0, 0, G_OPTION_ARG_STRING, &opts.range_diff_opts,
     "With --range-diff: options for git range-diff (b4 diff's), only "
     "those that change what is shown",
     "OPTS"},
    {"compare-am-mbox", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME_ARRAY,
     &opts.compare_mboxes, "b4 diff -m MBX1 MBX2, as b4words.c gives it",
     "MBX"},
    {"check", 'k', 0, G_OPTION_ARG_NONE, &opts.check,
     "Run the per-patch check command (checkpatch.pl in a kernel tree) "
     "on each patch",
     NULL},
    {"no-index", 0, 0, G_OPTION_ARG_NONE, &opts.no_index,
     "Read -m mailboxes whole, without their index (lore-am.index)", NULL},
    {"no-attestation", 0, 0, G_OPTION_ARG_NONE, &opts.no_attestation,
     "Do not check the DKIM and patatt signatures of the patches", NULL},
    {"no-deps", 0, 0, G_OPTION_ARG_NONE, &opts.no_deps,
     "Leave the series' prerequisites (prerequisite-*:, Based-on:, "
     "Depends-on:) alone: neither found nor applied",
     NULL},
    {"with-deps", 0, 0, G_OPTION_ARG_NONE, &opts.with_deps,
     "Write one mbox: the prerequisites the tree lacks first, then the "
     "series",
     NULL},
    {"explain", 0, 0, G_OPTION_ARG_NONE, &opts.explain,
     "Say why this revision and these patches, and the option that "
     "takes each other candidate",
     NULL},
    {"pr", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opts.pr,
     "The word pr: the mail is a pull request", NULL},
    {"explode", 'e', 0, G_OPTION_ARG_NONE, &opts.explode,
     "With pr: write the pulled commits as an am-ready series, the pull "
     "request its cover letter (b4 pr -e)",
     NULL},
    {"dig", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opts.dig,
     "The word dig: find the series a commit was applied from", NULL},
    {"commitish", 0, 0, G_OPTION_ARG_STRING, &opts.dig_commit,
     "dig: the commit to dig for, instead of the argument (-c)", "COMMIT"},
    {"all-series", 0, 0, G_OPTION_ARG_NONE, &opts.dig_all,
     "dig: list every revision of the series, not the best match (-a)", NULL},
    {"who", 0, 0, G_OPTION_ARG_NONE, &opts.dig_who,
     "dig: the people the patch was sent to (-w)", NULL},
    {"save-mbox", 0, 0, G_OPTION_ARG_FILENAME, &opts.dig_mbox,
     "dig: save the matched patch's thread as an mboxrd FILE (-m)", "FILE"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &opts.format,
     "The summary as text (the default) or as json: one JSON document, "
     "the last line of stderr",
     "FORMAT"},
    {"stable", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.stable,
     "Say whether the series applies to each stable BRANCH clean, with "
     "-3, or not (default: lore-am.stable-branches)",
     "BRANCH"},
    {"ty", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opts.ty,
     "b4's word ty: thank for applied series and merged pulls", NULL},
    {"list", 0, 0, G_OPTION_ARG_NONE, &opts.ty_list,
     "ty: list the tracked series, and how much of each is applied (-l)", NULL},
    {"thank-for", 0, 0, G_OPTION_ARG_STRING, &opts.ty_thank,
     "ty: thank for these series of the list: 1,3-5,7- or all (-t)", "N"},
    {"discard", 0, 0, G_OPTION_ARG_STRING, &opts.ty_discard,
     "ty: stop tracking these series of the list (-d)", "N"},
    {"auto", 0, 0, G_OPTION_ARG_NONE, &opts.ty_auto,
     "ty: thank for every series the branch holds (-a)", NULL},
    {"branch", 0, 0, G_OPTION_ARG_STRING, &opts.ty_branch,
     "ty: look in this branch, not the current one (-b)", "BRANCH"},
    {"since", 0, 0, G_OPTION_ARG_STRING, &opts.ty_since,
     "ty -a: your commits since this date (git log --since; default "
     "1.week)",
     "WHEN"},
    {"send", 0, 0, G_OPTION_ARG_NONE, &opts.ty_send,
     "ty: send the thanks now with git send-email (-S)", NULL},
    {"send-email", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opts.ty_send,
     "b4's name for --send", NULL},
    {"dry-run", 0, 0, G_OPTION_ARG_NONE, &opts.dry_run,
     "ty: print the thanks on stdout (an mbox), change nothing", NULL},
    {"gitdir", 0, 0, G_OPTION_ARG_FILENAME, &opts.ty_gitdir,
     "ty, --range-diff: the repository in this folder, not the current "
     "one (-g)",
     "DIR"},
    {"no-diff", 0, 0, G_OPTION_ARG_NONE, &opts.diff_no_diff,
     "With --range-diff: build both revisions and print the git "
     "range-diff command that compares them, not its output (diff -n)",
     NULL},
    {"output-diff", 0, 0, G_OPTION_ARG_FILENAME, &opts.diff_output,
     "With --range-diff: write the comparison into FILE, replaced "
     "whole, not on stdout (diff -o)",
     "FILE"},
    {"color", 0, 0, G_OPTION_ARG_NONE, &opts.diff_color,
     "With --range-diff: colored, even into a file or a pipe (diff -c)", NULL},
    {"refetch", 0, 0, G_OPTION_ARG_FILENAME, &opts.refetch,
     "Fetch every message of this mbox file or maildir again from the "
     "sources, as sent, and put them in place of the old (b4 mbox -r)",
     "MBOX"},
    {"pw-set-state", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING,
     &opts.ty_pw_state, "b4 ty's patchwork state: not built (refused)",
     "STATE"},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opts.quiet,
     "Print only errors on stderr", NULL},
    {"debug", 'd', 0, G_OPTION_ARG_NONE, &opts.debug,
     "Say on stderr what the run does: each source asked and what it "
     "gave, why this revision (--explain)",
     NULL},
    {"no-stdin", 0, 0, G_OPTION_ARG_NONE, &opts.no_stdin,
     "Never read standard input, even when it is no terminal: the MSGID "
     "or URL comes from the command line",
     NULL},
    {"config", 0, 0, G_OPTION_ARG_CALLBACK, (void *)config_cb,
     "Set git config NAME (lore-am.*, b4.*, lore.* or user.*) to VALUE "
     "for this run, above the config files (-c NAME=VALUE, as b4's); "
     "repeatable",
     "NAME=VALUE"},
    {"version", 'V', 0, G_OPTION_ARG_NONE, &opts.version,
     "Print the version and exit", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.args, NULL,
     NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

static const char summary[] =
    "Reads a patch mail on stdin (or takes a Message-ID or archive URL),\n"
    "gathers its thread, and writes the latest revision of the series,\n"
    "with the reviewers' trailers added, as an mbox that git am applies.\n"
    "With --thread (or --maildir, --append), writes the whole thread\n"
    "instead: every message, unchanged, in thread order.\n"
    "b4's word 'am' may come first: lore-am am -o - ID > series.mbx\n"
    "lore-am pr [-e] [MSGID]: fetch the pull request mail's branch\n"
    "into FETCH_HEAD and check it (-e: write its commits as a series).\n"
    "lore-am dig [-a] [-w] [-m FILE] [-C] COMMIT (or -c COMMIT): find\n"
    "the series COMMIT was applied from.\n"
    "lore-am queue: the series seen and their state (lore-am queue "
    "--help).\n"
    "\n"
    "Exit status: 0 written; 1 no patches, incomplete series or unknown\n"
    "message; 2 usage or unreadable input; 4 a pull request's fetched\n"
    "tip is not the one its mail names; 74 output not written;\n"
    "75 source temporarily unavailable or mailbox locked; 127 GMime\n"
    "cannot be loaded. With --passthrough: 0 unless the mail itself\n"
    "could not be copied.\n"
    "\n"
    "Environment: LORE_AM_LOCK_TIMEOUT, seconds --append waits for the\n"
    "mailbox's locks (default 10).";

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

/*
 * GMime, loaded when a run first needs it (mail/gmimelib.h), cannot be:
 * one line, and the status the dynamic loader gave when it was linked
 * and missing, 127. As for memory that ran out, nothing half-written is
 * in place.
 */
static void
gmime_missing(const char *why)
{
	lore_err("%s", why);
	_exit(LORE_ENOLIB);
}

/* parse()'s "nothing more to do": --help was answered */
#define PARSE_DONE (-1)

static gboolean
help_asked(char **args)
{
	int i;

	for (i = 1; args[i] && strcmp(args[i], "--"); i++)
		if (!strcmp(args[i], "--help") || !strcmp(args[i], "-h") ||
		    !strcmp(args[i], "-?") || !strcmp(args[i], "--help-all"))
			return TRUE;
	return FALSE;
}

/*
 * glib's --help, with its "[OPTION\u2026]" written "[OPTION...]": glib
 * converts it to the locale's charset, which in the C locale (a mail
 * filter's, a cron job's) has no ellipsis and shows "[OPTION?]".
 */
static void
help(GOptionContext *ctx)
{
	g_autofree char *h = g_option_context_get_help(ctx, TRUE, NULL);
	g_auto(GStrv) parts = g_strsplit(h, "\u2026", -1);
	g_autofree char *text = g_strjoinv("...", parts);

	fputs(text, stdout);
}

/*
 * The options into opts, b4's words and letters first made lore-am's
 * (b4words.c); a usage error is reported. glib would take the word after
 * a bare --apply for its value (the Message-ID in "--apply ID"):
 * "--apply=" keeps it an argument, and the same for --range-diff.
 */
static int
parse(int argc, char **argv)
{
	GOptionContext *ctx;
	GError *err = NULL;
	char **args = NULL;
	int i, rc;

	rc = cmd_b4_argv(entries, argc, argv, &args);
	for (i = 1; !rc && args[i] && strcmp(args[i], "--"); i++) {
		if (!strcmp(args[i], "--apply") ||
		    !strcmp(args[i], "--range-diff")) {
			char *bare = g_strconcat(args[i], "=", NULL);

			g_free(args[i]);
			args[i] = bare;
		}
	}
	ctx = g_option_context_new(cli_usage + strlen("lore-am [OPTION...] "));
	g_option_context_set_summary(ctx, summary);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!rc && help_asked(args)) {
		help(ctx);
		rc = PARSE_DONE;
	} else if (!rc && !g_option_context_parse_strv(ctx, &args, &err)) {
		lore_err("%s (see lore-am --help)", err->message);
		g_error_free(err);
		rc = LORE_EUSAGE;
	}
	g_option_context_free(ctx);
	g_strfreev(args);
	return rc;
}

/* The command's run, in the process state every run wants. */
static int
run(const struct cmd *cmd)
{
	int rc;

	/* a filter's stderr goes to a log: only errors belong there */
	lore_quiet = opts.quiet || opts.passthrough || opts.json;
	lore_debug = opts.debug;
	lore_dbg("the %s run", cmd->name);
	/* a file size limit must fail the write (EFBIG), not kill us
	 * halfway: the temporary file is then removed and reported */
	signal(SIGXFSZ, SIG_IGN);
	/* GMime is loaded and started by its first use (mail/gmimelib.h):
	 * most runs of the mail filter never need it */
	rc = cmd->run(&opts);
	gmimelib_shutdown();
	return rc;
}

int
main(int argc, char **argv)
{
	const struct cmd *cmd;
	gboolean filter = cmd_passthrough_asked(argc, argv);
	int rc;

	g_log_set_handler(
	    "GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION,
	    glib_fatal, NULL);
	g_set_prgname("lore-am");
	gmimelib_missing = gmime_missing;
	/* a word with options of its own */
	if (argc > 1 && !strcmp(argv[1], "queue"))
		return cmd_queue_main(argc - 1, argv + 1);
	rc = parse(argc, argv);
	if (rc == PARSE_DONE) {
		rc = 0;
	} else if (rc) {
		/* a mail filter with a typo in its options still delivers */
		rc = filter ? cmd_passthrough_refused(&opts, rc) : rc;
	} else if (opts.version) {
		printf("lore-am %s\n", LORE_VERSION);
	} else {
		rc = cmd_common_check(&opts);
		cmd = cmd_pick(&opts);
		if (!rc)
			rc = cmd->check(&opts);
		if (rc && opts.passthrough)
			rc = cmd_passthrough_refused(&opts, rc);
		else if (!rc)
			rc = run(cmd);
	}
	cli_clear(&opts);
	config_overrides_free();
	return rc;
}
