/*
 * fuzz-tyjson.c - what lore-am ty reads from files other programs wrote:
 * the tracking file's JSON (tyjson.c), a template filled as Python's
 * Template.safe_substitute fills it, and -t/-d's number ranges, with the
 * invariants the thanks rely on.
 */
#include "fuzz.h"

#include "git/tyfile.h"
#include "git/tyjson.h"
#include "git/tymail.h"

#include <string.h>

/* every string of the tree UTF-8, every object a name per member, no
 * deeper than the bound */
static void
check_tree(const struct tyjson *j, guint depth)
{
	guint i;

	fuzz_assert(depth <= TYJSON_MAX_DEPTH);
	if (j->type == TYJSON_STRING || j->type == TYJSON_NUMBER)
		fuzz_assert(j->str && g_utf8_validate(j->str, -1, NULL));
	if (j->type == TYJSON_OBJECT) {
		fuzz_assert(j->keys->len == j->kids->len);
		for (i = 0; i < j->keys->len; i++)
			fuzz_assert(
			    g_utf8_validate(j->keys->pdata[i], -1, NULL));
	}
	if (j->type == TYJSON_ARRAY || j->type == TYJSON_OBJECT)
		for (i = 0; i < j->kids->len; i++)
			check_tree(j->kids->pdata[i], depth + 1);
	else
		fuzz_assert(!j->kids && !j->keys);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	GError *err = NULL;
	struct tyjson *j = tyjson_parse((const char *)data, size, &err);
	GHashTable *vars;
	GArray *picks;
	char *filled;

	if (j) {
		check_tree(j, 0);
		/* the lookups the thanks make never fail on any shape */
		tyjson_str(tyjson_get(j, "msgid"));
		tyjson_at(tyjson_at(tyjson_get(j, "patches"), 0), 3);
		tyjson_free(j);
	} else {
		fuzz_assert(err && (!strncmp(err->message, "line ", 5) ||
				    size > TYJSON_MAX_BYTES));
		g_error_free(err);
	}

	vars = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_insert(vars, "summary", "S");
	g_hash_table_insert(vars, "x", "");
	filled = tymail_fill(s, vars);
	/* a variable is at least two bytes, its value at most one; text
	 * without '$' stays as it is */
	fuzz_assert(strlen(filled) <= strlen(s));
	fuzz_assert(strchr(s, '$') || !strcmp(filled, s));
	g_free(filled);
	g_hash_table_destroy(vars);

	picks = tyfile_pick(s, 50, NULL);
	if (picks) {
		guint i;

		for (i = 0; i < picks->len; i++)
			fuzz_assert(g_array_index(picks, guint, i) >= 1 &&
				    g_array_index(picks, guint, i) <= 50);
		g_array_free(picks, TRUE);
	}
	return 0;
}
