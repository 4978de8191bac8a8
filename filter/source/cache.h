/*
 * cache.h - threads fetched from an archive, kept as the gzip bytes the
 * server sent, one file per request URL under $XDG_CACHE_HOME/lore-am/.
 * An entry is fresh while its age (file mtime) is below the caller's limit.
 * Entries are written to a temporary file and renamed into place, so a
 * reader sees a whole old entry or a whole new one; beside each, a
 * "NAME.sum" file holds its length and SHA-256, and an entry that does not
 * match it (cut, replaced, or without one) is not returned. Checking that
 * an entry's content is sound (it inflates) is the reader's job, and
 * cache_drop() removes one that is not.
 *
 * Ownership: the caller owns struct cache and everything passed in;
 * cache_get() returns a new GBytes (g_bytes_unref).
 */
#ifndef LORE_CACHE_H
#define LORE_CACHE_H

#include <glib.h>

struct cache {
	char *dir;	/* the folder of entries */
	gint64 max_age; /* seconds an entry stays fresh; < 0: any age */
};

/* $XDG_CACHE_HOME/lore-am (~/.cache/lore-am); g_free. */
char *cache_default_dir(void);

/* The file holding @key's entry (a hash of @key in @c->dir); g_free. */
char *cache_path(const struct cache *c, const char *key);

/* The entry for @key when present, fresh and as stored, else NULL. */
GBytes *cache_get(const struct cache *c, const char *key);

/* Store @len bytes for @key, creating the folder; FALSE and @err. */
gboolean cache_put(const struct cache *c, const char *key, const void *data,
		   size_t len, GError **err);

/* Forget @key's entry (a corrupt one); missing is fine. */
void cache_drop(const struct cache *c, const char *key);

/*
 * Delete the entries (and temporary files a crash left) not written for
 * @keep seconds, at most once a day: the folder's ".swept" file records the
 * last sweep. Only names cache_path() makes are touched; errors are
 * ignored (a sweep is housekeeping, never a reason to fail). Returns how
 * many files were deleted.
 */
guint cache_sweep(const struct cache *c, gint64 keep);

#endif
