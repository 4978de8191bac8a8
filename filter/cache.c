/*
 * cache.c - the on-disk cache of fetched threads. Entry names are the
 * SHA-256 of the request URL, so any id maps to a plain file name; GLib's
 * g_file_set_contents_full() does the write-temporary-then-rename dance.
 */
#include "cache.h"
#include "util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

char *
cache_default_dir(void)
{
	return g_build_filename(g_get_user_cache_dir(), "lore-am", NULL);
}

char *
cache_path(const struct cache *c, const char *key)
{
	g_autofree char *h =
	    g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	g_autofree char *name = g_strconcat(h, ".mbox.gz", NULL);

	return g_build_filename(c->dir, name, NULL);
}

GBytes *
cache_get(const struct cache *c, const char *key)
{
	g_autofree char *path = cache_path(c, key);
	GStatBuf st;
	char *data = NULL;
	gsize len = 0;
	gint64 age;

	if (g_stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	age = g_get_real_time() / G_USEC_PER_SEC - (gint64)st.st_mtime;
	if (c->max_age >= 0 && age >= c->max_age)
		return NULL;
	if (!g_file_get_contents(path, &data, &len, NULL))
		return NULL;
	return g_bytes_new_take(data, len);
}

gboolean
cache_put(const struct cache *c, const char *key, const void *data, size_t len,
	  GError **err)
{
	g_autofree char *path = cache_path(c, key);
	GError *e = NULL;

	if (g_mkdir_with_parents(c->dir, 0700)) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot create the cache folder '%s': %s", c->dir,
			    g_strerror(errno));
		return FALSE;
	}
	if (!g_file_set_contents_full(
		path, data, len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &e)) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot write '%s': %s",
			    path, e->message);
		g_error_free(e);
		return FALSE;
	}
	return TRUE;
}

void
cache_drop(const struct cache *c, const char *key)
{
	g_autofree char *path = cache_path(c, key);

	g_unlink(path);
}
