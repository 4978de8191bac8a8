/*
 * pullsig.h - the signature of what a pull request fetched, checked by
 * real git as b4 pr checks it: FETCH_HEAD's object is a tag (git
 * verify-tag) or a commit (git verify-commit), and GnuPG's status lines
 * (--raw) say whether it is signed, by which key, and whether that
 * signature holds. Nothing here decides what to do about it: the caller
 * weighs the result against lore-am.attestation-policy.
 *
 * Ownership: struct pullsig owns its strings (pullsig_clear()).
 */
#ifndef LORE_PULLSIG_H
#define LORE_PULLSIG_H

#include <glib.h>

enum pullsig_state {
	PULLSIG_UNSIGNED, /* no signature on the tag or commit */
	PULLSIG_GOOD,	  /* git's verify says good, GnuPG's VALIDSIG */
	PULLSIG_BAD,	  /* a signature that does not hold (BADSIG) */
	PULLSIG_NOKEY,	  /* signed by a key this keyring does not have */
	PULLSIG_UNCHECKED /* signed, but git could not say (no gpg, ...) */
};

struct pullsig {
	enum pullsig_state state;
	gboolean tag; /* FETCH_HEAD is a tag object, not a commit */
	char *keyid;  /* the key GnuPG names, hex, or NULL */
	char *signer; /* the user id of a good signature, terminal-safe */
	char *why;    /* git's last words when UNCHECKED, terminal-safe */
};

/* Check the signature of @rev (FETCH_HEAD after a fetch) in the
 * repository lore-am runs in. Always fills @out. */
void pullsig_check(const char *rev, struct pullsig *out);

/*
 * Read GnuPG's status lines @status (at most its first 64 KiB) into @out
 * as git verify-tag --raw printed them with exit status @rc. Exposed for
 * the unit test and the fuzz harness: the signer's words are hostile.
 */
void pullsig_parse(const char *status, size_t len, int rc, struct pullsig *out);

void pullsig_clear(struct pullsig *s);

#endif
