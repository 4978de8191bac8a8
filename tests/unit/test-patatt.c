/*
 * patatt's two text rules (table-driven): where a key file lives in a
 * keyring (patatt's make_pkey_path: lower case, each part quote_plus'd, no
 * way out of the keyring) and the header value canonicalization the
 * signature hashes (DKIM relaxed, as patatt applies it).
 */
#include "attest/keyring.h"
#include "attest/patatt.h"
#include "attest/patcanon.h"
#include "tap.h"

static const struct {
	const char *algo, *id, *sel, *path; /* path NULL: refused */
} paths[] = {
    {"ed25519", "dev@example.org", "default",
     "ed25519/example.org/dev/default"},
    {"ed25519", "Dev.One@Example.ORG", "K1", "ed25519/example.org/dev.one/k1"},
    {"openpgp", "a+b@x.org", "20240101", "openpgp/x.org/a%2Bb/20240101"},
    {"ed25519", "a b@x", "s s", "ed25519/x/a+b/s+s"},
    {"ed25519", "a/../b@x", "default", "ed25519/x/a%2F..%2Fb/default"},
    {"ed25519", "..@x", "default", NULL},
    {"ed25519", "dev@..", "default", NULL},
    {"ed25519", "dev@x", "..", NULL},
    {"ed25519", "dev@x", ".", NULL},
    {"ed25519", "dev@x", "", NULL},
    {"ed25519", "@x", "default", NULL},
    {"ed25519", "no-at-sign", "default", NULL},
    {"ed25519", "a@b@c", "s", "ed25519/b%40c/a/s"},
    {"ed25519", "~u@x", "s", "ed25519/x/~u/s"},
    {"ed25519", "\xc3\xa9@x", "s", "ed25519/x/%C3%A9/s"},
};

static const struct {
	const char *in, *out;
} values[] = {
    {" Pat <pat@example.com>", "Pat <pat@example.com>\r\n"},
    {"  a \t b  ", "a b\r\n"},
    {" v=1; a=ed25519-sha256;\n t=1; l=2;\r\n\th=from:subject",
     "v=1; a=ed25519-sha256; t=1; l=2; h=from:subject\r\n"},
    {"split\nword", "splitword\r\n"},
    {"", "\r\n"},
    {" \t\f\v ", "\r\n"},
    {"x\v\fy", "x y\r\n"},
};

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autofree char *p =
		    keyring_key_path(paths[i].algo, paths[i].id, paths[i].sel);

		tap_is_str(p, paths[i].path, "key path of '%s' '%s'",
			   paths[i].id, paths[i].sel);
	}
	for (i = 0; i < G_N_ELEMENTS(values); i++) {
		g_autoptr(GString) s = g_string_new("h:");

		patatt_canon_value(s, values[i].in, strlen(values[i].in));
		tap_is_str(s->str + 2, values[i].out, "canonical value %u", i);
	}
	return tap_done();
}
