/*
 * patcanon.c - the text a patatt signature covers (patcanon.h): the
 * mail's fields as patatt splits them, the canonical body and fields from
 * a reading of the mail (lore-am's own mailinfo, else `git mailinfo
 * --no-scissors` run in the caller's scratch folder), and the two
 * SHA-256 sums the signature's bh= and b= are checked against.
 */
#include "attest/patcanon.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/*
 * patatt's header canonicalization (DKIM "relaxed" for one value): line
 * breaks removed, each run of white space one space, none at either end,
 * then CRLF.
 */
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
gboolean
patcanon_split_header(struct pmsg *m)
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
read_scratch(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
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

gboolean
patcanon_git(const char *dir, struct pmsg *m)
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
	if (!dir)
		return FALSE;
	argv[3] = mf = g_build_filename(dir, "m", NULL);
	argv[4] = pf = g_build_filename(dir, "p", NULL);
	if (gitrun(NULL, argv, m->text->str, m->text->len, info, err, NULL))
		return FALSE;
	msg = read_scratch(dir, "m");
	patch = read_scratch(dir, "p");
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
	patcanon_build(m, author->str, email->str, subject->str, mp);
	m->state = 1;
	return TRUE;
}

/* The canonical body and fields from a reading of the mail: mailinfo's
 * author, address, subject and message-and-patch text @mp (changed). */
void
patcanon_build(struct pmsg *m, const char *author, const char *email,
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
void
patcanon_unbuild(struct pmsg *m)
{
	if (m->body)
		g_string_free(m->body, TRUE);
	if (m->canon)
		g_ptr_array_unref(m->canon);
	m->body = NULL;
	m->canon = NULL;
	m->state = 0;
}

/* SHA-256 of the fields h= names (each taken once, from the bottom up, as
 * DKIM does) and of the signature field up to its "b=". NULL when h=
 * leaves out From or Subject, which patatt requires. */
GChecksum *
patcanon_header_hash(struct pmsg *m, const char *h, const char *sigval,
		     size_t siglen)
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

gboolean
patcanon_body_hash_is(const GString *body, size_t len, const char *bh)
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
