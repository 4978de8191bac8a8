/*
 * rangediff.h - --range-diff (b4 diff): what changed between two
 * revisions of a series. Each is applied on its own base in a temporary
 * git folder (rdtrial.h, else a worktree: apply.h) and `git range-diff`
 * compares the two; a revision that does not apply falls back to a
 * patch-by-patch diff of the mails. rangediff_opts() is in rdopts.c.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_RANGEDIFF_H
#define LORE_RANGEDIFF_H

#include "write/amjob.h"
#include "core/config.h"
#include "thread/thread.h"

/* "" (the latest and the one before), "OLD..NEW" ("1..3", "v1..v3") or
 * "OLD.." (OLD and the latest: *new_rev 0); FALSE when @spec is none. */
gboolean rangediff_parse(const char *spec, int *old_rev, int *new_rev);

/*
 * The options of --range-diff-opts (b4 diff's), split as a shell splits
 * them, each checked against the git range-diff options that only change
 * what is shown (no --output, no revision, no abbreviation git would
 * widen): a new vector (g_strfreev; NULL for @text NULL), or NULL and
 * @err (LORE_EUSAGE) naming the one refused.
 */
char **rangediff_opts(const char *text, GError **err);

/*
 * How the comparison is given, for the rest of the run (b4 diff's
 * letters): @no_diff (-n) writes the `git range-diff A..B C..D` line that
 * compares the two built revisions on stdout instead (an error when they
 * do not both apply); @output (-o FILE, borrowed) replaces FILE whole
 * (writer_file()) instead of writing stdout; @color (-c) colors it even
 * into a file or pipe. Zeroed: stdout, colored on a terminal.
 */
struct rangediff_show {
	gboolean no_diff;
	const char *output;
	gboolean color;
};
void rangediff_set_show(const struct rangediff_show *s);

/*
 * Build both revisions of the series @s that @spec names (as
 * rangediff_parse() reads it) with @o's settings and write their
 * range-diff on stdout (colored on a terminal), git range-diff given
 * @extra too (rangediff_opts()'s, or NULL). A lore_status.
 */
int rangediff_run(struct series_set *s, struct amjob_opts *o, const char *spec,
		  const char *const *extra, struct config *cfg);

/*
 * b4 diff -m MBX1 MBX2: two am-ready mboxes (b4 am's or lore-am's output)
 * compared as two revisions, the first the older, each applied on the
 * commit its blobs fit (else HEAD). A lore_status, reported.
 */
int rangediff_mboxes(const char *old_path, const char *new_path,
		     const char *const *extra, struct config *cfg);

#endif
