/*
 * deps.h - the series a series stands on (series/prereq.h reads what its
 * cover letter says), each found through the sources in their usual
 * order, made into its own am-ready mbox by the usual stages (series,
 * trailers, the am job), ordered so that each comes after what it
 * stands on (a chain, a diamond: each series once; a cycle refused), and
 * checked against the tree (git/applied.h): what is there already is
 * never applied again. What the run then does with them is the am job's
 * (the "Depends on" block, the mbox before the series) and --apply's.
 * Wired here, in cli/, as a stage never calls a later one.
 *
 * Ownership: struct deps is the caller's (deps_free()); the am job's
 * options point into it (o->depends_on, o->deps_mbox) until then.
 */
#ifndef LORE_DEPS_H
#define LORE_DEPS_H

#include "cli/cli.h"
#include "core/config.h"
#include "series/series.h"
#include "source/gather.h"
#include "write/amjob.h"

/* how deep prerequisites of prerequisites are followed */
#define DEPS_MAX_DEPTH 8

struct deps;

/*
 * The prerequisites of the series @o chooses in @s, found through @g;
 * nothing is done (no process, no search) when its cover letter names
 * none, or with --no-deps. Sets @o's depends_on (the summary's block)
 * and, with --apply or --with-deps, deps_mbox (the ones the tree lacks,
 * in order); with -o DIR and neither, writes each of those there as its
 * own file. *@out is the caller's, set also on failure. A lore_status,
 * reported: a cycle is refused; a prerequisite not found is an error
 * under --apply and --with-deps, else a warning.
 */
int deps_run(struct gather *g, struct series_set *s, struct amjob_opts *o,
	     const struct cli *c, struct config *cfg, struct deps **out);
void deps_free(struct deps *d);

/* lore-am.deps-lookback, else APPLIED_LOOKBACK: the commits of HEAD's
 * history searched for patches already applied (depsplace.c; the queue's
 * applied scan too). */
guint deps_lookback(struct config *cfg);

#endif
