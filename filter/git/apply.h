/*
 * apply.h - --apply (b4 shazam): the am-ready series applied with git am
 * in a temporary worktree, then brought to the user's repository: onto
 * the current branch (fast-forward), as FETCH_HEAD (--apply=head, b4's
 * -H) or merged with the cover letter as message (--apply=merge, -M).
 * Whatever fails, the user's repository is as it was: the worktree is
 * always removed, nothing is half-applied, and an operation in progress,
 * a staged change or an uncommitted one to a file the series touches is
 * refused before anything is done (the last two not for =head).
 *
 * Ownership: struct apply_job's inputs are borrowed; its outputs (tip)
 * are the caller's, freed with apply_job_clear().
 */
#ifndef LORE_APPLY_H
#define LORE_APPLY_H

#include <glib.h>

enum apply_mode {
	APPLY_NONE = 0, /* only in the temporary worktree: for range-diff */
	APPLY_BRANCH,	/* --apply: onto the current branch */
	APPLY_HEAD,	/* --apply=head: on the series' base, as FETCH_HEAD */
	APPLY_MERGE, /* --apply=merge: that, merged into the current branch */
};

/* "" or NULL (branch), "head", "merge"; FALSE for anything else. */
gboolean apply_parse_mode(const char *s, enum apply_mode *mode);

/*
 * The repository in the current folder can take a series: a work tree
 * with a commit, no am, rebase, merge, cherry-pick, revert or bisect in
 * progress. A lore_status; the one-line reason is in @err. (Uncommitted
 * changes are looked for once the series' files are known: applypre.h.)
 */
int apply_precheck(GError **err);

struct apply_job {
	enum apply_mode mode;
	const GString *mbox;  /* the am-ready series */
	const GString *cover; /* its am-ready cover letter, or NULL */
	const char *base;     /* where it goes (APPLY_HEAD/MERGE) */
	const char *link;     /* the series' Link URL, or NULL */
	guint patches;
	gboolean threeway;  /* git am -3 */
	char **am_flags;    /* more git am arguments (amflags.h), or NULL;
			     * not for APPLY_NONE (borrowed) */
	char **merge_flags; /* more git merge arguments (borrowed) */
	const char *merge_template; /* shazam-merge-template's text, or
				     NULL: b4's default (borrowed) */
	gboolean full_tree;	    /* no small tree: the caller tried one */
	char *tip;		    /* out: the last commit applied */
	char *onto;		    /* out: the commit it was applied on */
	char *from; /* out: where the line of commits to tip starts: onto,
		     * or for APPLY_NONE the small tree's commit */
};

/* Returns a lore_status; @err holds the one line to print. */
int apply_run(struct apply_job *j, GError **err);
void apply_job_clear(struct apply_job *j);

#endif
