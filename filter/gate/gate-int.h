/*
 * gate-int.h - what the gate's files share: one patch as the checks see
 * it, its findings, and the git tree they ask. gate.c collects and
 * reports; gatefixes.c checks Fixes: and Cc: stable against the tree,
 * gatesob.c the sign-offs, gatelinks.c Reported-by:, Closes: and Link:,
 * gateport.c a backport's upstream commit, gatesay.c says the block on
 * the terminal, gatejson.c says it all as JSON.
 *
 * Ownership: struct gate owns its patches, a patch its strings, trailers
 * and findings.
 */
#ifndef LORE_GATE_INT_H
#define LORE_GATE_INT_H

#include "gate/gate.h"
#include "core/util.h"
#include "trailers/trailer.h"

/* The checks, by the name JSON gives them (gate_check_names[]). */
enum gate_check {
	GATE_C_FIXES,	 /* Fixes: resolved, 12 digits, its subject */
	GATE_C_STABLE,	 /* Cc: stable by the release tags */
	GATE_C_SIGNOFF,	 /* the DCO sign-offs */
	GATE_C_LINKS,	 /* Reported-by: and Closes:, links are URLs */
	GATE_C_BACKPORT, /* "commit X upstream." is in the mainline */
	GATE_C_N,
};
extern const char *const gate_check_names[GATE_C_N];
extern const char *const gate_marks[3]; /* "✓", "!", "✗" */

struct gate_finding {
	enum gate_check check;
	enum gate_mark mark;
	char *text;    /* as found (raw: made safe where it is said) */
	char *suggest; /* the line to use or what to do, or NULL */
};

struct gate_patch {
	char *subject;
	char *author_name; /* "" when none */
	char *author_email;
	char *message;	     /* the commit message, up to the patch */
	GPtrArray *trailers; /* the commit message's trailer block, in
				order (struct trailer *) */
	GPtrArray *finds;    /* struct gate_finding *, ✗ and ! */
	GPtrArray *info;     /* struct gate_finding *, said after a ✓ */
	guint ran;	     /* 1 << enum gate_check: the checks that looked */
	guint skipped;	     /* ... that could not (no git tree) */
	enum gate_mark mark; /* the worst of @finds */
	char *first_fail;    /* the first ✗ finding, for hardfail */
	char *attest;	     /* gate_attest()'s verdict, or NULL */
	char *check_verdict; /* --check's "clean", ..., or NULL */
	char *check_lines;   /* the lines it showed, one a line */
};

struct gate_branch {
	char *name;
	enum gate_mark mark; /* clean, needs -3, cannot */
	char *verdict;	     /* "clean", "needs-3way", "cannot" */
	char *text;
};

struct gate_series {
	int revision, expected, present, asked;
	GArray *others; /* int */
	char *cover;	/* its Message-ID, or NULL */
};

struct gate {
	struct gate_opts o;
	GPtrArray *patches;  /* struct gate_patch * */
	GPtrArray *branches; /* struct gate_branch *, --stable's */
	struct gate_series series;
	GPtrArray *fixed; /* char *: the full ids Fixes: named */
	int tree;	  /* -1 not asked yet, 0 no git tree, 1 one */
	gboolean tree_noted;
	gboolean ran; /* gate_run() was called */
	guint fails;  /* patches with a ✗ */
};

/* Note a finding of check @c on @p, with a @suggest (or NULL):
 * printf-style, kept as found; a GATE_PASS is said after the ✓. */
void gate_find(struct gate_patch *p, enum gate_check c, enum gate_mark m,
	       const char *suggest, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/* Check @c looked at @p (or could not: @skipped, outside a tree). */
void gate_ran(struct gate_patch *p, enum gate_check c, gboolean skipped);

/* Is the current folder (or o.dir) in a git repository? Asked once;
 * the first FALSE prints the one note that the tree checks are skipped:
 * it is asked only where a tree check has something to look at. */
gboolean gate_tree(struct gate *g);

/* The lower-case names compared, trailers of @p named @lname. */
gboolean gate_is(const struct trailer *t, const char *lname);

/* "git -C dir ARGV" within bounds, @input on stdin; FALSE (said once,
 * as a finding-free note) when git failed. */
gboolean gate_git(struct gate *g, const char *const *argv, const char *input,
		  GString *out);

/* The exit status of "git ARGV" (no output kept), -1 when it could not
 * run. */
int gate_git_status(struct gate *g, const char *const *argv);

/* The trailer block of the commit message @msg, as body_split() reads it
 * (struct trailer *, the caller's to free). */
GPtrArray *gate_trailers(const char *msg);

void gate_check_fixes(struct gate *g);

/* git log's %s of the raw commit object @c (@n bytes): the first
 * paragraph of its message, lines joined by a space, in UTF-8 when the
 * commit names its encoding (gatefixes.c; g_free). */
char *gate_commit_subject(const char *c, size_t n);

/* One answer of `git cat-file --batch-command` at *@pos of @out: the
 * object's type ("missing", "ambiguous"), its id in *@oid (NULL for
 * those), and for a "contents" answer the object in *@body, *@blen
 * bytes of @out; NULL at the end or where @out is not understood. */
char *gate_cat_answer(const GString *out, size_t *pos, gboolean contents,
		      char **oid, char **body, size_t *blen);
void gate_check_sob(struct gate *g);
void gate_check_links(struct gate_patch *p);
void gate_check_backport(struct gate *g);

/* The block on stderr, built whole and written at once; nothing under
 * -q (gatesay.c). */
void gate_say(const struct gate *g);

/* The JSON summary of everything the gate holds, on one line of stderr
 * (gatejson.c); @rc: the run's exit status. */
void gate_json(const struct gate *g, int rc);
/* The same document appended to @j, without the line's end. */
void gate_json_build(const struct gate *g, int rc, GString *j);

#endif
