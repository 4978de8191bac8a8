/*
 * preimage.h - the files a revision of a series starts from, read from its
 * patches' git diff headers (gitformat-diff(5): "index OLD..NEW [MODE]",
 * "old mode", "deleted file mode", "rename from", "--- a/PATH"): for each
 * path the first patch that changes it, the blob it names and the mode.
 * b4 diff's "fake am" builds its base from these (rdfake.h); so does
 * `git apply --build-fake-ancestor` for one patch. Mail is hostile: an
 * index line that is not git's (not lower-case hex, an id shorter than 7
 * or longer than 64 digits, a mode that is not a file's) is refused, not
 * read around, and the first one refused is said.
 *
 * Ownership: a struct preimage_set owns everything in it; free it with
 * preimage_clear(). It borrows nothing after preimage_read() returns.
 */
#ifndef LORE_PREIMAGE_H
#define LORE_PREIMAGE_H

#include <glib.h>

/* more files than this in one revision: refused (a tree-wide change of
 * the kernel touches a few thousand) */
#define PREIMAGE_FILES_MAX 100000

/* One file the revision needs as it was: its first change in the series. */
struct preimage {
	char *path;   /* its name before the series */
	char *pre;    /* the blob id its index line names: 7 to 64 lower-case
		       * hex digits, not all zero */
	char mode[7]; /* "100644", "100755" or "120000" */
	char *old;    /* its whole text rebuilt from the hunks, when they
		       * hold all of it from line 1 (prep3way_old_side()),
		       * else NULL; checked against @pre by the caller */
};

struct preimage_set {
	GPtrArray *files; /* struct preimage *, in the order of the patches */
	guint sections;	  /* file sections ("diff --git") read */
	guint indexed;	  /* of them with an index line */
	char *refused;	  /* the first index line refused, said in words
			   * (terminal-safe), or NULL */
};

/*
 * Read the patches of the am-ready @mbox into @set (zeroed first). A file
 * that is new, whose section has no index line (a pure rename, a mode
 * change) or that is a submodule is not listed: nothing of it is needed,
 * or nothing can be known. FALSE when a line was refused (@set->refused)
 * or there are too many files.
 */
gboolean preimage_read(const GString *mbox, struct preimage_set *set);
void preimage_clear(struct preimage_set *set);

#endif
