/*
 * applied.c - the patch-ids of HEAD's recent history (applied.h): `git log
 * -p` piped into `git patch-id --stable` by sh (two programs, one pass,
 * nothing held but the ids), within gitrun_bounded()'s time and output
 * bounds. The diff is asked in git's own default form whatever the user's
 * config says (no color, no external diff or textconv, the a/ b/
 * prefixes), so that it is the diff `git format-patch` mailed; merges
 * are skipped, as their diff is no patch anyone sent.
 */
#include "git/applied.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/* the whole pass, however large the history: then it is cut */
#define APPLIED_TIMEOUT 600
/* "PATCHID COMMITID\n", SHA-256 ids at most */
#define APPLIED_LINE 130

/* @base as a commit of this repository, or FALSE with @err */
static gboolean
base_known(const char *base, GError **err)
{
	g_autofree char *spec = g_strdup_printf("%s^{commit}", base);
	const char *const argv[] = {"rev-parse", "-q", "--verify", spec, NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	int st = gitrun(NULL, argv, NULL, 0, out, e, NULL);

	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	if (st == 0)
		return TRUE;
	{
		g_autofree char *b = lore_term_safe(base, -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "base %s is not a commit here", b);
	}
	return FALSE;
}

/* "PID CID" lines into @ids (patch-id -> commit, the newest first seen) */
static void
read_ids(const GString *out, GHashTable *ids)
{
	size_t pos = 0, n;
	const char *l;

	while (lore_next_line(out->str, out->len, &pos, &l, &n)) {
		const char *sp = memchr(l, ' ', n);
		size_t a = sp ? (size_t)(sp - l) : 0, b = sp ? n - a - 1 : 0;

		/* git's errors share the pipe: only id lines count */
		if (a < 40 || a > 64 || b < 40 || b > 64 ||
		    strspn(l, "0123456789abcdef") != a ||
		    strspn(sp + 1, "0123456789abcdef") < b)
			continue;
		{
			char *pid = g_strndup(l, a);

			if (g_hash_table_contains(ids, pid))
				g_free(pid);
			else
				g_hash_table_insert(ids, pid,
						    g_strndup(sp + 1, b));
		}
	}
}

int
applied_find(const char *const *ids, gsize n, const char *base, guint lookback,
	     char **found, GError **err)
{
	static const char script[] =
	    "git -c diff.noprefix=false -c diff.mnemonicPrefix=false "
	    "log -p --no-merges --no-color --no-ext-diff --no-textconv "
	    "--format='commit %H' \"$@\" | git patch-id --stable";
	g_autofree char *max = g_strdup_printf("--max-count=%u", lookback);
	g_autofree char *range =
	    base ? g_strdup_printf("%s..HEAD", base) : g_strdup("HEAD");
	const char *const argv[] = {"sh", "-c",	 script, "sh",
				    max,  range, "--",	 NULL};
	struct gitrun_bound b = {0};
	GHashTable *have;
	GString *out;
	gsize i;
	int st;

	for (i = 0; i < n; i++)
		found[i] = NULL;
	if (!n || !lookback)
		return LORE_OK;
	if (base && !base_known(base, err))
		return LORE_ENOTFOUND;
	b.timeout = APPLIED_TIMEOUT;
	b.keep = (gsize)lookback * APPLIED_LINE + 65536;
	out = g_string_new(NULL);
	st = gitrun_bounded(NULL, argv, NULL, 0, out, &b, err);
	if (st != 0) {
		g_autofree char *why = gitrun_first_line(out->str);
		g_autofree char *safe = lore_term_safe(why, -1);

		g_string_free(out, TRUE);
		if (st > 0)
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "git patch-id failed: %s", safe);
		return LORE_ENOTFOUND;
	}
	have = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	read_ids(out, have);
	for (i = 0; i < n; i++) {
		const char *c =
		    ids[i] ? g_hash_table_lookup(have, ids[i]) : NULL;

		found[i] = g_strdup(c);
	}
	g_hash_table_destroy(have);
	g_string_free(out, TRUE);
	return LORE_OK;
}
