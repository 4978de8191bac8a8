/*
 * cmd_am.c - the am job, lore-am's default command (b4 am): the series of
 * the thread, with its trailers, as an mbox git am applies. Also the
 * checks every command shares and the choice of the command.
 */
#include "cli/cmd.h"
#include "git/treecheck.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const struct cmd *
cmd_pick(const struct cli *c)
{
	/* a mail filter first: whatever else is asked, the mail goes out */
	if (c->passthrough)
		return &cmd_passthrough;
	if (c->pr)
		return &cmd_pr;
	if (c->dig)
		return &cmd_dig;
	if (c->ty)
		return &cmd_ty;
	if (c->range_diff)
		return &cmd_rangediff;
	if (c->apply)
		return &cmd_apply;
	if (c->refetch)
		return &cmd_refetch;
	if (c->thread || c->maildir || c->append)
		return &cmd_thread;
	return &cmd_am;
}

/*
 * b4 am's -M (a maildir) and -Q (a quilt folder): files of the am job,
 * so into -o DIR, or as in b4 the current folder.
 */
static int
am_forms(struct cli *c)
{
	const char *o = c->save_maildir ? "-M" : "-Q";

	if (c->apply || c->range_diff || c->thread || c->maildir || c->append ||
	    c->passthrough) {
		lore_err("%s goes with the am job (b4 am), not with %s", o,
			 c->apply	  ? "--apply"
			 : c->range_diff  ? "--range-diff"
			 : c->passthrough ? "--passthrough"
					  : "--thread (use --maildir DIR)");
		return LORE_EUSAGE;
	}
	if (c->save_maildir && c->quilt) {
		lore_err("give one of -M and -Q");
		return LORE_EUSAGE;
	}
	if (c->outdir && !strcmp(c->outdir, "-")) {
		lore_err("%s writes files: give -o DIR, not -o -", o);
		return LORE_EUSAGE;
	}
	if (!c->outdir)
		c->outdir = g_strdup(".");
	return LORE_OK;
}

/*
 * What b4 users type (its words are b4words.c's): -o - for standard
 * output, -n NAME for the files' name.
 */
static int
b4_habits(struct cli *c)
{
	int rc;

	if ((c->save_maildir || c->quilt) && (rc = am_forms(c)))
		return rc;
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
 * --no-stdin (b4's): standard input is never read, so nothing may ask
 * for it, and the Message-ID comes from the command line (or -m MBOX
 * alone names the mailbox's thread, as with a terminal on stdin).
 */
static int
no_stdin_check(const struct cli *c)
{
	guint i;

	for (i = 0; c->mboxes && c->mboxes[i]; i++)
		if (!strcmp(c->mboxes[i], "-"))
			break;
	if (c->passthrough || c->stdin_pipe_sep ||
	    (c->mboxes && c->mboxes[i]) ||
	    (c->rethread && c->args && c->args[0] &&
	     !strcmp(c->args[0], "-"))) {
		lore_err("--no-stdin: %s reads standard input",
			 c->passthrough	     ? "--passthrough"
			 : c->stdin_pipe_sep ? "--stdin-pipe-sep"
			 : c->rethread	     ? "--rethread -"
					     : "-m -");
		return LORE_EUSAGE;
	}
	if (c->mboxes || c->compare_mboxes || (c->args && c->args[0]) ||
	    c->ty || c->dig || c->refetch)
		return LORE_OK;
	lore_err("--no-stdin: give the MSGID or URL on the command line");
	return LORE_EUSAGE;
}

/*
 * No MSGID and a terminal on stdin: nobody is piping a message in, so say
 * how to use lore-am instead of waiting for one.
 */
static int
check_terminal(const struct cli *c)
{
	if (c->no_stdin)
		return no_stdin_check(c);
	if (c->passthrough || c->mboxes || c->compare_mboxes || c->refetch ||
	    (c->args && c->args[0]) || !isatty(STDIN_FILENO))
		return LORE_OK;
	lore_err("no MSGID given and no message piped in");
	fprintf(stderr, "usage: %s (lore-am --help for more)\n", cli_usage);
	return LORE_EUSAGE;
}

/*
 * -b BRANCH (b4's --guess-branch): -g on those branches only. Each must
 * name a commit here (when git can tell) and cannot pass for an option.
 */
static int
guess_branches(struct cli *c)
{
	guint i;

	/* pr's -b is b4 pr's --branch, a branch to make (cmd_pr.c) */
	if (c->pr)
		return LORE_OK;
	for (i = 0; c->guess_branch && c->guess_branch[i]; i++) {
		const char *b = c->guess_branch[i];

		if (!*b || *b == '-' || treecheck_commit_known(b) == 0) {
			g_autofree char *s = lore_term_safe(b, -1);

			lore_err("-b: '%s' is not a branch or commit of this "
				 "repository",
				 s);
			return LORE_EUSAGE;
		}
	}
	if (c->guess_branch)
		c->guess_base = TRUE;
	return LORE_OK;
}

/* --stdin-pipe-sep reads standard input as a mailbox of its own */
static int
pipe_sep(const struct cli *c)
{
	if (c->stdin_pipe_sep && c->passthrough) {
		lore_err("--stdin-pipe-sep and --passthrough both read "
			 "standard input: give one");
		return LORE_EUSAGE;
	}
	if (c->stdin_pipe_sep && c->rethread && c->args && c->args[0] &&
	    !strcmp(c->args[0], "-")) {
		lore_err("--stdin-pipe-sep and --rethread - both read "
			 "standard input: give one");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/* --format=text|json; the JSON is the am run's summary (gate.h) */
static int
cmd_format(struct cli *c)
{
	g_autofree char *s = NULL;

	c->json = !g_strcmp0(c->format, "json");
	if (c->format && !c->json && strcmp(c->format, "text")) {
		s = lore_term_safe(c->format, -1);
		lore_err("--format '%s' is not text or json", s);
		return LORE_EUSAGE;
	}
	/* --maildir and --append are the thread mode too (before
	 * cmd_thread_check() says so) */
	if (c->json && (c->thread || c->maildir || c->append ||
			c->passthrough || c->range_diff)) {
		lore_err("--format=json is the am run's summary: not with "
			 "--thread, --maildir, --append, --passthrough or "
			 "--range-diff");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

int
cmd_common_check(struct cli *c)
{
	int rc;

	if ((c->dig_commit || c->dig_all || c->dig_who || c->dig_mbox) &&
	    !c->dig) {
		lore_err("--commitish, --all-series, --who and --save-mbox go "
			 "with dig (b4 dig -c, -a, -w, -m)");
		return LORE_EUSAGE;
	}
	if (c->ty) /* its own options: cmd_ty.c checks them */
		return LORE_OK;
	if (c->use_version < 0) {
		lore_err("--use-version takes a positive number");
		return LORE_EUSAGE;
	}
	if (c->parent && c->no_parent) {
		lore_err("--parent and --no-parent contradict each other");
		return LORE_EUSAGE;
	}
	if (c->add_message_id && c->add_link) {
		lore_err("-i (--add-message-id) and -l (--add-link) do not go "
			 "together: give one");
		return LORE_EUSAGE;
	}
	if (c->with_deps && c->no_deps) {
		lore_err("--with-deps and --no-deps contradict each other");
		return LORE_EUSAGE;
	}
	if ((c->range_diff_opts || c->compare_mboxes) && !c->range_diff) {
		lore_err("--range-diff-opts goes with --range-diff (b4 diff)");
		return LORE_EUSAGE;
	}
	if ((c->diff_no_diff || c->diff_output || c->diff_color ||
	     c->ty_gitdir) &&
	    !c->range_diff) {
		lore_err("--no-diff, --output-diff, --color and --gitdir go "
			 "with --range-diff (b4 diff -n, -o, -c, -g) or ty");
		return LORE_EUSAGE;
	}
	if (c->merge_base && !c->apply) {
		lore_err("--merge-base goes with --apply=head or "
			 "--apply=merge (shazam -H or -M)");
		return LORE_EUSAGE;
	}
	if (c->single_message && c->rethread) {
		lore_err("--single-message and --rethread contradict each "
			 "other: one message, or the mails of a series");
		return LORE_EUSAGE;
	}
	/* one message of a series is what was asked for: the others are
	 * named, not a reason to write nothing (b4 writes it too) */
	if (c->single_message)
		c->allow_incomplete = TRUE;
	if (c->lookback_arg) {
		guint64 n;

		if (!g_ascii_string_to_unsigned(c->lookback_arg, 10, 1, 3650,
						&n, NULL)) {
			g_autofree char *s =
			    lore_term_safe(c->lookback_arg, -1);

			lore_err("--guess-lookback takes a number of days from "
				 "1 to 3650, not '%s'",
				 s);
			return LORE_EUSAGE;
		}
		c->guess_lookback = (int)n;
	}
	if ((rc = cmd_format(c)))
		return rc;
	if ((rc = pipe_sep(c)) || (rc = guess_branches(c)) ||
	    (rc = b4_habits(c)) || (rc = cmd_rangediff_fold(c)) ||
	    (rc = check_terminal(c)))
		return rc;
	return cmd_thread_check(c);
}

static int
am_check(struct cli *c)
{
	return LORE_OK;
}

const struct cmd cmd_am = {"am", am_check, run_cli};
