/*
 * sshv.c - OpenSSH signatures through `ssh-keygen -Y verify` (sshv.h):
 * the allowed-signers file names one principal, patatt's own
 * "patatter@local", for the namespace "patatt" only; the signature file is
 * the blob armored again (base64 in lines of 70, as ssh-keygen writes
 * it); the digest goes in on stdin. ssh-keygen runs within a time bound,
 * its output bounded, in a process group of its own (gitrun_bounded()).
 */
#include "attest/sshv.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>
#include <unistd.h>

#define SSHV_PRINCIPAL "patatter@local"
#define SSHV_MAX_KEY 8192 /* base64 of a public key: RSA 16 384 is 2.8 KB */

static const char *const key_types[] = {
    "ssh-ed25519",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    NULL,
};

gboolean
sshv_load(GError **err)
{
	g_autofree char *p = g_find_program_in_path("ssh-keygen");

	if (!p)
		g_set_error_literal(err, LORE_ERROR, LORE_ENOTFOUND,
				    "ssh-keygen not found on PATH: OpenSSH "
				    "signatures are not checked");
	return p != NULL;
}

static gboolean
known_type(const char *t)
{
	guint i;

	for (i = 0; key_types[i]; i++)
		if (!strcmp(t, key_types[i]))
			return TRUE;
	return FALSE;
}

/* The blob starts with the SSH string of its type (RFC 4253 6.6). */
static gboolean
blob_names(const char *b64, const char *type)
{
	g_autofree guchar *blob = NULL;
	gsize n = 0;
	guint32 l;

	blob = g_base64_decode(b64, &n);
	if (n < 4)
		return FALSE;
	l = (guint32)blob[0] << 24 | (guint32)blob[1] << 16 |
	    (guint32)blob[2] << 8 | blob[3];
	return l == strlen(type) && l <= n - 4 && !memcmp(blob + 4, type, l);
}

gboolean
sshv_key_line(const char *text, gsize len, char **type, char **b64)
{
	g_autofree char *line = NULL;
	g_auto(GStrv) w = NULL;
	const char *nl = memchr(text, '\n', len);
	gsize i;

	*type = *b64 = NULL;
	/* one line (a second one, but for blank space, is not a key file) */
	if (nl)
		for (i = nl - text; i < len; i++)
			if (!g_ascii_isspace(text[i]))
				return FALSE;
	line = g_strndup(text, nl ? (gsize)(nl - text) : len);
	if (strlen(line) != (nl ? (gsize)(nl - text) : len))
		return FALSE; /* a NUL in it */
	w = g_strsplit_set(g_strstrip(line), " \t", 3);
	if (!w[0] || !w[1] || !known_type(w[0]) || strlen(w[1]) > SSHV_MAX_KEY)
		return FALSE;
	for (i = 0; w[1][i]; i++)
		if (!g_ascii_isalnum(w[1][i]) && !strchr("+/=", w[1][i]))
			return FALSE;
	if (!blob_names(w[1], w[0]))
		return FALSE;
	*type = g_strdup(w[0]);
	*b64 = g_strdup(w[1]);
	return TRUE;
}

static gboolean
write_file(const char *path, const GString *s)
{
	return g_file_set_contents(path, s->str, s->len, NULL);
}

static GString *
armored(const guchar *sig, gsize siglen)
{
	g_autofree char *b64 = g_base64_encode(sig, siglen);
	GString *s = g_string_new("-----BEGIN SSH SIGNATURE-----\n");
	gsize i, n = strlen(b64);

	for (i = 0; i < n; i += 70) {
		g_string_append_len(s, b64 + i, MIN(70, n - i));
		g_string_append_c(s, '\n');
	}
	g_string_append(s, "-----END SSH SIGNATURE-----\n");
	return s;
}

static int
run_verify(const char *scratch, const char *signers, const char *sigpath,
	   const guint8 *digest)
{
	const char *argv[] = {"ssh-keygen", "-Y", "verify",	  "-n",
			      "patatt",	    "-I", SSHV_PRINCIPAL, "-f",
			      signers,	    "-s", sigpath,	  NULL};
	struct gitrun_bound b = {.timeout = 10, .keep = 1024};
	g_autoptr(GString) out = g_string_new(NULL);

	return gitrun_bounded(scratch, argv, (const char *)digest, 32, out, &b,
			      NULL);
}

gboolean
sshv_verify(const char *scratch, GBytes *key, const guchar *sig, gsize siglen,
	    const guint8 *digest, const char **why)
{
	g_autofree char *type = NULL, *b64 = NULL;
	g_autofree char *signers = NULL, *sigpath = NULL;
	g_autoptr(GString) allowed = NULL, armor = NULL;
	gsize klen = 0;
	const char *k = g_bytes_get_data(key, &klen);
	int rc;

	if (!sshv_key_line(k ? k : "", klen, &type, &b64)) {
		*why = "the keyring's openssh key is not one";
		return FALSE;
	}
	*why = "the signature does not match";
	if (siglen < 6 || siglen > SSHV_MAX_SIG || memcmp(sig, "SSHSIG", 6))
		return FALSE;
	*why = "ssh-keygen could not be run";
	if (!scratch)
		return FALSE;
	signers = g_build_filename(scratch, "ssh-signers", NULL);
	sigpath = g_build_filename(scratch, "ssh-sig", NULL);
	allowed = g_string_new(NULL);
	g_string_printf(allowed, "%s namespaces=\"patatt\" %s %s\n",
			SSHV_PRINCIPAL, type, b64);
	armor = armored(sig, siglen);
	if (!write_file(signers, allowed) || !write_file(sigpath, armor)) {
		unlink(signers);
		unlink(sigpath);
		return FALSE;
	}
	rc = run_verify(scratch, signers, sigpath, digest);
	unlink(signers);
	unlink(sigpath);
	if (rc < 0)
		return FALSE;
	*why = "the signature does not match";
	return rc == 0;
}
