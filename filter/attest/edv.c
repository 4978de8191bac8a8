/*
 * edv.c - patatt's ed25519 signatures (RFC 8032 through libsodium's
 * crypto_sign_verify_detached): the key file is base64 text, as patatt
 * genkey writes it; b= carries the signature followed by the SHA-256 it
 * signs, which must be the one computed here.
 */
#include "attest/edv.h"
#include "core/dynlib.h"

#include <sodium.h>
#include <string.h>

/*
 * libsodium, loaded on first use (core/dynlib.h): a run without an ed25519
 * signature never maps it. The code below calls it by its own names, each
 * a call through sodiumlib's pointers, once edv_load() has loaded it.
 */
#define SODIUMLIB_FUNCTIONS(X, lib)                                            \
	X(lib, sodium_init)                                                    \
	X(lib, crypto_sign_verify_detached)

static struct sodiumlib {
	struct dynlib dl;
	SODIUMLIB_FUNCTIONS(DYNLIB_POINTER, _)
	int ready; /* sodium_init(): 0 not asked, 1 done, -1 failed */
} sodiumlib;

static const struct dynlib_sym syms[] = {
    SODIUMLIB_FUNCTIONS(DYNLIB_SYM, sodiumlib)};

/* the soname of libsodium 1.0.18 */
static struct sodiumlib sodiumlib = {.dl =
					 DYNLIB_INIT("libsodium.so.23", syms)};

#define SODIUMLIB_CALL(f) DYNLIB_CALL(sodiumlib, f)
#define sodium_init SODIUMLIB_CALL(sodium_init)
#define crypto_sign_verify_detached SODIUMLIB_CALL(crypto_sign_verify_detached)

gboolean
edv_load(GError **err)
{
	if (!dynlib_load(&sodiumlib.dl, err))
		return FALSE;
	/* libsodium's rule: once before any other call */
	if (!sodiumlib.ready)
		sodiumlib.ready = sodium_init() >= 0 ? 1 : -1;
	if (sodiumlib.ready > 0)
		return TRUE;
	g_set_error_literal(err, DYNLIB_ERROR, DYNLIB_ERROR_MISSING,
			    "libsodium could not start");
	return FALSE;
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
	if (siglen != 64 + 32 ||
	    crypto_sign_verify_detached(sig, sig + 64, 32, pk) != 0 ||
	    memcmp(sig + 64, digest, 32)) {
		*why = "the signature does not match";
		return FALSE;
	}
	return TRUE;
}
