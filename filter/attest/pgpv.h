/*
 * pgpv.h - OpenPGP signatures checked with GPGME (the library GMime links
 * already; its functions are looked up on first use, so a run without an
 * OpenPGP-signed patch never starts gpg). A key from a keyring file is
 * imported into a GnuPG home of our own, made for it and removed at the
 * end, so that it vouches for its own signatures only; without one the
 * user's GnuPG home (GNUPGHOME, else ~/.gnupg) is asked.
 *
 * Ownership: struct pgpv owns its scratch homes; the caller owns what
 * pgpv_verify() returns in *@plain (g_bytes_unref).
 */
#ifndef LORE_PGPV_H
#define LORE_PGPV_H

#include <glib.h>

enum pgpv_result {
	PGPV_GOOD,  /* a good signature, *plain is what was signed */
	PGPV_BAD,   /* the signature does not hold (or the key expired) */
	PGPV_NOKEY, /* no key to check it with */
};

struct pgpv;

/* NULL and @err set when GPGME cannot be loaded. @scratch: a folder of
 * the caller's in which the homes are made. */
struct pgpv *pgpv_new(const char *scratch, GError **err);
void pgpv_free(struct pgpv *v);

/*
 * Check the signed OpenPGP message @sig (binary, as patatt's b= holds it,
 * the signed data inside) with @key (armored or binary key data from a
 * keyring file; NULL: the user's keys). On PGPV_GOOD, *@plain is the data
 * and *@when the signing time. *@why says what failed otherwise (static).
 */
enum pgpv_result pgpv_verify(struct pgpv *v, GBytes *key, const guchar *sig,
			     gsize siglen, GBytes **plain, gint64 *when,
			     const char **why);

#endif
