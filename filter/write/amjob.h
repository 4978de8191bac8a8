/*
 * amjob.h - the am job: from the analysed series to the am-ready output.
 * Picks the revision, refuses an incomplete series unless told otherwise,
 * runs the trailers stage, builds each am-ready message, prints the
 * summary on stderr and writes the result.
 *
 * Ownership: struct amjob_opts is the caller's; amjob_run() borrows it and
 * the series set (and so its thread) for the duration of the call. A struct
 * amjob_result is filled by amjob_run() and owned by the caller, who frees its
 * contents with amjob_result_clear().
 */
#ifndef LORE_AMJOB_H
#define LORE_AMJOB_H

#include <glib.h>

#include "write/am.h"
#include "attest/attest.h"
#include "gate/gate.h"
#include "series/series.h"

/* What the job found, for callers that report it (--passthrough). */
struct amjob_result {
	int revision;	  /* the revision chosen; 0 when no series was found */
	int expected;	  /* its number of patches */
	int present;	  /* how many of them the thread holds */
	GArray *missing;  /* missing patch numbers (int), or NULL */
	char *stem;	  /* output file name stem (writer_slug), or NULL */
	gboolean written; /* the output was written */
	/* for the stage after the writer (after.h): the am-ready mbox and
	 * cover letter, the base-commit, branch name, -o file and Link URL */
	GString *mbox, *cover;
	char *base_commit, *branch, *file, *link;
	const char *attestation; /* attest_outcome(), or NULL */
	const char *gate;	 /* gate_outcome(), or NULL */
	struct gate *gate_held;	 /* with gate.later: the gate, for the
				    caller's gate_report() (freed here) */
};

void amjob_result_clear(struct amjob_result *r);

struct amjob_opts {
	struct followup_opts trailers;
	int use_version;   /* 0: the latest */
	char *cherry_pick; /* or NULL */
	gboolean sloppy;
	gboolean allow_incomplete;
	gboolean mboxrd;
	gboolean allow_unicode_control; /* patches with bidi controls too */
	char *outdir;			/* NULL: the mbox goes to stdout */
	const char *mbox_name; /* -n: the stem in @outdir, else the slug */
	gboolean no_cover;     /* --no-cover: no .cover in @outdir */
	gboolean arriving;     /* a mail filter: a series may be arriving */
	char *link_mask;       /* for the summary's Link line */
	const char *target;    /* the message asked about, or NULL */
	struct amjob_result *result; /* filled when not NULL */
	gboolean hold;	       /* keep the mbox in result, write nothing */
	gboolean base_later;   /* the Base: lines are the caller's (after.h) */
	struct attest *attest; /* NULL: no attestation */
	struct gate_opts gate; /* lore-am.gate, the checks before applying */
	gboolean explain;      /* --explain: why this revision, these patches */
	/* the series' prerequisites (cli/deps.h): the summary's "Depends
	 * on" block, and the mbox of those written before the series */
	const char *depends_on;
	const GString *deps_mbox;
	/* the trailers stage already run on the series set (its caller's,
	 * shared with the queue), or NULL: the job runs it */
	struct followups *followups;
};

/* Returns a lore_status (util.h); errors are reported on stderr. */
int amjob_run(struct series_set *s, const struct amjob_opts *o);

#endif
