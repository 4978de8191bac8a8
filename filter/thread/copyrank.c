/*
 * copyrank.c - ranking the copies of one Message-ID (copyrank.h). The
 * List-Id preference is b4's get_preferred_duplicate(): the id between
 * the first <> of the List-Id field (RFC 2919), matched against the globs
 * in order; the measures of a list's changes count what RFC 2369 and
 * RFC 2919 lists add (List-* fields, a subject tag, a footer), each of
 * which only ever lengthens the copy.
 */
#include "thread/copyrank.h"
#include "core/util.h"

#include <fnmatch.h>
#include <string.h>

static GPtrArray *globs; /* char *, the globs before "*", in order */

void
copyrank_setup(const char *listid_preference)
{
	g_auto(GStrv) parts = NULL;
	guint i;

	if (globs)
		g_ptr_array_free(globs, TRUE);
	globs = g_ptr_array_new_with_free_func(g_free);
	if (!listid_preference || !*listid_preference)
		listid_preference = COPYRANK_DEFAULT_PREFERENCE;
	parts = g_strsplit(listid_preference, ",", -1);
	for (i = 0; parts[i]; i++) {
		g_strstrip(parts[i]);
		/* b4 moves "*" to the end, wherever it was written */
		if (*parts[i] && strcmp(parts[i], "*"))
			g_ptr_array_add(globs, g_strdup(parts[i]));
	}
}

/* The List-Id's id, "" when there is none */
static char *
list_id(const struct message *m)
{
	g_autofree char *v = message_header(m, "List-Id");
	const char *lt = v ? strchr(v, '<') : NULL;
	const char *gt = lt ? strchr(lt + 1, '>') : NULL;

	if (!gt || gt == lt + 1)
		return g_strdup("");
	return g_strndup(lt + 1, gt - lt - 1);
}

static guint
listid_rank(const struct message *m)
{
	g_autofree char *id = list_id(m);
	guint i;

	if (!globs)
		copyrank_setup(NULL);
	for (i = 0; *id && i < globs->len; i++)
		if (!fnmatch(globs->pdata[i], id, FNM_CASEFOLD))
			return i;
	return globs->len;
}

/* Header fields whose name starts with "List-" (a continuation line,
 * which starts with a blank, is part of the field before it). */
static guint
list_fields(const struct message *m)
{
	size_t pos = 0, ll;
	const char *l;
	guint n = 0;

	while (lore_next_line(m->raw, m->body_off, &pos, &l, &ll))
		if (lore_has_prefix_ci(l, ll, "list-") && memchr(l, ':', ll))
			n++;
	return n;
}

/*
 * The SHA-256 of the mail as stored mail goes: CRLF line ends read as LF
 * and the blank lines at the end (an mbox's separator, which a maildir
 * file may keep or not) left out, so that one mail kept in an mbox and a
 * maildir, or in notmuch, is the same copy.
 */
static void
mail_sum(const struct message *m, char *out, gsize size)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	size_t n = m->len, i, from = 0;

	while (n && (m->raw[n - 1] == '\n' || m->raw[n - 1] == '\r'))
		n--;
	for (i = 0; i + 1 < n; i++) {
		if (m->raw[i] == '\r' && m->raw[i + 1] == '\n') {
			g_checksum_update(c, (guchar *)m->raw + from, i - from);
			from = i + 1;
		}
	}
	g_checksum_update(c, (guchar *)m->raw + from, n - from);
	g_strlcpy(out, g_checksum_get_string(c), size);
	g_checksum_free(c);
}

/* The length of @s without the white space at its end. */
static gsize
trimmed_len(const char *s)
{
	gsize n = strlen(s);

	while (n && g_ascii_isspace(s[n - 1]))
		n--;
	return n;
}

void
copyrank_of(struct message *m, struct copyrank *out)
{
	out->listid = listid_rank(m);
	out->list_fields = list_fields(m);
	out->subject_len = m->subject ? strlen(m->subject) : 0;
	out->text_len = trimmed_len(message_body(m));
	mail_sum(m, out->sha256, sizeof(out->sha256));
}

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y))

int
copyrank_cmp(const struct copyrank *a, const struct copyrank *b)
{
	if (a->listid != b->listid)
		return CMP(a->listid, b->listid);
	if (a->list_fields != b->list_fields)
		return CMP(a->list_fields, b->list_fields);
	if (a->subject_len != b->subject_len)
		return CMP(a->subject_len, b->subject_len);
	if (a->text_len != b->text_len)
		return CMP(a->text_len, b->text_len);
	return strcmp(a->sha256, b->sha256);
}
