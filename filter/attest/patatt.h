/*
 * patatt.h - developer signatures (patatt's X-Developer-Signature header,
 * version 1): the sender's own ed25519 key (edv.h: libsodium, loaded on first
 * use), OpenPGP key (pgpv.h) or OpenSSH key (sshv.h: ssh-keygen), looked up
 * in the keyrings of keyring.h, checked on the text patcanon.h makes of the
 * message's bytes as they came from the source.
 *
 * Ownership: struct patatt owns its keyring, its scratch folder and the
 * OpenPGP checker; the array patatt_check() returns is the caller's
 * (g_array_unref frees each entry's strings).
 */
#ifndef LORE_PATATT_H
#define LORE_PATATT_H

#include <glib.h>
#include <stddef.h>

enum patatt_verdict {
	PATATT_PASS,	  /* the signature holds */
	PATATT_BADSIG,	  /* the key is known and the signature fails */
	PATATT_NOKEY,	  /* no key for the identity and selector */
	PATATT_UNCHECKED, /* a library or git missing, algorithm unknown */
};

struct patatt_sig {
	enum patatt_verdict verdict;
	char *algo;	 /* "ed25519", "openpgp", ... terminal-safe */
	char *identity;	 /* i= (else the From address), lower case, safe */
	const char *why; /* a short reason unless it passed, static */
	char *hdrs;	 /* h= as signed (the fields it covers), or NULL */
};

struct patatt;
struct mailinfo;

struct patatt *patatt_new(void);
void patatt_free(struct patatt *p);

/*
 * Check each X-Developer-Signature of the @len bytes at @raw (LF or CRLF
 * line ends). A signature without i= is the From address @from_email's.
 * @mi, lore-am's own reading of the mail (mailinfo.h) or NULL, is tried
 * before `git mailinfo`, which runs only when a signature does not hold
 * on it.
 * One whose t= (or OpenPGP signing time) lies more than @max_days from
 * @date (0: not checked) is bad, like dkimv's. Returns an array of struct
 * patatt_sig, empty when the message is not signed.
 */
GArray *patatt_check(struct patatt *p, const char *raw, size_t len,
		     const char *from_email, const struct mailinfo *mi,
		     gint64 date, guint max_days);

#endif
