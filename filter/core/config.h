/*
 * config.h - settings users keep in git config: section "lore-am", falling
 * back to the matching "b4.*" key so b4 users keep their setup (and to
 * b4's "lore.*" archive keys, read with config_raw()), and the
 * user.name/user.email identity. Read once: from git's files directly when
 * they are in the plain form (gitconfig.h), else with one `git config` call.
 *
 * Ownership: struct config owns its table; values returned are borrowed.
 */
#ifndef LORE_CONFIG_H
#define LORE_CONFIG_H

#include <glib.h>

struct config {
	GHashTable *vals; /* "section.key" (lower case) -> last value */
};

/* Never fails: without git or a config the table is just empty. */
struct config *config_load(void);

/* The same table, always from a `git config` call (tests compare both). */
struct config *config_load_git(void);
void config_free(struct config *c);

/* "lore-am.KEY", else "b4.B4KEY" (when @b4key is not NULL), else NULL. */
const char *config_get(struct config *c, const char *key, const char *b4key);

/* A raw "section.key" lookup. */
const char *config_raw(struct config *c, const char *fullkey);

/* git's boolean: "true", "yes", "on" or a non-zero number; NULL is FALSE. */
gboolean config_bool(const char *value);

#endif
