/*
 * gate-int.h - what the gate's files share: one patch as the checks see
 * it, its findings, and the git tree they ask. gate.c collects and
 * reports; gatefixes.c checks Fixes: and Cc: stable against the tree,
 * gatesob.c the sign-offs, gatelinks.c Reported-by:, Closes: and Link:.
 *
 * Ownership: struct gate owns its patches, a patch its strings, trailers
 * and findings.
 */
#ifndef LORE_GATE_INT_H
#define LORE_GATE_INT_H

#include "gate/gate.h"
#include "core/util.h"
#include "trailers/trailer.h"

enum gate_mark {
	GATE_PASS, /* ✓ */
	GATE_NOTE, /* ! what checkpatch or a reviewer would warn about */
	GATE_FAIL, /* ✗ what linux-next would send back */
};

struct gate_patch {
	char *subject;
	char *author_name; /* "" when none */
	char *author_email;
	GPtrArray *trailers; /* the commit message's trailer block, in
				order (struct trailer *) */
	GPtrArray *finds;    /* char * "✗ ...", "! ..." lines */
	GPtrArray *info;     /* char * said after a ✓ ("fixes v6.6") */
	enum gate_mark mark; /* the worst of @finds */
	char *first_fail;    /* the first ✗ finding, for hardfail */
};

struct gate {
	struct gate_opts o;
	GPtrArray *patches; /* struct gate_patch * */
	int tree;	    /* -1 not asked yet, 0 no git tree, 1 one */
	gboolean tree_noted;
};

/* Note a finding on @p (printf-style; the text is made terminal-safe). */
void gate_find(struct gate_patch *p, enum gate_mark m, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

/* Is the current folder (or o.dir) in a git repository? Asked once;
 * the first FALSE prints the one note that the tree checks are skipped. */
gboolean gate_tree(struct gate *g);

/* The lower-case names compared, trailers of @p named @lname. */
gboolean gate_is(const struct trailer *t, const char *lname);

/* "git -C dir ARGV" within bounds, @input on stdin; FALSE (said once,
 * as a finding-free note) when git failed. */
gboolean gate_git(struct gate *g, const char *const *argv, const char *input,
		  GString *out);

void gate_check_fixes(struct gate *g);
void gate_check_sob(struct gate *g);
void gate_check_links(struct gate_patch *p);

#endif
