/*
 * gate.h - the maintainer's gate: what linux-next and checkpatch would
 * say of each am-ready patch, said before it is applied. Each patch's
 * commit message (with the reviewers' trailers folded in) is checked for
 * its Fixes: lines (the commit exists in this tree, 12 hex digits, the
 * quoted subject is that commit's), its sign-offs (the author's, through
 * the tree's .mailmap; a Co-developed-by's; with -s the applier's, last
 * and once), Reported-by: followed by Closes:, links that are URLs, and
 * Cc: stable against the release tags that hold the fixed commit. The
 * summary gets one line per patch (✓, ! or ✗) and the findings under it.
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

struct gate_opts {
	enum gate_policy policy;
	gboolean add_my_sob;	/* -s: the applier's sign-off is checked */
	const char *user_name;	/* the applier (git config user.*) */
	const char *user_email; /* or NULL */
	const char *dir;	/* the git tree asked, NULL: the current one */
	gboolean tree_known;	/* the caller knows whether @dir is in a */
	gboolean in_tree;	/* git work tree: the gate need not ask */
};

struct gate;

/* "off", "warn" or "hardfail" (any case) into *@out; FALSE otherwise. */
gboolean gate_parse_policy(const char *v, enum gate_policy *out);

/* NULL when the policy is off: every call below accepts NULL. */
struct gate *gate_new(const struct gate_opts *o);
void gate_free(struct gate *g);

/*
 * One am-ready patch: @subject as the summary shows it, the author git
 * am records, and @body, the text git am commits (the commit message
 * with its trailers, then "---" and the patch).
 */
void gate_add(struct gate *g, const char *subject, const char *author_name,
	      const char *author_email, const char *body);

/*
 * Run the checks on every patch added (the tree checks with at most a
 * few git processes for the whole series: one cat-file --batch-check,
 * one log, one check-mailmap, one name-rev for the release tags) and
 * print the summary's gate lines. Returns LORE_EGATE when the policy is
 * hardfail and a check failed (one line on stderr names the patch and
 * the check), else LORE_OK.
 */
int gate_run(struct gate *g);

#endif
