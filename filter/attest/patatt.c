/*
 * patatt.c - patatt's developer signatures (patatt 0.6, format version 1),
 * checked the way patatt's DevsigHeader.validate() does: the body is what
 * `git mailinfo --no-scissors` makes of the mail (commit message, then
 * patch), each line ending in CRLF; the From and Subject fields are
 * replaced by mailinfo's author and subject; the fields named in h= are
 * hashed DKIM-"relaxed", last the signature field itself up to its "b=",
 * and b= signs that SHA-256. git itself does the mailinfo step, so what
 * patatt signed and what is checked here come from the same code.
 */
#include "attest/patatt.h"
#include "attest/patcanon.h"
#include "attest/edv.h"
#include "attest/keyring.h"
#include "mail/mailinfo.h"
#include "attest/pgpv.h"
#include "attest/sshv.h"
#include "core/util.h"

#include <string.h>
#include <unistd.h>

struct patatt {
	struct keyring *keys;
	char *scratch; /* mailinfo's files and GnuPG homes; made on first use */
	struct pgpv *pgp;
	gboolean pgp_tried;
	int ed, ssh; /* libsodium, ssh-keygen: 0 not asked, 1 there, -1 not */
};

struct patatt *
patatt_new(void)
{
	struct patatt *p = g_new0(struct patatt, 1);

	p->keys = keyring_new();
	return p;
}

void
patatt_free(struct patatt *p)
{
	if (!p)
		return;
	pgpv_free(p->pgp);
	keyring_free(p->keys);
	if (p->scratch) {
		g_autofree char *m = g_build_filename(p->scratch, "m", NULL);
		g_autofree char *pp = g_build_filename(p->scratch, "p", NULL);

		unlink(m);
		unlink(pp);
		rmdir(p->scratch);
		g_free(p->scratch);
	}
	g_free(p);
}

static const char *
scratch(struct patatt *p)
{
	if (!p->scratch)
		p->scratch = g_dir_make_tmp("lore-am-patatt-XXXXXX", NULL);
	return p->scratch;
}

/* The tags of one signature field: white space removed, "t=v" pairs. */
static GHashTable *
parse_tags(const char *value, size_t len)
{
	GHashTable *t =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GString *s = g_string_sized_new(len);
	g_auto(GStrv) parts = NULL;
	size_t i;

	for (i = 0; i < len; i++)
		if (!g_ascii_isspace(value[i]))
			g_string_append_c(s, value[i]);
	parts = g_strsplit(s->str, ";", -1);
	g_string_free(s, TRUE);
	for (i = 0; parts[i]; i++) {
		char *eq = strchr(parts[i], '=');

		if (eq)
			g_hash_table_replace(t,
					     g_strndup(parts[i], eq - parts[i]),
					     g_strdup(eq + 1));
	}
	return t;
}

static gboolean
stale(gint64 when, gint64 date, guint max_days)
{
	gint64 drift = when - date;

	if (!max_days || date <= 0 || when <= 0)
		return FALSE;
	return drift > (gint64)max_days * 86400 ||
	       drift < -(gint64)max_days * 86400;
}

/* A library that cannot be loaded: one warning a run, as for DKIM. */
static void
lib_missing(GError *err)
{
	lore_err("warning: %s", err->message);
	g_error_free(err);
}

/* A checker asked for once a run (*@state: 1 there, -1 not, said once). */
static gboolean
loaded(int *state, gboolean (*load)(GError **))
{
	GError *err = NULL;

	if (!*state)
		*state = load(&err) ? 1 : -1;
	if (err)
		lib_missing(err);
	return *state > 0;
}

/* Is the checking library there? Say why not in @out once per check. */
static gboolean
have_lib(struct patatt *p, const char *algo, struct patatt_sig *out)
{
	GError *err = NULL;

	if (!strcmp(algo, "ed25519")) {
		out->why = "libsodium missing";
		return loaded(&p->ed, edv_load);
	}
	if (!strcmp(algo, "openssh")) {
		out->why = "ssh-keygen missing";
		return loaded(&p->ssh, sshv_load);
	}
	if (!p->pgp_tried && scratch(p)) {
		p->pgp_tried = TRUE;
		if (!(p->pgp = pgpv_new(p->scratch, &err)))
			lib_missing(err);
	}
	out->why = "GPGME missing";
	return p->pgp != NULL;
}

static void verify(struct patatt *p, struct pmsg *m, GHashTable *tags,
		   GBytes *key, const char *sigval, size_t siglen, gint64 date,
		   guint max_days, struct patatt_sig *out);

static void
check_one(struct patatt *p, struct pmsg *m, GHashTable *tags,
	  const char *sigval, size_t siglen, gint64 date, guint max_days,
	  struct patatt_sig *out)
{
	const char *sel = g_hash_table_lookup(tags, "s");
	g_autoptr(GBytes) key = NULL;

	out->verdict = PATATT_UNCHECKED;
	if (strcmp(out->algo, "ed25519") && strcmp(out->algo, "openpgp") &&
	    strcmp(out->algo, "openssh")) {
		out->why = "algorithm not supported";
		return;
	}
	if (!have_lib(p, out->algo, out))
		return;
	key = keyring_find(p->keys, out->algo, out->identity,
			   sel && *sel ? sel : "default");
	out->verdict = PATATT_NOKEY;
	out->why = "no key in the keyring";
	/* only OpenPGP has keys of its own to ask (the user's GnuPG) */
	if (!key && strcmp(out->algo, "openpgp"))
		return;
	if (m->mi && !m->state) {
		/* lore-am's own mailinfo first: a signature that holds on it
		 * holds on what patatt signed (the hashes match); any other
		 * answer is asked again on git's reading, which may differ */
		g_autoptr(GString) mp = g_string_new(m->mi->body);

		patcanon_build(m, m->mi->author_name, m->mi->author_email,
			       m->mi->subject, mp);
		m->state = 2;
	}
	if (m->state == 2) {
		verify(p, m, tags, key, sigval, siglen, date, max_days, out);
		if (out->verdict == PATATT_PASS)
			return;
		patcanon_unbuild(m);
	}
	out->verdict = PATATT_UNCHECKED;
	out->why = "git mailinfo failed";
	if (!patcanon_git(scratch(p), m))
		return;
	verify(p, m, tags, key, sigval, siglen, date, max_days, out);
}

/* The signature against the reading @m holds. */
static void
verify(struct patatt *p, struct pmsg *m, GHashTable *tags, GBytes *key,
       const char *sigval, size_t siglen, gint64 date, guint max_days,
       struct patatt_sig *out)
{
	const char *bh = g_hash_table_lookup(tags, "bh");
	const char *lval = g_hash_table_lookup(tags, "l");
	const char *b = g_hash_table_lookup(tags, "b");
	const char *t = g_hash_table_lookup(tags, "t");
	const char *h = g_hash_table_lookup(tags, "h");
	g_autoptr(GChecksum) sum = NULL;
	g_autofree guchar *sig = NULL;
	guint8 digest[32];
	gsize n = sizeof(digest), siglen_b = 0;
	gboolean cut = FALSE;
	gint64 when = t ? g_ascii_strtoll(t, NULL, 10) : 0;
	guint64 l;

	out->verdict = PATATT_BADSIG;
	out->why = "the body changed after signing";
	if (!patcanon_body_hash_is(m->body, m->body->len, bh)) {
		/* l= leaves the end unsigned: if only the signed part
		 * matches, text was added after signing */
		if (!lval ||
		    !g_ascii_string_to_unsigned(lval, 10, 0, m->body->len, &l,
						NULL) ||
		    !patcanon_body_hash_is(m->body, l, bh))
			return;
		cut = TRUE;
	}
	out->why = "From and Subject are not signed";
	if (!h || !(sum = patcanon_header_hash(m, h, sigval, siglen)))
		return;
	g_checksum_get_digest(sum, digest, &n);
	out->why = "the signature does not match";
	if (!b || !(sig = g_base64_decode(b, &siglen_b)) || !siglen_b)
		return;
	if (!t && strcmp(out->algo, "openpgp")) {
		out->why = "no signing time (t=)"; /* patatt's rule */
		return;
	}
	if (!strcmp(out->algo, "ed25519")) {
		if (!edv_verify(key, sig, siglen_b, digest, &out->why))
			return;
	} else if (!strcmp(out->algo, "openssh")) {
		if (!sshv_verify(scratch(p), key, sig, siglen_b, digest,
				 &out->why))
			return;
	} else {
		g_autoptr(GBytes) plain = NULL;
		enum pgpv_result r = pgpv_verify(p->pgp, key, sig, siglen_b,
						 &plain, &when, &out->why);

		if (r == PGPV_NOKEY)
			out->verdict = PATATT_NOKEY;
		if (r != PGPV_GOOD)
			return;
		if (g_bytes_get_size(plain) != 32 ||
		    memcmp(g_bytes_get_data(plain, NULL), digest, 32)) {
			out->why = "the signature does not match";
			return;
		}
	}
	if (cut) {
		out->why = "text after the l= length is not signed";
		return;
	}
	if (stale(when, date, max_days)) {
		out->why = "signed too long before or after its Date";
		return;
	}
	out->verdict = PATATT_PASS;
	out->why = NULL;
}

static void
sig_clear(gpointer v)
{
	struct patatt_sig *s = v;

	g_free(s->algo);
	g_free(s->identity);
	g_free(s->hdrs);
}

GArray *
patatt_check(struct patatt *p, const char *raw, size_t len,
	     const char *from_email, const struct mailinfo *mi, gint64 date,
	     guint max_days)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(struct patatt_sig));
	struct pmsg m = {0};
	size_t i;

	g_array_set_clear_func(out, sig_clear);
	m.mi = mi;
	m.text = g_string_sized_new(len);
	for (i = 0; i < len; i++)
		if (!(raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n'))
			g_string_append_c(m.text, raw[i]);
	m.hdrs = g_array_new(FALSE, FALSE, sizeof(struct span));
	if (!patcanon_split_header(&m))
		g_array_set_size(m.hdrs, 0);
	for (i = 0; i < m.hdrs->len; i++) {
		struct span s = g_array_index(m.hdrs, struct span, i);
		const char *h = m.text->str + s.off;
		const char *colon = memchr(h, ':', s.len);
		g_autofree char *name = NULL;
		g_autoptr(GHashTable) tags = NULL;
		struct patatt_sig sig = {0};
		const char *a, *id;
		char *safe;
		size_t vlen;

		if (!colon)
			continue;
		name = g_strndup(h, colon - h);
		if (g_ascii_strcasecmp(g_strstrip(name),
				       "x-developer-signature"))
			continue;
		vlen = s.off + s.len - (colon + 1 - m.text->str);
		tags = parse_tags(colon + 1, vlen);
		a = g_hash_table_lookup(tags, "a");
		id = g_hash_table_lookup(tags, "i");
		if (!id)
			id = from_email ? from_email : "";
		sig.identity = lore_term_safe(id, -1);
		sig.hdrs = g_strdup(g_hash_table_lookup(tags, "h"));
		sig.verdict = PATATT_UNCHECKED;
		sig.algo = g_strdup(!a				     ? "?"
				    : g_str_has_prefix(a, "ed25519") ? "ed25519"
				    : g_str_has_prefix(a, "openpgp") ? "openpgp"
				    : g_str_has_prefix(a, "openssh") ? "openssh"
								     : "?");
		if (!strcmp(sig.algo, "?"))
			sig.why = "algorithm not supported";
		else
			check_one(p, &m, tags, colon + 1, vlen, date, max_days,
				  &sig);
		safe = sig.identity;
		sig.identity = g_utf8_strdown(safe, -1);
		g_free(safe);
		g_array_append_val(out, sig);
	}
	g_string_free(m.text, TRUE);
	g_array_unref(m.hdrs);
	patcanon_unbuild(&m);
	return out;
}
