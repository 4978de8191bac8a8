/*
 * config.c - the settings table: from git's files when gitconfig.c can read
 * them, else from `git config -z --get-regexp` output ("key\nvalue\0"
 * records). Spawning git keeps every git config rule (includes,
 * conditional includes, GIT_CONFIG_*) right, but costs a process start:
 * as much as a mail filter's own work on a message.
 */
#include "core/config.h"
#include "core/gitconfig.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/* -c NAME=VALUE: "section.key" (lower case) -> value, or NULL: none */
static GHashTable *overrides;

/* The length of NAME's section when @name (@len bytes) is a key of a
 * section lore-am reads, with a key after the last dot; else 0. */
static gsize
override_section(const char *name, gsize len)
{
	static const char *const sections[] = {"lore-am", "b4", "lore", "user"};
	const char *dot = memchr(name, '.', len);
	const char *last = g_strrstr_len(name, len, ".");
	const char *p;
	guint i;

	if (!dot || last + 1 == name + len || !g_ascii_isalpha(last[1]))
		return 0;
	for (p = last + 1; p < name + len; p++)
		if (!g_ascii_isalnum(*p) && *p != '-')
			return 0;
	/* a subsection may hold anything but controls (git's rule) */
	for (p = dot; p < last; p++)
		if ((guchar)*p < ' ' || *p == 0x7f)
			return 0;
	for (i = 0; i < G_N_ELEMENTS(sections); i++)
		if ((gsize)(dot - name) == strlen(sections[i]) &&
		    !g_ascii_strncasecmp(name, sections[i], dot - name))
			return dot - name;
	return 0;
}

gboolean
config_override_like(const char *arg)
{
	const char *eq = strchr(arg, '=');

	return override_section(arg, eq ? (gsize)(eq - arg) : strlen(arg)) > 0;
}

gboolean
config_override(const char *assign, GError **err)
{
	const char *eq = strchr(assign, '=');
	gsize nlen = eq ? (gsize)(eq - assign) : strlen(assign);
	const char *value = eq ? eq + 1 : "true";
	const char *p;

	if (nlen > CONFIG_NAME_MAX || !override_section(assign, nlen)) {
		g_autofree char *s = lore_term_safe(assign, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "-c '%s': not NAME=VALUE with NAME a key of "
			    "lore-am.*, b4.*, lore.* or user.* (section.key)",
			    s);
		return FALSE;
	}
	for (p = value; *p; p++)
		if ((guchar)*p < ' ' && *p != '\t')
			break;
	if (*p || strlen(value) > CONFIG_VALUE_MAX) {
		g_autofree char *s = g_strndup(assign, nlen);
		g_autofree char *n = lore_term_safe(s, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "-c %s: the value is one line of at most %d bytes",
			    n, CONFIG_VALUE_MAX);
		return FALSE;
	}
	if (!overrides)
		overrides = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, g_free);
	if (g_hash_table_size(overrides) >= CONFIG_OVERRIDES_MAX) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "-c: at most %d settings", CONFIG_OVERRIDES_MAX);
		return FALSE;
	}
	g_hash_table_replace(overrides, g_ascii_strdown(assign, nlen),
			     g_strdup(value));
	return TRUE;
}

void
config_overrides_free(void)
{
	g_clear_pointer(&overrides, g_hash_table_destroy);
}

static const char *
overridden(const char *key)
{
	return overrides ? g_hash_table_lookup(overrides, key) : NULL;
}

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
	const char *const argv[] = {"config", "-z", "--get-regexp",
				    "^(lore-am|b4|lore|user)\\.", NULL};
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) e = g_string_new(NULL);
	char *p;

	c->vals =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	/* 1 when nothing matches: whatever it printed is the answer */
	if (gitrun(NULL, argv, NULL, 0, out, e, NULL) < 0)
		return c;
	/* records are "key\nvalue\0"; a key alone means boolean true. The
	 * output ends at its last NUL, and values hold no NUL. */
	for (p = out->str; p < out->str + out->len; p += strlen(p) + 1) {
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
	const char *v = overridden(k);

	return v ? v : g_hash_table_lookup(c->vals, k);
}

const char *
config_get(struct config *c, const char *key, const char *b4key)
{
	g_autofree char *k = g_strconcat("lore-am.", key, NULL);
	g_autofree char *l = g_ascii_strdown(k, -1);
	g_autofree char *c4 = b4key ? g_strconcat("b4.", b4key, NULL) : NULL;
	g_autofree char *b = c4 ? g_ascii_strdown(c4, -1) : NULL;
	const char *v;

	/* -c for either name first: it is this run's setting of the key */
	v = overridden(l);
	if (!v && b)
		v = overridden(b);
	if (!v)
		v = g_hash_table_lookup(c->vals, l);
	if (!v && b)
		v = g_hash_table_lookup(c->vals, b);
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
