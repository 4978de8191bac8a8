/*
 * cmd_apply.c - --apply[=head|merge] (b4 shazam): the series applied
 * with git am to the current branch, or on its base as FETCH_HEAD, or
 * that merged with the cover letter as message. The git steps are git/'s
 * (apply.h), wired by after.c; the repository's state is checked there,
 * once the input is read.
 */
#include "cli/cmd.h"
#include "git/apply.h"
#include "core/util.h"

static int
apply_check(struct cli *c)
{
	enum apply_mode mode;

	if (!apply_parse_mode(c->apply, &mode)) {
		g_autofree char *s = lore_term_safe(c->apply, -1);

		lore_err("unknown --apply mode '%s': use --apply, --apply=head "
			 "or --apply=merge",
			 s);
		return LORE_EUSAGE;
	}
	if (c->merge_base && mode == APPLY_BRANCH) {
		lore_err("--merge-base goes with --apply=head or "
			 "--apply=merge (shazam -H or -M)");
		return LORE_EUSAGE;
	}
	/* -o DIR keeps a copy of what is applied (the mail clients' apply
	 * key keeps it where their save key writes) */
	if (c->thread || c->passthrough) {
		lore_err("--apply writes into the repository: it does not go "
			 "with --thread or --passthrough");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

const struct cmd cmd_apply = {"apply", apply_check, run_cli};
