/*
 * gate.h - the maintainer's gate: what linux-next and checkpatch would
 * say of each am-ready patch, said before it is applied. Each patch's
 * commit message (with the reviewers' trailers folded in) is checked for
 * its Fixes: lines (the commit exists in this tree, 12 hex digits, the
 * quoted subject is that commit's), its sign-offs (the author's, through
 * the tree's .mailmap; a Co-developed-by's; with -s the applier's, last
 * and once), Reported-by: followed by Closes:, links that are URLs, and
 * Cc: stable against the release tags that hold the fixed commit. The
 * summary gets one line per patch (✓, ! or ✗) and the findings under it,
 * --check's verdict beside it and --stable's branches after (told by the
 * git steps, which the gate comes before); --format=json says all of it,
 * with the series chosen and each patch's attestation, as one JSON
 * document on the last line of stderr.
 *
 * Ownership: struct gate owns the patches added to it (their strings are
 * copied); struct gate_opts is the caller's and is borrowed until
 * gate_free().
 */
#ifndef LORE_GATE_H
#define LORE_GATE_H

#include <glib.h>

enum gate_policy {
	GATE_WARN = 0, /* the default: the findings are said */
	GATE_OFF,      /* no check, no line */
	GATE_HARDFAIL, /* a ✗ writes and applies nothing */
};

enum gate_mark {
	GATE_PASS, /* ✓ */
	GATE_NOTE, /* ! what checkpatch or a reviewer would warn about */
	GATE_FAIL, /* ✗ what linux-next would send back */
};

struct gate_opts {
	enum gate_policy policy;
	gboolean add_my_sob;	/* -s: the applier's sign-off is checked */
	const char *user_name;	/* the applier (git config user.*) */
	const char *user_email; /* or NULL */
	const char *dir;	/* the git tree asked, NULL: the current one */
	gboolean tree_known;	/* the caller knows whether @dir is in a */
	gboolean in_tree;	/* git work tree: the gate need not ask */
	gboolean later;		/* the caller says the report (gate_report) */
	gboolean json;		/* --format=json: the report is JSON */
	const char *mainline;	/* lore-am.mainline-ref, or NULL */
	/* the prerequisites' gates (cli/deps.h: struct gate *, each run
	 * already, borrowed): their patches said before the series' (in
	 * the JSON, under "prerequisites") and counted in gate_outcome();
	 * with @deps_first they come first in the mbox too, and so in
	 * gate_check_result()'s numbers. NULL: none. */
	const GPtrArray *deps;
	gboolean deps_first;
};

struct gate;

/* "off", "warn" or "hardfail" (any case) into *@out; FALSE otherwise. */
gboolean gate_parse_policy(const char *v, enum gate_policy *out);

/* NULL when the policy is off (and no JSON, no o.later is asked): every
 * call below accepts NULL. With the policy off, no check is made. */
struct gate *gate_new(const struct gate_opts *o);
void gate_free(struct gate *g);

/*
 * One am-ready patch: @subject as the summary shows it, the author git
 * am records, and @body, the text git am commits (the commit message
 * with its trailers, then "---" and the patch).
 */
void gate_add(struct gate *g, const char *subject, const char *author_name,
	      const char *author_email, const char *body);

/* The series chosen, for the JSON: its revision, patches expected and
 * present, the -v asked (0: the latest), the other revisions (int; may be
 * NULL) and its cover letter's Message-ID (or NULL). */
void gate_series(struct gate *g, int revision, int expected, int present,
		 int asked, GArray *others, const char *cover);

/* The attestation of the patch last added ("pass", "fail", "none",
 * "off"), for the JSON. */
void gate_attest(struct gate *g, const char *verdict);

/*
 * Run the checks on every patch added (the tree checks with at most a
 * few git processes for the whole series: one cat-file --batch-command,
 * one check-mailmap, one name-rev and one tag --list for the release
 * tags; one cat-file --batch-check and one rev-list for the backports)
 * and print the summary's gate lines, unless
 * o.later leaves them to gate_report(). Returns LORE_EGATE when the
 * policy is hardfail and a check failed (one line on stderr names the
 * patch and the check, at once), else LORE_OK.
 */
int gate_run(struct gate *g);

/* With o.later: --check's @verdict ("clean", "warnings", "errors") of
 * patch @i (0-based, in the order added) and the @lines it showed. */
void gate_check_result(struct gate *g, guint i, const char *verdict,
		       const char *lines);

/* The commits the series' Fixes: name, resolved in the tree (full ids,
 * borrowed from @g; the array is the caller's to free). */
GPtrArray *gate_fixed(struct gate *g);

/* --stable: @branch takes the series clean (GATE_PASS), needs -3
 * (GATE_NOTE) or cannot (GATE_FAIL), @text says why. */
void gate_branch(struct gate *g, const char *branch, enum gate_mark m,
		 const char *text);

/* With o.later: the gate's lines (or the JSON, with @rc the run's exit
 * status), said once whatever the run came to. */
void gate_report(struct gate *g, int rc);

/* A prerequisite's gate that refused it (cli/deps.h): its block as the
 * series' own is said, headed "Gate (lore-am.gate=POLICY) of the
 * prerequisite @name:" (made terminal-safe here), whatever o.later and
 * o.json say; nothing under -q, with the policy off, or when its checks
 * did not run. */
void gate_report_prereq(const struct gate *g, const char *name);

/* How many patches @g holds; of patch @i (0-based, in the order added)
 * its subject and what gate_attest() told (NULL: nothing): the
 * prerequisites' lines in the summary (cli/deps.h). */
guint gate_count(const struct gate *g);
const char *gate_subject_of(const struct gate *g, guint i);
const char *gate_attest_of(const struct gate *g, guint i);

/* "pass", "warn" or "fail" (the worst patch, the prerequisites' too),
 * or NULL when the checks did not run: for the mail filter's status line. */
const char *gate_outcome(const struct gate *g);

#endif
