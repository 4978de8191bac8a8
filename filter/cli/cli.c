/*
 * cli.c - struct cli's own: the usage line and the clearing of what the
 * option table filled in.
 */
#include "cli/cli.h"

#include <string.h>

const char cli_usage[] = "lore-am [OPTION...] [MSGID|URL]";

void
cli_clear(struct cli *c)
{
	g_strfreev(c->mboxes);
	g_strfreev(c->args);
	g_strfreev(c->rethread_ids);
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
	g_free(c->range_diff_opts);
	g_strfreev(c->compare_mboxes);
	g_free(c->version_pair);
	g_strfreev(c->guess_branch);
	g_free(c->merge_base);
	g_free(c->lookback_arg);
	g_free(c->stdin_pipe_sep);
	g_free(c->format);
	g_strfreev(c->stable);
	g_free(c->ty_thank);
	g_free(c->ty_discard);
	g_free(c->ty_branch);
	g_free(c->ty_since);
	g_free(c->ty_gitdir);
	g_free(c->ty_pw_state);
	g_free(c->diff_output);
	g_free(c->refetch);
	g_free(c->dig_commit);
	g_free(c->dig_mbox);
	if (c->stdin_mails)
		g_ptr_array_unref(c->stdin_mails);
	memset(c, 0, sizeof(*c));
}

/* The first argument, a word main.c's table left, taken off. */
void
cli_shift(struct cli *c)
{
	char *word = c->args[0];

	memmove(c->args, c->args + 1,
		g_strv_length(c->args) * sizeof(*c->args));
	g_free(word);
}
