/*
 * edv.c - patatt's ed25519 signatures (RFC 8032 through libsodium's
 * crypto_sign_verify_detached): the key file is base64 text, as patatt
 * genkey writes it; b= carries the signature followed by the SHA-256 it
 * signs, which must be the one computed here.
 */
#include "attest/edv.h"
#include "core/util.h"

#include <sodium.h>
#include <string.h>

/* the soname of libsodium 1.0.18 */
#define EDV_LIB "libsodium.so.23"

static struct {
	__typeof__(sodium_init) *init;
	__typeof__(crypto_sign_verify_detached) *verify;
} lib;

/* clang-format off */
static const struct lore_sym syms[] = {
	{ "sodium_init", (gpointer *)&lib.init },
	{ "crypto_sign_verify_detached", (gpointer *)&lib.verify },
};

static struct lore_lib libsodium = { .soname = EDV_LIB,
				     .syms = syms,
				     .n = G_N_ELEMENTS(syms) };
/* clang-format on */

gboolean
edv_available(void)
{
	static int ok; /* 0 not asked, 1 yes, -1 no */

	if (!ok)
		ok = lore_lib_need(&libsodium) && lib.init() >= 0 ? 1 : -1;
	return ok > 0;
}

gboolean
edv_verify(GBytes *key, const guchar *sig, gsize siglen, const guint8 *digest,
	   const char **why)
{
	g_autofree char *text =
	    g_strndup(g_bytes_get_data(key, NULL), g_bytes_get_size(key));
	g_autofree guchar *pk = NULL;
	gsize pklen = 0;

	pk = g_base64_decode(g_strstrip(text), &pklen);
	if (pklen != 32) {
		*why = "the keyring's ed25519 key is not one";
		return FALSE;
	}
	if (siglen != 64 + 32 || lib.verify(sig, sig + 64, 32, pk) != 0 ||
	    memcmp(sig + 64, digest, 32)) {
		*why = "the signature does not match";
		return FALSE;
	}
	return TRUE;
}
