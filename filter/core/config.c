/*
 * config.c - the settings table: from git's files when gitconfig.c can read
 * them, else from `git config -z --get-regexp` output ("key\nvalue\0"
 * records). Spawning git keeps every git config rule (includes,
 * conditional includes, GIT_CONFIG_*) right, but costs a process start:
 * as much as a mail filter's own work on a message.
 */
#include "core/config.h"
#include "core/gitconfig.h"

#include <string.h>

struct config *
config_load(void)
{
	struct config *c = g_new0(struct config, 1);

	c->vals =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (gitconfig_read(c->vals))
		return c;
	config_free(c);
	return config_load_git();
}

struct config *
config_load_git(void)
{
	struct config *c = g_new0(struct config, 1);
	const char *argv[] = {
	    "git", "config", "-z", "--get-regexp", "^(lore-am|b4|lore|user)\\.",
	    NULL};
	g_autofree char *out = NULL;
	gint status = 0;
	char *p;

	c->vals =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (!g_spawn_sync(NULL, (char **)argv, NULL,
			  G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL |
			      G_SPAWN_CHILD_INHERITS_STDIN,
			  NULL, NULL, &out, NULL, &status, NULL) ||
	    !out)
		return c;
	/* records are "key\nvalue\0"; a key alone means boolean true. The
	 * output ends at its last NUL, and values hold no NUL. */
	for (p = out; *p; p += strlen(p) + 1) {
		char *nl = strchr(p, '\n');

		if (nl)
			g_hash_table_replace(c->vals,
					     g_ascii_strdown(p, nl - p),
					     g_strdup(nl + 1));
		else
			g_hash_table_replace(c->vals, g_ascii_strdown(p, -1),
					     g_strdup("true"));
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
