/*
 * keyring.h - developers' public keys where patatt itself looks for them:
 * each `git config patatt.keyringsrc` entry (a folder, or
 * "ref:REPO:REF:SUBPATH" read from a git repository), then patatt's
 * defaults "ref:::.keys", "ref:::.local-keys" and "ref::refs/meta/keyring:"
 * of the current repository, then $XDG_DATA_HOME/patatt/public (patatt
 * genkey puts the user's own keys there) and b4's keyring folder. Inside a
 * source a key lives at ALGO/DOMAIN/LOCALPART/SELECTOR.
 *
 * Ownership: struct keyring owns its sources and a cache of the keys
 * found; keyring_find() returns a new reference (g_bytes_unref).
 */
#ifndef LORE_KEYRING_H
#define LORE_KEYRING_H

#include <glib.h>

struct keyring;

/* Nothing is read yet: git is asked on the first keyring_find(). */
struct keyring *keyring_new(void);
void keyring_free(struct keyring *k);

/*
 * The key file for @algo ("ed25519", "openpgp"), @identity (LOCAL@DOMAIN)
 * and @selector, from the first source that has it, or NULL. Each key is
 * looked for once a run.
 */
GBytes *keyring_find(struct keyring *k, const char *algo, const char *identity,
		     const char *selector);

/* patatt's file name rule, exposed for the unit test: "ed25519/DOMAIN/
 * LOCAL/SELECTOR" lower-cased and each part URL-quoted (quote_plus); NULL
 * when @identity has no '@' or a part would be "." or "..". */
char *keyring_key_path(const char *algo, const char *identity,
		       const char *selector);

#endif
