/*
 * treecheck.h - what the git repository lore-am runs in knows of a series:
 * whether its base-commit is there, whether it applies clean to HEAD (each
 * file's pre-image blob from the patches' "index abc..def" lines against
 * the blob at that path), and, with -g, which recent commit of the
 * branches and tags holds every pre-image (b4's --guess-base).
 *
 * Ownership: a struct treecheck owns everything in it; free it with
 * treecheck_clear(). It borrows nothing after treecheck_parse() returns.
 */
#ifndef LORE_TREECHECK_H
#define LORE_TREECHECK_H

#include <glib.h>

/* One file the series changes: its path and the blob it starts from. */
struct treecheck_file {
	char *path;
	char *pre; /* abbreviated blob id, or NULL when the series adds it */
};

struct treecheck {
	GPtrArray
	    *files;  /* struct treecheck_file *, first change of each path */
	gint64 date; /* the newest patch's Date, seconds since the epoch */
	guint patches;
};

/* The top folder of the git work tree the current folder is in (g_free),
 * or NULL outside any: the first folder up with a .git (git's own rule,
 * and no git process), or git's answer when GIT_DIR is set. */
char *treecheck_toplevel(void);

/* Collect the files and date of the am-ready @mbox. */
void treecheck_parse(struct treecheck *tc, const GString *mbox);
void treecheck_clear(struct treecheck *tc);

/* How many files the series starts from (pre-images it needs). */
guint treecheck_needed(const struct treecheck *tc);

/*
 * In one git call: whether @base (or NULL) names a commit here (*@known
 * 1 or 0, -1 without @base) and how many needed pre-images are at their
 * path in HEAD (*@clean, -1 when none is needed). FALSE when git could
 * not be asked.
 */
gboolean treecheck_look(const struct treecheck *tc, const char *base,
			int *known, int *clean);

/*
 * Whether @commitish names a commit here; -1 when git could not tell.
 */
int treecheck_commit_known(const char *commitish);

/*
 * The full ids of the commits @names (@n of them) name, in one git
 * process: an array of @n, NULL where a name is no commit here (or holds
 * a line break); NULL when git could not tell (g_ptr_array_unref).
 */
GPtrArray *treecheck_commit_ids(const char *const *names, guint n);

/*
 * The newest commit of the branches and tags (or of @branches only, when
 * not NULL: -b's, each a name treecheck_commit_known() knows, none
 * starting with '-'), within @days days before the series' date, holding
 * the most pre-images (*@matched of them); NULL when none holds any. One
 * rev-list and one batched cat-file call.
 */
char *treecheck_guess(const struct treecheck *tc, int days,
		      const char *const *branches, int *matched);

#endif
