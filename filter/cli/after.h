/*
 * after.h - the stage after the writer, wired as the command line asks
 * (the steps themselves are git/'s): what a maintainer does next with the
 * am-ready series, in the git repository lore-am runs in. Reports what
 * the repository knows of the series (base-commit there or not, applies
 * clean to HEAD, -g's guessed base) and runs --apply.
 *
 * Ownership: everything is borrowed for the duration of each call.
 */
#ifndef LORE_AFTER_H
#define LORE_AFTER_H

#include "write/amjob.h"
#include "cli/cli.h"
#include "core/config.h"
#include "thread/thread.h"

/* Before any work: --apply's refusals (dirty tree, operation in
 * progress, not a repository). A lore_status. */
int after_precheck(const struct cli *c);

/*
 * Run the am job on @s with @o (as amjob_run() does) and, inside a git
 * work tree or when asked, what follows it. A lore_status.
 */
int after_am(struct series_set *s, struct amjob_opts *o, const struct cli *c,
	     struct config *cfg);

#endif
