/*
 * config.h - settings users keep in git config: section "lore-am", falling
 * back to the matching "b4.*" key so b4 users keep their setup (and to
 * b4's "lore.*" archive keys, read with config_raw()), and the
 * user.name/user.email identity. Read once: from git's files directly when
 * they are in the plain form (gitconfig.h), else with one `git config` call.
 *
 * Above them all, for one run: b4's -c NAME=VALUE (config_override()),
 * kept for the process and consulted by every table loaded.
 *
 * Ownership: struct config owns its table; values returned are borrowed.
 * The overrides are this module's until config_overrides_free().
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

/*
 * b4's -c NAME=VALUE (NAME alone: "true"; NAME=: the empty string): NAME
 * is "section.key" (or "section.sub.key") of a section lore-am reads
 * (lore-am, b4, lore, user), at most CONFIG_NAME_MAX bytes; VALUE one line
 * of at most CONFIG_VALUE_MAX; at most CONFIG_OVERRIDES_MAX of them.
 * Set for the rest of the process, above every git config file: an
 * override of lore-am.KEY or b4.KEY wins over both keys in the files.
 * FALSE with @err set (LORE_EUSAGE) when @assign is not such.
 */
#define CONFIG_NAME_MAX 256
#define CONFIG_VALUE_MAX 4096
#define CONFIG_OVERRIDES_MAX 64
gboolean config_override(const char *assign, GError **err);

/* Is @arg a NAME=VALUE (or a NAME) that config_override() reads as one? */
gboolean config_override_like(const char *arg);

void config_overrides_free(void);

/* git's boolean: "true", "yes", "on" or a non-zero number; NULL is FALSE. */
gboolean config_bool(const char *value);

#endif
