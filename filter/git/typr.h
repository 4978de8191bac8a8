/*
 * typr.h - where a tracked pull request (b4 pr's TIP.pr) went in a
 * branch, and the ${summary} of its thanks. As b4 ty finds it: the tip
 * in the branch, and the merge commit the first one on the ancestry path
 * from the tip to the branch (`git rev-list TIP.. --ancestry-path
 * BRANCH`, the oldest), made by the user for -a. Beyond b4: a tip the
 * branch took by fast-forward (no merge commit follows it) is thanked
 * with the tip itself, and a pull whose commits were applied one by one
 * (cherry-picked, or `lore-am pr --explode` then git am) with the
 * commits found among the user's, as a series' patches are found
 * (tymatch.h).
 *
 * Ownership: struct ty_pr owns what it holds (typr_clear()), but for
 * the commit ids of a picked pull, borrowed from the ty_branch given.
 */
#ifndef LORE_TYPR_H
#define LORE_TYPR_H

#include "git/tymail.h"
#include "git/tymatch.h"

#include <glib.h>

/* past this many commits a pull is not looked for commit by commit */
#define TYPR_MAX_PICKED 1000

enum ty_pr_how {
	TY_PR_NOT,     /* not in the branch (see @why) */
	TY_PR_MERGED,  /* a merge commit took the tip */
	TY_PR_FORWARD, /* the branch took the tip by fast-forward */
	TY_PR_PICKED   /* some of its commits were applied one by one */
};

struct ty_pr {
	enum ty_pr_how how;
	char *tip;		 /* the pull's tip: the file's name */
	char *merge;		 /* TY_PR_MERGED: the merge commit */
	char *why;		 /* TY_PR_NOT: why not, one line */
	struct ty_branch *range; /* TY_PR_PICKED: the pull's commits, */
	struct ty_series picked; /* as a series (patches, npatches), */
	char **ids;		 /* and each one's commit in the branch */
	guint found;		 /* how many of them the branch holds */
};

/*
 * Locate the pull request @s in @branch of the repository in the current
 * folder; with @mine (the user's recent commits on the branch, or NULL)
 * its commits are looked for there when the tip is not in the branch.
 * @auto_only: b4 ty -a's rule, a merge commit by someone else than
 * @myemail is not the user's merge. FALSE with @err when git fails.
 */
gboolean typr_locate(const struct ty_series *s, const char *branch,
		     const char *myemail, gboolean auto_only,
		     const struct ty_branch *mine, struct ty_pr *out,
		     GError **err);

/*
 * b4's ${summary} for @p: "merge commit: ID" (the commit mask, b4's
 * default for a pull), "commit: TIP" for a fast-forward, and for a
 * picked pull each commit as a series' summary lists its patches.
 */
char *typr_summary(const struct ty_setup *t, const struct ty_pr *p);

void typr_clear(struct ty_pr *p);

#endif
