/*
 * tymatch.h - which patches of a tracked series a branch holds, found as
 * b4 ty --auto finds them: among the commits the user committed on the
 * branch since a date (git log --committer EMAIL --since WHEN), a patch is
 * the commit whose diff has its patchwork hash, else the one with its
 * subject, else one whose Message-Id: or Link: trailer names its
 * Message-ID.
 *
 * Ownership: struct ty_branch owns its commits; ty_match() returns an
 * array of borrowed commit ids (the branch's), freed by the caller.
 */
#ifndef LORE_TYMATCH_H
#define LORE_TYMATCH_H

#include "git/tyfile.h"

#include <glib.h>

struct ty_branch {
	GPtrArray *commits;  /* struct ty_commit *, newest first */
	GHashTable *by_hash; /* patchwork hash -> struct ty_commit * */
	GPtrArray *order;    /* the hashes' commits in b4's dict order */
};

/*
 * The commits of @branch (of the repository in the current folder) by
 * @committer since @since (git's date words: "1.week", "2024-01-01"):
 * NULL with @err when git cannot list them.
 */
struct ty_branch *ty_branch_load(const char *branch, const char *since,
				 const char *committer, GError **err);
void ty_branch_free(struct ty_branch *b);

/*
 * The commits of @range ("BRANCH..TIP"), merges left out, whoever made
 * them: a pull request's commits, to be found in a branch as a
 * series' patches are. NULL with @err when git cannot list them.
 */
struct ty_branch *ty_range_load(const char *range, GError **err);

/*
 * @b's commits as patches (title: the subject, hash: the diff's
 * patchwork hash, no Message-ID), oldest first: an array of
 * ty_branch_count(@b) entries the caller frees (g_free), its strings
 * borrowed from @b.
 */
struct ty_patch *ty_branch_patches(const struct ty_branch *b);

/* How many commits ty_branch_load() found. */
guint ty_branch_count(const struct ty_branch *b);

/*
 * The commit of each patch of @s in @b, NULL for one not found: an array
 * of s->npatches commit ids (borrowed from @b); *@found counts the
 * patches found.
 */
GPtrArray *ty_match(const struct ty_branch *b, const struct ty_series *s,
		    guint *found);

#endif
