/*
 * edv.h - ed25519 signatures as patatt makes them (PyNaCl's signed
 * message: the 64-byte signature, then the signed data), checked with
 * libsodium, loaded on first use so a run without such a signature never
 * maps it.
 *
 * Ownership: nothing is kept but the library; the caller owns its data.
 */
#ifndef LORE_EDV_H
#define LORE_EDV_H

#include <glib.h>

/* Load libsodium and set it up, once a run; later calls give the first
 * answer. FALSE with @err ("cannot load libsodium.so.23: ...") when it
 * cannot be: ed25519 signatures are then not checked. */
gboolean edv_load(GError **err);

/*
 * Does @sig (@siglen bytes, b= decoded) sign the 32 bytes @digest with
 * @key, a keyring file holding the base64 public key? *@why says what
 * failed otherwise (static).
 */
gboolean edv_verify(GBytes *key, const guchar *sig, gsize siglen,
		    const guint8 *digest, const char **why);

#endif
