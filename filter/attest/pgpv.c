/*
 * pgpv.c - patatt's OpenPGP signatures (an opaque signed message, as
 * `gpg --sign` makes it, holding the header digest) checked with GPGME,
 * as patatt does with gpg: a good signature (GOODSIG) passes whatever the
 * key's trust; an expired or revoked key, or a bad signature, fails.
 */
#include "attest/pgpv.h"
#include "core/util.h"

#include <gpgme.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the soname of GPGME 1.x, the one GMime 3 links */
#define PGPV_LIB "libgpgme.so.11"

static struct {
	const char *(*check_version)(const char *);
	__typeof__(gpgme_new) *new;
	__typeof__(gpgme_release) *release;
	__typeof__(gpgme_set_protocol) *set_protocol;
	__typeof__(gpgme_ctx_set_engine_info) *set_engine_info;
	__typeof__(gpgme_data_new) *data_new;
	__typeof__(gpgme_data_new_from_mem) *data_new_from_mem;
	__typeof__(gpgme_data_release) *data_release;
	__typeof__(gpgme_data_release_and_get_mem) *data_release_and_get_mem;
	__typeof__(gpgme_free) *free;
	__typeof__(gpgme_op_verify) *op_verify;
	__typeof__(gpgme_op_verify_result) *op_verify_result;
	__typeof__(gpgme_op_import) *op_import;
	__typeof__(gpgme_op_import_result) *op_import_result;
} lib;

/* clang-format off */
static const struct lore_sym syms[] = {
	{ "gpgme_check_version", (gpointer *)&lib.check_version },
	{ "gpgme_new", (gpointer *)&lib.new },
	{ "gpgme_release", (gpointer *)&lib.release },
	{ "gpgme_set_protocol", (gpointer *)&lib.set_protocol },
	{ "gpgme_ctx_set_engine_info", (gpointer *)&lib.set_engine_info },
	{ "gpgme_data_new", (gpointer *)&lib.data_new },
	{ "gpgme_data_new_from_mem", (gpointer *)&lib.data_new_from_mem },
	{ "gpgme_data_release", (gpointer *)&lib.data_release },
	{ "gpgme_data_release_and_get_mem",
	  (gpointer *)&lib.data_release_and_get_mem },
	{ "gpgme_free", (gpointer *)&lib.free },
	{ "gpgme_op_verify", (gpointer *)&lib.op_verify },
	{ "gpgme_op_verify_result", (gpointer *)&lib.op_verify_result },
	{ "gpgme_op_import", (gpointer *)&lib.op_import },
	{ "gpgme_op_import_result", (gpointer *)&lib.op_import_result },
};

static struct lore_lib libgpgme = { .soname = PGPV_LIB,
				    .syms = syms,
				    .n = G_N_ELEMENTS(syms) };
/* clang-format on */

struct pgpv {
	char *scratch;
	GHashTable *homes; /* key data (GBytes) -> GnuPG home made for it */
	guint made;
};

struct pgpv *
pgpv_new(const char *scratch, GError **err)
{
	struct pgpv *v;

	if (!lore_lib_need(&libgpgme)) {
		g_set_error(err, LORE_ERROR, LORE_ETEMP, "cannot load %s: %s",
			    PGPV_LIB, libgpgme.failed);
		return NULL;
	}
	/* GPGME's rule: asked once before any other call */
	lib.check_version(NULL);
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

	if (lib.new(&ctx))
		return NULL;
	if (lib.set_protocol(ctx, GPGME_PROTOCOL_OpenPGP) ||
	    (home &&
	     lib.set_engine_info(ctx, GPGME_PROTOCOL_OpenPGP, NULL, home))) {
		lib.release(ctx);
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
		if (!lib.data_new_from_mem(&data, g_bytes_get_data(key, NULL),
					   g_bytes_get_size(key), 0)) {
			ok = !lib.op_import(ctx, data) &&
			     (r = lib.op_import_result(ctx)) &&
			     r->imported + r->unchanged > 0;
			lib.data_release(data);
		}
		lib.release(ctx);
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
	if (lib.data_new_from_mem(&sd, (const char *)sig, siglen, 0) ||
	    lib.data_new(&out)) {
		*why = "gpg could not start";
		goto done;
	}
	lib.op_verify(ctx, sd, NULL, out);
	r = lib.op_verify_result(ctx);
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
	buf = lib.data_release_and_get_mem(out, &n);
	out = NULL;
	*plain = g_bytes_new(buf, buf ? n : 0);
	lib.free(buf);
	res = PGPV_GOOD;
done:
	if (sd)
		lib.data_release(sd);
	if (out)
		lib.data_release(out);
	lib.release(ctx);
	return res;
}
