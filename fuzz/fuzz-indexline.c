/*
 * fuzz-indexline.c - a revision's pre-images read from its patches' diff
 * headers (git/preimage.h: the index, mode, rename and ---/+++ lines), the
 * reader --range-diff builds a base from when no commit fits, on any
 * mbox: every file it lists is one a temporary index can take as it is.
 */
#include "fuzz.h"

#include "git/preimage.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

/* what update-index and cat-file are given: a relative name without an
 * empty, ".", ".." or ".git" folder or a control byte */
static void
check_path(const char *p)
{
	g_auto(GStrv) parts = g_strsplit(p, "/", -1);
	const char *c;
	guint i;

	fuzz_assert(*p && *p != '/');
	for (c = p; *c; c++)
		fuzz_assert((guchar)*c >= 0x20 && *c != 0x7f);
	for (i = 0; parts[i]; i++)
		fuzz_assert(*parts[i] && strcmp(parts[i], ".") &&
			    strcmp(parts[i], "..") &&
			    g_ascii_strcasecmp(parts[i], ".git"));
}

static void
check_file(const struct preimage *f, GHashTable *paths)
{
	size_t n = strlen(f->pre);

	check_path(f->path);
	/* one blob a file: no path twice */
	fuzz_assert(g_hash_table_add(paths, f->path));
	fuzz_assert(n >= 7 && n <= 64);
	fuzz_assert(strspn(f->pre, "0123456789abcdef") == n);
	fuzz_assert(strspn(f->pre, "0") < n);
	fuzz_assert(!strcmp(f->mode, "100644") || !strcmp(f->mode, "100755") ||
		    !strcmp(f->mode, "120000"));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GString *mbox = g_string_new_len((const char *)data, size);
	GHashTable *paths = g_hash_table_new(g_str_hash, g_str_equal);
	struct preimage_set set, again;
	gboolean ok = preimage_read(mbox, &set), ok2;
	guint i;

	fuzz_assert(set.files->len <= set.sections &&
		    set.files->len <= PREIMAGE_FILES_MAX);
	fuzz_assert(set.indexed <= set.sections);
	fuzz_assert(ok == (set.refused == NULL));
	if (set.refused) {
		const char *c;

		fuzz_assert(g_utf8_validate(set.refused, -1, NULL));
		for (c = set.refused; *c; c++)
			fuzz_assert((guchar)*c >= 0x20 && *c != 0x7f);
	}
	for (i = 0; i < set.files->len; i++)
		check_file(set.files->pdata[i], paths);
	/* the same bytes read again say the same */
	ok2 = preimage_read(mbox, &again);
	fuzz_assert(ok2 == ok && again.files->len == set.files->len);
	preimage_clear(&again);
	preimage_clear(&set);
	g_hash_table_destroy(paths);
	g_string_free(mbox, TRUE);
	return 0;
}
