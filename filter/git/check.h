/*
 * check.h - --check (b4 am --check): the project's per-patch check
 * command (checkpatch.pl in a kernel tree) run on each am-ready patch,
 * and each patch marked clean, warnings or errors in the summary with the
 * first lines the command said. Each run is bounded in time and output:
 * "check timed out" (errors) or "output cut", and the run goes on. The
 * runs go in parallel, as many as there are CPUs, and are reported in
 * patch order.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_CHECK_H
#define LORE_CHECK_H

#include "core/config.h"

#include <glib.h>

/* How many lines of a command's output the summary shows per patch. */
#define CHECK_SHOW_LINES 5
/* The bounds of one run of the command: seconds (lore-am.check-timeout),
 * then its process group is killed; bytes of output kept, the rest
 * counted and dropped. */
#define CHECK_TIMEOUT 120
/* At most this many runs at once (lore-am.check-jobs; default: the
 * online CPUs), each bounded as above. */
#define CHECK_JOBS_MAX 64
#define CHECK_OUTPUT_KEEP ((gsize)1 << 20)

struct gate;

/*
 * Run the check command on every message of @mbox, in the repository's
 * top folder @top (NULL: the current folder), and report on stderr;
 * each patch's verdict is told to @gate too (gate_check_result(), NULL:
 * none), whose line shows it beside its own mark.
 * A missing command is one line, never a failure: returns nothing.
 */
void check_run(const GString *mbox, const char *top, struct config *cfg,
	       struct gate *gate);

/* The mark for a command's @output and exit status @st:
 * 0 clean, 1 warnings, 2 errors (checkpatch's --terse words). */
int check_grade(const char *output, int st);

#endif
