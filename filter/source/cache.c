/*
 * cache.c - the on-disk cache of fetched threads. Entry names are the
 * SHA-256 of the request URL, so any id maps to a plain file name; GLib's
 * g_file_set_contents_full() does the write-temporary-then-rename dance.
 * Beside each entry, "<name>.sum" holds its length and SHA-256: a valid
 * gzip of a cut mbox inflates fine, so only this tells it from the answer
 * that was stored.
 */
#include "source/cache.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#define SWEEP_EVERY (24 * 60 * 60)

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

/* The check line stored beside an entry of @len bytes: "LEN SHA256\n". */
static char *
sum_line(const void *data, gsize len)
{
	g_autofree char *h =
	    g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, len);

	return g_strdup_printf("%" G_GSIZE_FORMAT " %s\n", len, h);
}

static char *
sum_path(const char *path)
{
	return g_strconcat(path, ".sum", NULL);
}

GBytes *
cache_get(const struct cache *c, const char *key)
{
	g_autofree char *path = cache_path(c, key);
	g_autofree char *spath = sum_path(path);
	g_autofree char *want = NULL, *got = NULL;
	GStatBuf st;
	char *data = NULL;
	gsize len = 0, slen = 0;
	gint64 age;

	if (g_stat(path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	age = g_get_real_time() / G_USEC_PER_SEC - (gint64)st.st_mtime;
	if (c->max_age >= 0 && age >= c->max_age)
		return NULL;
	/* no check line (an entry of an older version, or a crash between
	 * the two files): not believed, fetched again */
	if (!g_file_get_contents(spath, &want, &slen, NULL) || slen > 256)
		return NULL;
	if (!g_file_get_contents(path, &data, &len, NULL))
		return NULL;
	got = sum_line(data, len);
	if (strcmp(got, want)) {
		g_free(data);
		return NULL;
	}
	return g_bytes_new_take(data, len);
}

gboolean
cache_put(const struct cache *c, const char *key, const void *data, size_t len,
	  GError **err)
{
	g_autofree char *path = cache_path(c, key);
	g_autofree char *spath = sum_path(path);
	g_autofree char *sum = sum_line(data, len);
	GError *e = NULL;

	if (g_mkdir_with_parents(c->dir, 0700)) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot create the cache folder '%s': %s", c->dir,
			    g_strerror(errno));
		return FALSE;
	}
	/* the entry, then its check: in between, or after a crash there,
	 * the two disagree and the entry is fetched again */
	if (!g_file_set_contents_full(
		path, data, len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &e) ||
	    !g_file_set_contents_full(
		spath, sum, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &e)) {
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
	g_autofree char *spath = sum_path(path);

	g_unlink(path);
	g_unlink(spath);
}

/*
 * "<64 hex>.mbox.gz" or "<64 hex>.mbox.gz.sum", or either with
 * g_file_set_contents()'s ".XXXXXX"
 */
static gboolean
is_entry_name(const char *n)
{
	size_t i, len = strlen(n), base = 72;

	for (i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(n[i]))
			return FALSE;
	if (strncmp(n + 64, ".mbox.gz", 8))
		return FALSE;
	if (!strncmp(n + 72, ".sum", 4))
		base = 76;
	return len == base || (len == base + 7 && n[base] == '.');
}

guint
cache_sweep(const struct cache *c, gint64 keep)
{
	g_autofree char *stamp = g_build_filename(c->dir, ".swept", NULL);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	GStatBuf st;
	GDir *d;
	const char *n;
	guint gone = 0;

	if (keep <= 0)
		return 0;
	if (!g_stat(stamp, &st) && now - (gint64)st.st_mtime < SWEEP_EVERY)
		return 0;
	/* the stamp first: a sweep that fails halfway waits a day too */
	if (!g_file_set_contents_full(stamp, "", 0, G_FILE_SET_CONTENTS_NONE,
				      0600, NULL))
		return 0;
	d = g_dir_open(c->dir, 0, NULL);
	if (!d)
		return 0;
	while ((n = g_dir_read_name(d))) {
		g_autofree char *path = NULL;

		if (!is_entry_name(n))
			continue;
		path = g_build_filename(c->dir, n, NULL);
		if (!g_lstat(path, &st) && S_ISREG(st.st_mode) &&
		    now - (gint64)st.st_mtime >= keep && !g_unlink(path))
			gone++;
	}
	g_dir_close(d);
	return gone;
}
