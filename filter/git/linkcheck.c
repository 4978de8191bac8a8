/*
 * linkcheck.c - symbolic links in git's diff format (git diff's "new file
 * mode 120000", "new mode 120000" or "index A..B 120000" extended header
 * lines; the link's target is the blob, so the hunk's "+" lines are the
 * new target, without the trailing newline the "\ No newline" marker
 * tells of). The target is judged as the kernel resolves it, component
 * by component from the link's folder; links through other links are not
 * followed.
 */
#include "git/linkcheck.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

gboolean
linkcheck_escapes(const char *path, const char *target)
{
	g_auto(GStrv) parts = NULL;
	int depth = 0;
	const char *p;
	guint i;

	if (!*target || *target == '/')
		return *target == '/';
	/* the folders the link sits in */
	for (p = path; (p = strchr(p, '/')); p++)
		depth++;
	parts = g_strsplit(target, "/", -1);
	for (i = 0; parts[i]; i++) {
		if (!*parts[i] || !strcmp(parts[i], "."))
			continue;
		if (!strcmp(parts[i], "..")) {
			if (--depth < 0)
				return TRUE;
		} else {
			depth++;
		}
	}
	return FALSE;
}

static void
hit_free(gpointer p)
{
	struct linkcheck_hit *h = p;

	g_free(h->subject);
	g_free(h->path);
	g_free(h->target);
	g_free(h);
}

/* One file's section of a diff, as read so far */
struct section {
	gboolean link;	 /* its new mode is 120000 */
	gboolean hunk;	 /* inside its hunk */
	char *path;	 /* from "+++ b/PATH" */
	GString *target; /* its "+" lines */
};

/* "+++ b/PATH" or +++ "b/PA\tTH" (git quotes unusual names) */
static char *
new_path(const char *l, size_t n)
{
	const char *p = l + 4, *end = l + n;

	if (end > p && *p == '"' && end[-1] == '"') {
		p++;
		end--;
	}
	if (end - p >= 2 && p[0] == 'b' && p[1] == '/')
		p += 2;
	return g_strndup(p, end - p);
}

static void
section_end(struct section *s, const char *subject, GPtrArray *hits)
{
	if (s->link && s->path && s->target->len &&
	    linkcheck_escapes(s->path, s->target->str)) {
		struct linkcheck_hit *h = g_new0(struct linkcheck_hit, 1);

		h->subject = g_strdup(subject ? subject : "?");
		h->path = g_strdup(s->path);
		h->target = g_strdup(s->target->str);
		g_ptr_array_add(hits, h);
	}
	s->link = s->hunk = FALSE;
	g_clear_pointer(&s->path, g_free);
	g_string_truncate(s->target, 0);
}

static gboolean
starts(const char *l, size_t n, const char *with)
{
	size_t w = strlen(with);

	return n >= w && !memcmp(l, with, w);
}

/* An extended header line that makes the file a link */
static gboolean
link_mode(const char *l, size_t n)
{
	if (starts(l, n, "new file mode ") || starts(l, n, "new mode "))
		return n >= 6 && !memcmp(l + n - 6, "120000", 6);
	return starts(l, n, "index ") && n >= 7 &&
	       !memcmp(l + n - 7, " 120000", 7);
}

/*
 * Is @msg's text its bytes as they lie, so that a mode "120000" it does
 * not hold cannot appear in it either? Every Content- field of its header
 * must be one the writer writes (UTF-8 text/plain, 7bit or 8bit), where
 * decoding changes no digit and no part of the body is a header; a
 * transfer encoding, format=flowed (which joins lines), another charset,
 * a folded field, a CRLF: the whole message is read. The header ends at
 * the first empty line, as message_parse() ends it (a line of a CR alone,
 * which ends it too, only makes this read on).
 */
static gboolean
as_it_lies(const char *msg, size_t len)
{
	static const char *const ours[] = {
	    "Content-Type: text/plain; charset=\"utf-8\"",
	    "Content-Transfer-Encoding: 7bit",
	    "Content-Transfer-Encoding: 8bit",
	};
	size_t pos = 0, n;
	const char *l;
	guint i;

	while (lore_next_line(msg, len, &pos, &l, &n) && n) {
		gboolean ok = FALSE;

		if ((*l != 'c' && *l != 'C') ||
		    !lore_has_prefix_ci(l, n, "content-"))
			continue;
		for (i = 0; i < G_N_ELEMENTS(ours) && !ok; i++)
			ok = n == strlen(ours[i]) && !memcmp(l, ours[i], n);
		if (!ok || (pos < len && (msg[pos] == ' ' || msg[pos] == '\t')))
			return FALSE;
	}
	return TRUE;
}

/* Does a line of @msg end in "120000", as link_mode() reads one (a CR
 * before its end taken for the end)? Not a Message-ID's time of day. */
static gboolean
has_mode_line(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len, *hit;

	while ((hit = memmem(p, end - p, "120000", 6))) {
		p = hit + 6;
		if (p == end || *p == '\n' || *p == '\r')
			return TRUE;
	}
	return FALSE;
}

static void
one_message(const char *msg, size_t len, void *data)
{
	GPtrArray *hits = data;
	struct message *m = NULL;
	struct section s = {FALSE, FALSE, NULL, g_string_new(NULL)};
	const char *body, *l;
	size_t pos = 0, blen, n;

	/* a link is a mode 120000: most series add none, and their
	 * messages need not be parsed to say so */
	if (!has_mode_line(msg, len) && as_it_lies(msg, len))
		goto out;
	m = message_parse(msg, len, NULL);
	if (!m)
		goto out;
	body = message_body(m);
	blen = strlen(body);
	while (lore_next_line(body, blen, &pos, &l, &n)) {
		if (n && l[n - 1] == '\r')
			n--;
		if (starts(l, n, "diff --git ")) {
			section_end(&s, m->subject, hits);
		} else if (s.hunk && n && *l == '+') {
			if (s.target->len)
				g_string_append_c(s.target, '\n');
			g_string_append_len(s.target, l + 1, n - 1);
		} else if (s.hunk && n &&
			   (*l == '-' || *l == ' ' || *l == '\\')) {
			continue;
		} else if (starts(l, n, "@@ ")) {
			s.hunk = TRUE;
		} else if (s.hunk) {
			s.hunk = FALSE; /* the diff has ended */
		} else if (link_mode(l, n)) {
			s.link = TRUE;
		} else if (starts(l, n, "+++ ")) {
			g_free(s.path);
			s.path = new_path(l, n);
		}
	}
	section_end(&s, m->subject, hits);
out:
	g_string_free(s.target, TRUE);
	message_free(m);
}

GPtrArray *
linkcheck_scan(const GString *mbox)
{
	GPtrArray *hits = g_ptr_array_new_with_free_func(hit_free);

	mbox_split(mbox->str, mbox->len, one_message, hits);
	return hits;
}

guint
linkcheck_report(const GString *mbox)
{
	GPtrArray *hits = linkcheck_scan(mbox);
	guint i, n = hits->len;

	for (i = 0; i < hits->len; i++) {
		const struct linkcheck_hit *h = hits->pdata[i];
		g_autofree char *s = lore_term_safe(h->subject, -1);
		g_autofree char *p = lore_term_safe(h->path, -1);
		g_autofree char *t = lore_term_safe(h->target, -1);

		lore_err("warning: %s: adds a symbolic link '%s' -> '%s', "
			 "outside the repository",
			 s, p, t);
	}
	g_ptr_array_unref(hits);
	return n;
}
