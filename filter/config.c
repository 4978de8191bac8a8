/*
 * config.c - `git config -z --get-regexp` output ("key\nvalue\0" records)
 * read into a table. Spawning git once (about a millisecond) keeps every
 * git config rule (includes, conditional includes, GIT_CONFIG_*) right.
 */
#include "config.h"

#include <string.h>

struct config *
config_load(void)
{
	struct config *c = g_new0(struct config, 1);
	const char *argv[] = { "git", "config", "-z", "--get-regexp",
			       "^(lore-am|b4|user)\\.", NULL };
	g_autofree char *out = NULL;
	gsize len = 0;
	char *p, *end;
	gint status = 0;

	c->vals = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (!g_spawn_sync(NULL, (char **)argv, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL |
				  G_SPAWN_CHILD_INHERITS_STDIN,
			  NULL, NULL, &out, NULL, &status, NULL) || !out)
		return c;
	len = strlen(out);
	/* -z output may hold NULs: walk by records, not by strlen */
	(void)len;
	p = out;
	end = out;
	/* g_spawn_sync gives no length; records end at NUL, the list at
	 * the first empty record */
	while (*p) {
		char *nl = strchr(p, '\n');
		char *key, *val;

		end = p + strlen(p);
		if (nl && nl < end) {
			key = g_ascii_strdown(p, nl - p);
			val = g_strdup(nl + 1);
		} else {
			key = g_ascii_strdown(p, -1);
			val = g_strdup("true"); /* "[x] key" without value */
		}
		g_hash_table_replace(c->vals, key, val);
		p = end + 1;
	}
	return c;
}

void
config_free(struct config *c)
{
	if (!c)
		return;
	g_hash_table_destroy(c->vals);
	g_free(c);
}

const char *
config_raw(struct config *c, const char *fullkey)
{
	g_autofree char *k = g_ascii_strdown(fullkey, -1);

	return g_hash_table_lookup(c->vals, k);
}

const char *
config_get(struct config *c, const char *key, const char *b4key)
{
	g_autofree char *k = g_strconcat("lore-am.", key, NULL);
	const char *v = config_raw(c, k);

	if (!v && b4key) {
		g_autofree char *b = g_strconcat("b4.", b4key, NULL);

		v = config_raw(c, b);
	}
	return v;
}

gboolean
config_bool(const char *value)
{
	if (!value)
		return FALSE;
	if (!g_ascii_strcasecmp(value, "true") ||
	    !g_ascii_strcasecmp(value, "yes") ||
	    !g_ascii_strcasecmp(value, "on"))
		return TRUE;
	return g_ascii_strtoll(value, NULL, 10) != 0;
}
