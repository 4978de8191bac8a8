/*
 * patchid.h - the value `git patch-id --stable` prints for a diff, computed
 * here (no subprocess): a patch re-sent unchanged in a later revision keeps
 * its value, so review trailers given to it can carry over.
 *
 * Ownership: strings returned are the caller's (g_free); struct
 * patchid_files is the caller's (patchid_files_free()).
 */
#ifndef LORE_PATCHID_H
#define LORE_PATCHID_H

#include <glib.h>

/* 40 hex digits (g_free), or NULL when @text holds no diff. */
char *patchid_stable(const char *text);

/*
 * The bytes of each file of the diff in @text that its patch-id is the
 * SHA-1 sum of, kept instead of hashed: two patches have equal patch-ids
 * exactly when they have the same files (patchid_files_equal()), but for
 * a SHA-1 collision, and telling so costs no SHA-1. NULL when @text holds
 * no diff (patchid_stable() returns NULL).
 */
struct patchid_files;

struct patchid_files *patchid_files_new(const char *text);
void patchid_files_free(struct patchid_files *f);

/* GHashFunc and GEqualFunc of struct patchid_files *: the same files, in
 * any order, byte for byte. */
guint patchid_files_hash(gconstpointer f);
gboolean patchid_files_equal(gconstpointer a, gconstpointer b);

/* patchid_stable() of the text @f was read from (g_free). */
char *patchid_files_stable(const struct patchid_files *f);

#endif
