/*
 * pgpv.c - patatt's OpenPGP signatures (an opaque signed message, as
 * `gpg --sign` makes it, holding the header digest) checked with GPGME,
 * as patatt does with gpg: a good signature (GOODSIG) passes whatever the
 * key's trust; an expired or revoked key, or a bad signature, fails.
 */
#include "attest/pgpv.h"
#include "core/dynlib.h"
#include "core/util.h"

#include <gpgme.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * GPGME, loaded on first use (core/dynlib.h): a run without an
 * OpenPGP-signed patch never starts gpg. The code below calls it by its
 * own names, each a call through gpgmelib's pointers, once pgpv_new() has
 * loaded it; gpgme_check_version() is GPGME's macro, which passes the
 * layout of its structs to gpgme_check_version_internal().
 */
#define GPGMELIB_FUNCTIONS(X, lib)                                             \
	X(lib, gpgme_check_version_internal)                                   \
	X(lib, gpgme_new)                                                      \
	X(lib, gpgme_release)                                                  \
	X(lib, gpgme_set_protocol)                                             \
	X(lib, gpgme_ctx_set_engine_info)                                      \
	X(lib, gpgme_data_new)                                                 \
	X(lib, gpgme_data_new_from_mem)                                        \
	X(lib, gpgme_data_release)                                             \
	X(lib, gpgme_data_release_and_get_mem)                                 \
	X(lib, gpgme_free)                                                     \
	X(lib, gpgme_op_verify)                                                \
	X(lib, gpgme_op_verify_result)                                         \
	X(lib, gpgme_op_import)                                                \
	X(lib, gpgme_op_import_result)

static struct gpgmelib {
	struct dynlib dl;
	GPGMELIB_FUNCTIONS(DYNLIB_POINTER, _)
} gpgmelib;

static const struct dynlib_sym syms[] = {
    GPGMELIB_FUNCTIONS(DYNLIB_SYM, gpgmelib)};

/* the soname of GPGME 1.x, the one GMime 3 links */
static struct gpgmelib gpgmelib = {.dl = DYNLIB_INIT("libgpgme.so.11", syms)};

#define GPGMELIB_CALL(f) DYNLIB_CALL(gpgmelib, f)
#define gpgme_check_version_internal GPGMELIB_CALL(gpgme_check_version_internal)
#define gpgme_new GPGMELIB_CALL(gpgme_new)
#define gpgme_release GPGMELIB_CALL(gpgme_release)
#define gpgme_set_protocol GPGMELIB_CALL(gpgme_set_protocol)
#define gpgme_ctx_set_engine_info GPGMELIB_CALL(gpgme_ctx_set_engine_info)
#define gpgme_data_new GPGMELIB_CALL(gpgme_data_new)
#define gpgme_data_new_from_mem GPGMELIB_CALL(gpgme_data_new_from_mem)
#define gpgme_data_release GPGMELIB_CALL(gpgme_data_release)
#define gpgme_data_release_and_get_mem                                         \
	GPGMELIB_CALL(gpgme_data_release_and_get_mem)
#define gpgme_free GPGMELIB_CALL(gpgme_free)
#define gpgme_op_verify GPGMELIB_CALL(gpgme_op_verify)
#define gpgme_op_verify_result GPGMELIB_CALL(gpgme_op_verify_result)
#define gpgme_op_import GPGMELIB_CALL(gpgme_op_import)
#define gpgme_op_import_result GPGMELIB_CALL(gpgme_op_import_result)

struct pgpv {
	char *scratch;
	GHashTable *homes; /* key data (GBytes) -> GnuPG home made for it */
	guint made;
};

struct pgpv *
pgpv_new(const char *scratch, GError **err)
{
	struct pgpv *v;

	if (!dynlib_load(&gpgmelib.dl, err))
		return NULL;
	/* GPGME's rule: asked once before any other call */
	gpgme_check_version(NULL);
	v = g_new0(struct pgpv, 1);
	v->scratch = g_strdup(scratch);
	v->homes = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
					 (GDestroyNotify)g_bytes_unref, g_free);
	return v;
}

/* A GnuPG home holds sub-folders and sockets: remove the whole tree. */
static void
remove_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *sub = g_build_filename(path, name, NULL);

		if (g_file_test(sub, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(sub, G_FILE_TEST_IS_SYMLINK))
			remove_tree(sub);
		else
			unlink(sub);
	}
	if (d)
		g_dir_close(d);
	rmdir(path);
}

static void
remove_home(gpointer key, gpointer home, gpointer unused)
{
	if (home)
		remove_tree(home);
}

void
pgpv_free(struct pgpv *v)
{
	if (!v)
		return;
	g_hash_table_foreach(v->homes, remove_home, NULL);
	g_hash_table_unref(v->homes);
	g_free(v->scratch);
	g_free(v);
}

static gpgme_ctx_t
context(const char *home)
{
	gpgme_ctx_t ctx;

	if (gpgme_new(&ctx))
		return NULL;
	if (gpgme_set_protocol(ctx, GPGME_PROTOCOL_OpenPGP) ||
	    (home && gpgme_ctx_set_engine_info(ctx, GPGME_PROTOCOL_OpenPGP,
					       NULL, home))) {
		gpgme_release(ctx);
		return NULL;
	}
	return ctx;
}

/* The home holding @key alone, made on first use; NULL if gpg took no
 * key from it. */
static const char *
home_for(struct pgpv *v, GBytes *key)
{
	g_autofree char *home = NULL;
	gpgme_import_result_t r;
	gpgme_data_t data;
	gpgme_ctx_t ctx;
	gboolean ok = FALSE;

	if (g_hash_table_contains(v->homes, key))
		return g_hash_table_lookup(v->homes, key);
	home = g_strdup_printf("%s/gnupg-%u", v->scratch, v->made++);
	if (mkdir(home, 0700) == 0 && (ctx = context(home))) {
		if (!gpgme_data_new_from_mem(&data, g_bytes_get_data(key, NULL),
					     g_bytes_get_size(key), 0)) {
			ok = !gpgme_op_import(ctx, data) &&
			     (r = gpgme_op_import_result(ctx)) &&
			     r->imported + r->unchanged > 0;
			gpgme_data_release(data);
		}
		gpgme_release(ctx);
	}
	g_hash_table_insert(v->homes, g_bytes_ref(key), g_strdup(home));
	if (!ok) {
		remove_tree(home);
		g_hash_table_replace(v->homes, g_bytes_ref(key), NULL);
	}
	return g_hash_table_lookup(v->homes, key);
}

enum pgpv_result
pgpv_verify(struct pgpv *v, GBytes *key, const guchar *sig, gsize siglen,
	    GBytes **plain, gint64 *when, const char **why)
{
	const char *home = NULL;
	gpgme_data_t sd = NULL, out = NULL;
	gpgme_verify_result_t r;
	gpgme_ctx_t ctx;
	enum pgpv_result res = PGPV_BAD;
	gpgme_err_code_t code;
	char *buf;
	size_t n;

	*plain = NULL;
	*why = "the signature does not match";
	if (key && !(home = home_for(v, key))) {
		*why = "the keyring's OpenPGP key cannot be read";
		return PGPV_BAD;
	}
	if (!(ctx = context(home))) {
		*why = "gpg could not start";
		return PGPV_BAD;
	}
	if (gpgme_data_new_from_mem(&sd, (const char *)sig, siglen, 0) ||
	    gpgme_data_new(&out)) {
		*why = "gpg could not start";
		goto done;
	}
	gpgme_op_verify(ctx, sd, NULL, out);
	r = gpgme_op_verify_result(ctx);
	if (!r || !r->signatures)
		goto done;
	code = gpgme_err_code(r->signatures->status);
	if (code == GPG_ERR_NO_PUBKEY) {
		*why = key ? "the signer is not the keyring's key"
			   : "no OpenPGP key in the GnuPG keyring";
		res = key ? PGPV_BAD : PGPV_NOKEY;
		goto done;
	}
	if (code != GPG_ERR_NO_ERROR) {
		*why =
		    code == GPG_ERR_KEY_EXPIRED || code == GPG_ERR_CERT_REVOKED
			? "the key expired or was revoked"
			: "the signature does not match";
		goto done;
	}
	*when = r->signatures->timestamp;
	buf = gpgme_data_release_and_get_mem(out, &n);
	out = NULL;
	*plain = g_bytes_new(buf, buf ? n : 0);
	gpgme_free(buf);
	res = PGPV_GOOD;
done:
	if (sd)
		gpgme_data_release(sd);
	if (out)
		gpgme_data_release(out);
	gpgme_release(ctx);
	return res;
}
