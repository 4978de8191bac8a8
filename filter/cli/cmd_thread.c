/*
 * cmd_thread.c - --thread (b4 mbox): the whole thread, every message as
 * received, in thread order, to stdout or -o DIR, or delivered into a
 * maildir (--maildir) or appended to an mbox (--append); write/'s
 * threadout.h writes it.
 */
#include "cli/cmd.h"
#include "cli/runopts.h"
#include "core/util.h"

/*
 * --thread writes mail to read, not patches: options that shape the
 * series have no meaning there, and the output goes to one place only.
 */
int
cmd_thread_check(struct cli *c)
{
	static const char *const series_only[] = {
	    "--use-version", "--cherry-pick", "--add-my-sob",
	    "--add-link",    "--cc-trailers", "--add-message-id",
	};
	gboolean set[] = {
	    c->use_version != 0, c->cherry_pick != NULL, c->add_my_sob,
	    c->add_link,	 c->cc_trailers,	 c->add_message_id,
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
	if (c->append && !runopts_lock_timeout(&secs)) {
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
thread_check(struct cli *c)
{
	/* cmd_thread_check() ran with every command's checks */
	return LORE_OK;
}

const struct cmd cmd_thread = {"thread", thread_check, run_cli};
