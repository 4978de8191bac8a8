/* The archive cache believes an entry only when it is the bytes that were
 * stored (cache.h): each case stores an entry, changes it or its check line
 * on disk, and asks for it again (table-driven). */
#include "source/cache.h"
#include "tap.h"

#include <glib/gstdio.h>
#include <string.h>
#include <time.h>
#include <utime.h>

#define KEY "https://lore.example.org/list/id@example.org/t.mbox.gz"

static const char stored[] = "\x1f\x8b the gzip bytes of a whole thread";

/* What a case does to the entry at @path (its check line is @path.sum). */
enum change {
	NOTHING,
	SAME_LENGTH, /* other bytes of the same length: only the hash tells */
	CUT,	     /* the first half kept */
	LONGER,	     /* a byte added */
	NO_SUM,	     /* the check line removed */
	SUM_LENGTH,  /* the check line's length changed, its hash kept */
	HUGE_SUM,    /* a check line of 1000 bytes */
	OLD,	     /* written two hours ago */
};

static const struct {
	const char *what;
	enum change change;
	gint64 max_age;
	gboolean hit;
} cases[] = {
    {"a whole entry is returned", NOTHING, 3600, TRUE},
    {"an entry of any age, when the age does not matter", OLD, -1, TRUE},
    {"an entry older than the limit is not", OLD, 3600, FALSE},
    {"other bytes of the same length are not (the SHA-256 differs)",
     SAME_LENGTH, 3600, FALSE},
    {"a cut entry is not", CUT, 3600, FALSE},
    {"a longer entry is not", LONGER, 3600, FALSE},
    {"an entry without its check line is not", NO_SUM, 3600, FALSE},
    {"an entry whose check line has another length is not", SUM_LENGTH, 3600,
     FALSE},
    {"an entry whose check line is 1000 bytes is not", HUGE_SUM, 3600, FALSE},
};

static void
set(const char *path, const char *data, gssize len)
{
	if (!g_file_set_contents(path, data, len, NULL))
		printf("# cannot write '%s'\n", path);
}

static void
apply(enum change change, const char *path)
{
	g_autofree char *spath = g_strconcat(path, ".sum", NULL);
	g_autofree char *sum = NULL, *other = g_strdup(stored), *more = NULL;
	struct utimbuf old;
	char big[1001];

	switch (change) {
	case NOTHING:
		break;
	case SAME_LENGTH:
		other[sizeof(stored) / 2] ^= 0x20;
		set(path, other, sizeof(stored) - 1);
		break;
	case CUT:
		set(path, stored, (sizeof(stored) - 1) / 2);
		break;
	case LONGER:
		more = g_strconcat(stored, "!", NULL);
		set(path, more, -1);
		break;
	case NO_SUM:
		g_unlink(spath);
		break;
	case SUM_LENGTH:
		if (g_file_get_contents(spath, &sum, NULL, NULL)) {
			more = g_strconcat("1", sum, NULL);
			set(spath, more, -1);
		}
		break;
	case HUGE_SUM:
		memset(big, '0', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		set(spath, big, -1);
		break;
	case OLD:
		old.actime = old.modtime = time(NULL) - 2 * 3600;
		g_utime(path, &old);
		break;
	}
}

int
main(void)
{
	g_autofree char *dir = g_dir_make_tmp("lore-am-unit.XXXXXX", NULL);
	struct cache c = {.dir = dir};
	GError *err = NULL;
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *path = cache_path(&c, KEY);
		GBytes *got;

		c.max_age = cases[i].max_age;
		if (!cache_put(&c, KEY, stored, sizeof(stored) - 1, &err)) {
			printf("# %s\n", err->message);
			g_clear_error(&err);
		}
		apply(cases[i].change, path);
		got = cache_get(&c, KEY);
		if (cases[i].hit)
			tap_ok(got &&
				   g_bytes_get_size(got) ==
				       sizeof(stored) - 1 &&
				   !memcmp(g_bytes_get_data(got, NULL), stored,
					   sizeof(stored) - 1),
			       "%s", cases[i].what);
		else
			tap_ok(!got, "%s", cases[i].what);
		if (got)
			g_bytes_unref(got);
		cache_drop(&c, KEY);
	}
	/* cache_drop() removes both files: the folder is left empty */
	tap_ok(!g_rmdir(dir), "cache_drop leaves nothing behind");
	return tap_done();
}
