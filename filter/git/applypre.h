/*
 * applypre.h - what --apply checks before it touches anything: the
 * repository can take a series (apply_precheck(), in apply.h, for the
 * caller that has not read the mail yet), and nothing uncommitted stands
 * where the series goes: no change staged in the index, none in the work
 * tree's copies of the files the series touches. Changes to other files
 * stay as they are, as git merge and git am leave them. Just before the
 * tree is touched, the index and HEAD are looked at again
 * (applypre_same()).
 *
 * Ownership: the arguments are borrowed.
 */
#ifndef LORE_APPLYPRE_H
#define LORE_APPLYPRE_H

#include <glib.h>
#include <sys/stat.h>

/*
 * What applypre_clean() saw, to be seen again just before the user's tree
 * is touched: a series file staged by another process while the series
 * was tried would otherwise get the series applied on top of it (`git
 * apply --index` takes a staged change for the base).
 */
struct applypre_seen {
	char *head;	 /* HEAD's commit */
	char *index;	 /* the index file (apply_precheck() asked git
			  * where), or NULL: git compares again */
	gboolean stated; /* @st holds the index file's stat */
	struct stat st;
};

/*
 * The current repository's index is @seen->head's tree (HEAD's commit, as
 * the caller just resolved it; g_malloc'd, @seen's) and the work tree's
 * copies of @paths (relative to the top; NULL: every file) are the
 * index's; the rest of @seen filled in (applypre_seen_clear()). A
 * lore_status: LORE_EUSAGE with the one-line reason in @err when not.
 * Its git status writes the user's index: it runs with the signals held
 * (gitrun_hold()), so call it inside gitrun_guard().
 */
int applypre_clean(const GPtrArray *paths, struct applypre_seen *seen,
		   GError **err);

/*
 * HEAD is still @seen's and the index what it was: the same file, else
 * still HEAD's tree (a `git status` meanwhile rewrites it with the same
 * entries). A lore_status, the one-line reason in @err: LORE_ENOTFOUND
 * when HEAD moved, LORE_EUSAGE when a change was staged (the precheck's
 * status for one); nothing is changed.
 */
int applypre_same(const struct applypre_seen *seen, GError **err);

void applypre_seen_clear(struct applypre_seen *seen);

#endif
