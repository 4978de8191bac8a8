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
#include "attest/edv.h"
#include "core/gitrun.h"
#include "attest/keyring.h"
#include "mail/mailinfo.h"
#include "attest/pgpv.h"
#include "core/util.h"

#include <string.h>
#include <unistd.h>

struct patatt {
	struct keyring *keys;
	char *scratch; /* mailinfo's files and GnuPG homes; made on first use */
	struct pgpv *pgp;
	gboolean pgp_tried;
	gboolean ed, ed_tried; /* libsodium loaded, and asked */
};

/* One message as patatt sees it. */
struct pmsg {
	GString *text;	  /* the mail with LF line ends */
	GArray *hdrs;	  /* struct span: each field with its folded lines */
	GString *body;	  /* canonical: mailinfo's message and patch, CRLF */
	GPtrArray *canon; /* "name" "value" pairs after mailinfo's From/Subj */
	int state; /* 0 not canonicalized, 1 by git, 2 by mi, -1 git failed */
	const struct mailinfo *mi; /* lore-am's own reading, or NULL */
};

struct span {
	size_t off, len;
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

void
patatt_canon_value(GString *to, const char *v, size_t len)
{
	size_t i, start = to->len;
	gboolean space = FALSE;

	for (i = 0; i < len; i++) {
		if (v[i] == '\r' || v[i] == '\n')
			continue;
		/* Python's \s: space, \t, \f, \v (\r\n are gone already) */
		if (strchr(" \t\f\v", v[i]) && v[i]) {
			space = TRUE;
			continue;
		}
		if (space && to->len > start)
			g_string_append_c(to, ' ');
		space = FALSE;
		g_string_append_c(to, v[i]);
	}
	g_string_append(to, "\r\n");
}

/* Split the header section as patatt's reader does: a line blank but for
 * white space ends it, a line starting with a space or tab continues the
 * field before. FALSE when the mail is not one patatt would read. */
static gboolean
split_header(struct pmsg *m)
{
	size_t pos = 0, llen;
	const char *line;

	while (lore_next_line(m->text->str, m->text->len, &pos, &line, &llen)) {
		g_autofree char *t = g_strndup(line, llen);
		size_t off = line - m->text->str;
		struct span s = {off, pos - off};

		if (!*g_strstrip(t))
			return m->hdrs->len > 0 && pos < m->text->len;
		if (*line == ' ' || *line == '\t') {
			if (!m->hdrs->len)
				return FALSE;
			g_array_index(m->hdrs, struct span, m->hdrs->len - 1)
			    .len += s.len;
			continue;
		}
		g_array_append_val(m->hdrs, s);
	}
	return FALSE;
}

static char *
read_scratch(struct patatt *p, const char *name)
{
	g_autofree char *path = g_build_filename(p->scratch, name, NULL);
	char *s = NULL;

	g_file_get_contents(path, &s, NULL, NULL);
	return s;
}

/* mailinfo's "Key: value" lines, keys lower-cased. */
static void
info_get(const char *info, const char *key, GString *to)
{
	g_auto(GStrv) lines = g_strsplit(info, "\n", -1);
	guint i;

	for (i = 0; lines[i]; i++) {
		char *colon = strchr(lines[i], ':');

		if (colon && (size_t)(colon - lines[i]) == strlen(key) &&
		    !g_ascii_strncasecmp(lines[i], key, strlen(key))) {
			g_string_append(to, lore_strip(colon + 1));
			return;
		}
	}
}

static void build(struct pmsg *m, const char *author, const char *email,
		  const char *subject, GString *mp);

static gboolean
canonicalize(struct patatt *p, struct pmsg *m)
{
	const char *argv[] = {
	    "mailinfo", "--encoding=utf-8", "--no-scissors", NULL, NULL, NULL};
	g_autofree char *mf = NULL, *pf = NULL, *msg = NULL, *patch = NULL;
	g_autoptr(GString) info = g_string_new(NULL);
	g_autoptr(GString) err = g_string_new(NULL);
	g_autoptr(GString) mp = NULL, author = NULL, email = NULL;
	g_autoptr(GString) subject = NULL;

	if (m->state)
		return m->state > 0;
	m->state = -1;
	if (!scratch(p))
		return FALSE;
	argv[3] = mf = g_build_filename(p->scratch, "m", NULL);
	argv[4] = pf = g_build_filename(p->scratch, "p", NULL);
	if (gitrun(NULL, argv, m->text->str, m->text->len, info, err, NULL))
		return FALSE;
	msg = read_scratch(p, "m");
	patch = read_scratch(p, "p");
	if (!msg || !patch)
		return FALSE;
	mp = g_string_new(msg);
	g_string_append(mp, patch);
	author = g_string_new(NULL);
	email = g_string_new(NULL);
	subject = g_string_new(NULL);
	info_get(info->str, "author", author);
	info_get(info->str, "email", email);
	info_get(info->str, "subject", subject);
	build(m, author->str, email->str, subject->str, mp);
	m->state = 1;
	return TRUE;
}

/* The canonical body and fields from a reading of the mail: mailinfo's
 * author, address, subject and message-and-patch text @mp (changed). */
static void
build(struct pmsg *m, const char *author, const char *email,
      const char *subject, GString *mp)
{
	size_t pos = 0, llen = 0;
	const char *line = "";
	guint i;

	while (mp->len && strchr("\r\n", mp->str[mp->len - 1]))
		g_string_truncate(mp, mp->len - 1);
	/* an empty message still gives one empty line, as in patatt */
	m->body = g_string_new(NULL);
	while (lore_next_line(mp->str, mp->len, &pos, &line, &llen) ||
	       !m->body->len) {
		while (llen && line[llen - 1] == '\r')
			llen--;
		g_string_append_len(m->body, line, llen);
		g_string_append(m->body, "\r\n");
		if (pos >= mp->len)
			break;
	}
	m->canon = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < m->hdrs->len; i++) {
		struct span s = g_array_index(m->hdrs, struct span, i);
		const char *h = m->text->str + s.off;
		const char *colon = memchr(h, ':', s.len);
		g_autofree char *left = NULL;
		GString *v;

		if (!colon)
			continue;
		left = g_strndup(h, colon - h);
		v = g_string_new(" ");
		if (!g_ascii_strcasecmp(left, "from")) {
			g_string_append_printf(v, "%s <%s>", author, email);
		} else if (!g_ascii_strcasecmp(left, "subject")) {
			g_string_append(v, subject);
		} else {
			g_string_assign(v, "");
			g_string_append_len(v, colon + 1,
					    s.off + s.len -
						(colon + 1 - m->text->str));
		}
		g_ptr_array_add(m->canon,
				g_ascii_strdown(lore_strip(left), -1));
		g_ptr_array_add(m->canon, g_string_free(v, FALSE));
	}
}

/* Drop a reading, to make another. */
static void
unbuild(struct pmsg *m)
{
	if (m->body)
		g_string_free(m->body, TRUE);
	if (m->canon)
		g_ptr_array_unref(m->canon);
	m->body = NULL;
	m->canon = NULL;
	m->state = 0;
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

/* SHA-256 of the fields h= names (each taken once, from the bottom up, as
 * DKIM does) and of the signature field up to its "b=". NULL when h=
 * leaves out From or Subject, which patatt requires. */
static GChecksum *
header_hash(struct pmsg *m, const char *h, const char *sigval, size_t siglen)
{
	g_auto(GStrv) names = g_strsplit(h, ":", -1);
	g_autofree gboolean *used = g_new0(gboolean, m->canon->len / 2 + 1);
	g_autoptr(GString) c = g_string_new(NULL);
	gboolean from = FALSE, subject = FALSE;
	GChecksum *sum;
	char *b;
	guint i;

	for (i = 0; names[i]; i++) {
		g_strstrip(names[i]);
		from |= !strcmp(names[i], "from");
		subject |= !strcmp(names[i], "subject");
	}
	if (!from || !subject)
		return NULL;
	sum = g_checksum_new(G_CHECKSUM_SHA256);
	for (i = 0; names[i]; i++) {
		guint j = m->canon->len / 2;

		while (j-- > 0) {
			const char *name = m->canon->pdata[2 * j];
			const char *val = m->canon->pdata[2 * j + 1];

			if (used[j] || strcmp(name, names[i]))
				continue;
			used[j] = TRUE;
			g_string_assign(c, name);
			g_string_append_c(c, ':');
			patatt_canon_value(c, val, strlen(val));
			g_checksum_update(sum, (guchar *)c->str, c->len);
			break;
		}
	}
	g_string_assign(c, "x-developer-signature:");
	patatt_canon_value(c, sigval, siglen);
	b = g_strrstr(c->str, "b=");
	if (b)
		g_string_truncate(c, b + 2 - c->str);
	g_checksum_update(sum, (guchar *)c->str, c->len);
	return sum;
}

static gboolean
body_hash_is(const GString *body, size_t len, const char *bh)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 d[32];
	gsize n = sizeof(d);
	g_autofree char *b64 = NULL;

	g_checksum_update(sum, (guchar *)body->str, len);
	g_checksum_get_digest(sum, d, &n);
	b64 = g_base64_encode(d, n);
	return bh && !strcmp(b64, bh);
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

/* Is the checking library there? Say why not in @out once per check. */
static gboolean
have_lib(struct patatt *p, const char *algo, struct patatt_sig *out)
{
	GError *err = NULL;

	if (!strcmp(algo, "ed25519")) {
		if (!p->ed_tried) {
			p->ed_tried = TRUE;
			if (!(p->ed = edv_load(&err)))
				lib_missing(err);
		}
		out->why = "libsodium missing";
		return p->ed;
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
	if (strcmp(out->algo, "ed25519") && strcmp(out->algo, "openpgp")) {
		out->why = "algorithm not supported";
		return;
	}
	if (!have_lib(p, out->algo, out))
		return;
	key = keyring_find(p->keys, out->algo, out->identity,
			   sel && *sel ? sel : "default");
	out->verdict = PATATT_NOKEY;
	out->why = "no key in the keyring";
	if (!key && !strcmp(out->algo, "ed25519"))
		return;
	if (m->mi && !m->state) {
		/* lore-am's own mailinfo first: a signature that holds on it
		 * holds on what patatt signed (the hashes match); any other
		 * answer is asked again on git's reading, which may differ */
		g_autoptr(GString) mp = g_string_new(m->mi->body);

		build(m, m->mi->author_name, m->mi->author_email,
		      m->mi->subject, mp);
		m->state = 2;
	}
	if (m->state == 2) {
		verify(p, m, tags, key, sigval, siglen, date, max_days, out);
		if (out->verdict == PATATT_PASS)
			return;
		unbuild(m);
	}
	out->verdict = PATATT_UNCHECKED;
	out->why = "git mailinfo failed";
	if (!canonicalize(p, m))
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
	if (!body_hash_is(m->body, m->body->len, bh)) {
		/* l= leaves the end unsigned: if only the signed part
		 * matches, text was added after signing */
		if (!lval ||
		    !g_ascii_string_to_unsigned(lval, 10, 0, m->body->len, &l,
						NULL) ||
		    !body_hash_is(m->body, l, bh))
			return;
		cut = TRUE;
	}
	out->why = "From and Subject are not signed";
	if (!h || !(sum = header_hash(m, h, sigval, siglen)))
		return;
	g_checksum_get_digest(sum, digest, &n);
	out->why = "the signature does not match";
	if (!b || !(sig = g_base64_decode(b, &siglen_b)) || !siglen_b)
		return;
	if (!strcmp(out->algo, "ed25519")) {
		if (!t)
			out->why = "no signing time (t=)";
		if (!t || !edv_verify(key, sig, siglen_b, digest, &out->why))
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
	if (!split_header(&m))
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
	unbuild(&m);
	return out;
}
