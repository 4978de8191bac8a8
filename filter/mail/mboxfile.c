/*
 * mboxfile.c - mail files read whole: one file (or stdin, or a "*.gz"
 * decompressed) into memory under a size bound, and a maildir's messages
 * (cur/ and new/, tmp/ ignored as the maildir spec requires), one file
 * each. The mbox format itself, split as it streams, is mbox.c's.
 */
#include "mail/mbox.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static GBytes *
too_big(GByteArray *a, const char *path, gsize max, GError **err)
{
	g_byte_array_unref(a);
	if (!strcmp(path, "stdin"))
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "standard input: the message is larger than "
			    "%" G_GSIZE_FORMAT " MiB; refused",
			    max >> 20);
	else
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is larger than %" G_GSIZE_FORMAT
			    " MiB; refused",
			    path, max >> 20);
	return NULL;
}

/*
 * Over @max bytes (0: no limit), @cut keeps the first @max + 1 of them (a
 * length that says "too big" with no more held) where it would fail.
 */
static GBytes *
slurp_fd(FILE *f, const char *path, gsize max, gboolean cut, GError **err)
{
	GByteArray *a;
	struct stat st;
	guint8 tmp[65536];
	size_t n;

	/* a regular file is read into a buffer of its size, not doubled */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode)) {
		if (max && !cut && (gsize)st.st_size > max)
			return too_big(g_byte_array_new(), path, max, err);
		a = g_byte_array_sized_new(max ? MIN((gsize)st.st_size, max) + 1
					       : (gsize)st.st_size + 1);
	} else {
		a = g_byte_array_new();
	}
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0) {
		g_byte_array_append(a, tmp, n);
		if (max && a->len > max && cut) {
			g_byte_array_set_size(a, max + 1);
			break;
		}
		if (max && a->len > max)
			return too_big(a, path, max, err);
	}
	if (ferror(f)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read '%s': %s", path, g_strerror(errno));
		g_byte_array_unref(a);
		return NULL;
	}
	return g_byte_array_free_to_bytes(a);
}

/* Read a gzip file (mail stores sometimes keep messages compressed). */
static GBytes *
slurp_gz(const char *path, gsize max, gboolean cut, GError **err)
{
	gzFile gz = gzopen(path, "rb");
	GByteArray *a;
	guint8 tmp[65536];
	int n, e = Z_OK;

	if (!gz) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read '%s': %s", path, g_strerror(errno));
		return NULL;
	}
	a = g_byte_array_new();
	while ((n = gzread(gz, tmp, sizeof(tmp))) > 0) {
		g_byte_array_append(a, tmp, n);
		if (max && a->len > max && cut) {
			g_byte_array_set_size(a, max + 1);
			n = 0;
			break;
		}
		if (max && a->len > max) {
			gzclose(gz);
			return too_big(a, path, max, err);
		}
	}
	/* a file cut inside its gzip stream ends with Z_BUF_ERROR, after
	 * the bytes zlib had: never a shorter message */
	if (n == 0 && !(max && cut && a->len > max))
		gzerror(gz, &e);
	if (n < 0 || e == Z_BUF_ERROR) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot decompress '%s': %s", path,
			    n < 0 ? "the gzip data is corrupt"
				  : "the gzip data ends early (truncated "
				    "file)");
		gzclose(gz);
		g_byte_array_unref(a);
		return NULL;
	}
	gzclose(gz);
	return g_byte_array_free_to_bytes(a);
}

static GBytes *
slurp(const char *path, gsize max, gboolean cut, GError **err)
{
	GBytes *b;
	FILE *f;

	if (!strcmp(path, "-"))
		return slurp_fd(stdin, "stdin", max, cut, err);
	if (g_str_has_suffix(path, ".gz"))
		return slurp_gz(path, max, cut, err);
	f = fopen(path, "rb");
	if (!f) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read '%s': %s", path, g_strerror(errno));
		return NULL;
	}
	b = slurp_fd(f, path, max, cut, err);
	fclose(f);
	return b;
}

GBytes *
mbox_slurp(const char *path, gsize max, GError **err)
{
	return slurp(path, max, FALSE, err);
}

GBytes *
mbox_slurp_message(const char *path)
{
	return slurp(path, LORE_MAX_MESSAGE, TRUE, NULL);
}

static int
cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean
mbox_read_maildir(const char *path, mbox_cb cb, void *data,
		  const gboolean *stop, GError **err)
{
	static const char *const subs[] = {"cur", "new"};
	gboolean any = FALSE;
	guint i, k;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *dir = g_build_filename(path, subs[i], NULL);
		GDir *d = g_dir_open(dir, 0, NULL);
		GPtrArray *names;
		const char *n;

		if (!d)
			continue;
		any = TRUE;
		names = g_ptr_array_new_with_free_func(g_free);
		while ((n = g_dir_read_name(d)))
			if (n[0] != '.')
				g_ptr_array_add(names, g_strdup(n));
		g_dir_close(d);
		/* a stable order, whatever readdir gives */
		g_ptr_array_sort(names, cmp_names);
		for (k = 0; k < names->len && !(stop && *stop); k++) {
			g_autofree char *f =
			    g_build_filename(dir, names->pdata[k], NULL);
			GBytes *b = mbox_slurp_message(f);
			gsize sz;
			const char *p;

			if (!b)
				continue; /* vanished or unreadable: skip it */
			p = g_bytes_get_data(b, &sz);
			cb(p, sz, data);
			g_bytes_unref(b);
		}
		g_ptr_array_free(names, TRUE);
	}
	if (!any)
		g_set_error(
		    err, LORE_ERROR, LORE_EUSAGE,
		    "'%s' is a folder but not a maildir (no cur/ or new/)",
		    path);
	return any;
}
