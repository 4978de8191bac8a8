/*
 * sshv.h - patatt's OpenSSH signatures (a=openssh-sha256): b= is an
 * SSHSIG blob that `ssh-keygen -Y sign -n patatt` made over the 32-byte
 * SHA-256 of the signed headers, checked as patatt checks it, by
 * `ssh-keygen -Y verify` with the keyring's public key as the only
 * allowed signer (every key type OpenSSH knows: ed25519, RSA, ECDSA,
 * security keys). Nothing from the mail reaches ssh-keygen but the
 * signature's bytes, encoded again here; the key line is checked before
 * it is written into the allowed-signers file.
 *
 * Ownership: nothing is kept; the files made in @scratch are removed
 * before sshv_verify() returns; the caller owns its data.
 */
#ifndef LORE_SSHV_H
#define LORE_SSHV_H

#include <glib.h>

/* the largest signature checked (an RSA key of 16 384 bits signs in 2 KiB) */
#define SSHV_MAX_SIG (16 * 1024)

/* Is ssh-keygen on PATH? FALSE with @err set when not: OpenSSH signatures
 * are then not checked. patatt.c asks once a run. */
gboolean sshv_load(GError **err);

/*
 * Does @sig (@siglen bytes, b= decoded: an SSHSIG blob) sign the 32 bytes
 * @digest in namespace "patatt" with @key, a keyring file holding one
 * OpenSSH public key line ("ssh-ed25519 AAAA... comment")? Files are made
 * in the folder @scratch and removed. *@why says what failed otherwise
 * (static).
 */
gboolean sshv_verify(const char *scratch, GBytes *key, const guchar *sig,
		     gsize siglen, const guint8 *digest, const char **why);

/* The key type and base64 blob of the public key line @text (@len bytes)
 * when it is one OpenSSH would take (a known type whose blob names the
 * same type; no option, no second line): both g_free'd by the caller. */
gboolean sshv_key_line(const char *text, gsize len, char **type, char **b64);

#endif
