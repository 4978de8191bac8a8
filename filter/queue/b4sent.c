/*
 * b4sent.c - b4 ty's own record of the thanks it sent: `b4 ty` renames a
 * series' tracking file (SLUG.am, b4's JSON, as git/track.h writes it)
 * in $XDG_DATA_HOME/b4 to SLUG.am.sent once the thanks are out, and
 * `lore-am ty` does the same (SLUG.am.N.sent when the name is taken). Its
 * "msgid" (the cover letter's, or the first patch's) marks that series
 * thanked, so that users of b4 ty see their queue right too.
 */
#include "queue/queue-int.h"
#include "core/util.h"

#include <glib/gstdio.h>
#include <string.h>

/* b4's files are small; these bound a folder someone filled */
#define SENT_FILES_MAX 10000
#define SENT_FILE_MAX ((gsize)1 << 20)
#define MSGID_MAX 998

static char *
sent_dir(void)
{
	const char *x = g_getenv("XDG_DATA_HOME");

	if (x && *x)
		return g_build_filename(x, "b4", NULL);
	return g_build_filename(g_get_home_dir(), ".local", "share", "b4",
				NULL);
}

/* The "msgid" string of a b4 tracking file, or NULL (g_free). b4 writes
 * it with json.dumps: a Message-ID holds no quote or backslash to
 * unescape, and one that does is not taken. */
static char *
sent_msgid(const char *text)
{
	const char *p = strstr(text, "\"msgid\":");
	const char *end;

	if (!p)
		return NULL;
	p += strlen("\"msgid\":");
	while (*p == ' ')
		p++;
	if (*p != '"')
		return NULL;
	p++;
	end = strpbrk(p, "\"\\\n");
	if (!end || *end != '"' || end == p || end - p > MSGID_MAX)
		return NULL;
	return g_strndup(p, (gsize)(end - p));
}

static void
mark_thanked(struct queue *q, sqlite3_stmt *st, const char *msgid)
{
	sqlite3_bind_text(st, 1, msgid, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_reset(st);
}

void
queue_b4_sent(struct queue *q)
{
	g_autofree char *dir = sent_dir();
	GDir *d = g_dir_open(dir, 0, NULL);
	sqlite3_stmt *st = NULL;
	const char *name;
	guint n = 0;

	if (!d)
		return;
	if (!queue_begin(q, NULL))
		goto out;
	st = queue_prepare(q,
			   "UPDATE series SET thanked = (SELECT revision FROM "
			   "messages WHERE msgid = ?1) WHERE id = (SELECT "
			   "series FROM messages WHERE msgid = ?1)",
			   NULL);
	while (st && (name = g_dir_read_name(d)) && n++ < SENT_FILES_MAX) {
		g_autofree char *f = NULL, *text = NULL, *id = NULL;
		gsize len = 0;
		GStatBuf sb;

		if (!g_str_has_suffix(name, ".sent") || !strstr(name, ".am."))
			continue;
		f = g_build_filename(dir, name, NULL);
		if (g_stat(f, &sb) < 0 || !S_ISREG(sb.st_mode) ||
		    (gsize)sb.st_size > SENT_FILE_MAX ||
		    !g_file_get_contents(f, &text, &len, NULL) ||
		    len > SENT_FILE_MAX || strlen(text) != len)
			continue;
		id = sent_msgid(text);
		if (id)
			mark_thanked(q, st, id);
	}
	sqlite3_finalize(st);
	queue_end(q, TRUE, NULL);
out:
	g_dir_close(d);
}
