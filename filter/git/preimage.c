/*
 * preimage.c - the pre-images of a revision read from its diff headers
 * (see preimage.h). Each "diff --git" section's header lines are kept
 * until the section ends; then its old name is settled as git apply
 * settles it ("rename from"/"copy from", else the "--- a/" line, else the
 * header's name; C-quoted names unquoted) and the file listed when it is
 * the first change of that path (b4's make_fake_am_range() keeps the same
 * "seen" set: a later change starts from what the series made).
 */
#include "git/preimage.h"
#include "git/prep3way.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <stdarg.h>
#include <string.h>

/* One "diff --git" section's header, while it is read. */
struct section {
	char *hdr_old, *hdr_new; /* the "diff --git" line's names */
	char *minus, *plus;	 /* "--- a/" and "+++ b/" names */
	char *from, *to;	 /* "rename/copy from" and "to" */
	char *index;		 /* the index line (after "index ") */
	char *old_mode;		 /* "old mode" / "deleted file mode" */
	gboolean is_new, dev_null, twice;
	gssize hunks; /* offset of its first "@@ -" line in the body */
};

struct reader {
	struct preimage_set *set;
	GHashTable *seen; /* path -> TRUE */
	gboolean stop;	  /* a line refused, or too many files */
};

static void
section_reset(struct section *s)
{
	g_free(s->hdr_old);
	g_free(s->hdr_new);
	g_free(s->minus);
	g_free(s->plus);
	g_free(s->from);
	g_free(s->to);
	g_free(s->index);
	g_free(s->old_mode);
	memset(s, 0, sizeof(*s));
	s->hunks = -1;
}

static void
preimage_free(gpointer p)
{
	struct preimage *f = p;

	g_free(f->path);
	g_free(f->pre);
	g_free(f->old);
	g_free(f);
}

/* A C-quoted name ("..."), as git writes one with special bytes: the
 * text inside unquoted, *@end past the closing quote; NULL if unclosed. */
static char *
unquote(const char *s, size_t n, size_t *end)
{
	size_t i;
	g_autofree char *in = NULL;

	for (i = 1; i < n && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	if (i >= n)
		return NULL;
	*end = i + 1;
	in = g_strndup(s + 1, i - 1);
	return g_strcompress(in);
}

/* @name without its first folder ("a/", "b/": git apply's -p1) */
static char *
strip_one(char *name)
{
	char *slash = name ? strchr(name, '/') : NULL;
	char *rest;

	if (!slash || !slash[1]) {
		g_free(name);
		return NULL;
	}
	rest = g_strdup(slash + 1);
	g_free(name);
	return rest;
}

/* A name as "---", "+++", "rename from" lines give it: quoted, or up
 * to a tab (git adds one after a name with blanks; diff -u a date) */
static char *
line_name(const char *s, size_t n, gboolean strip)
{
	const char *tab;
	size_t end;
	char *name;

	if (n && s[0] == '"')
		name = unquote(s, n, &end);
	else if ((tab = memchr(s, '\t', n)))
		name = g_strndup(s, tab - s);
	else
		name = g_strndup(s, n);
	return strip ? strip_one(name) : name;
}

/* "diff --git a/N b/N": both names; a plain one read as git reads it
 * when both are the same (a rename's come from its own lines) */
static void
header_names(struct section *s, const char *l, size_t n)
{
	size_t end = 0, half;

	if (n && l[0] == '"') {
		s->hdr_old = strip_one(unquote(l, n, &end));
		if (end < n && l[end] == ' ')
			s->hdr_new = line_name(l + end + 1, n - end - 1, TRUE);
		return;
	}
	if (n < 3 || !(n & 1))
		return;
	half = (n - 1) / 2;
	if (l[half] != ' ')
		return;
	s->hdr_old = strip_one(g_strndup(l, half));
	s->hdr_new = strip_one(g_strndup(l + half + 1, half));
	if (!s->hdr_old || !s->hdr_new || strcmp(s->hdr_old, s->hdr_new)) {
		g_clear_pointer(&s->hdr_old, g_free);
		g_clear_pointer(&s->hdr_new, g_free);
	}
}

/* a value given once: a second one marks the section (refused) */
static void
keep(struct section *s, char **slot, char *value)
{
	if (*slot)
		s->twice = TRUE;
	g_free(*slot);
	*slot = value;
}

/* One header line of a section; FALSE when it ends the header. */
static gboolean
header_line(struct section *s, const char *l, size_t n)
{
#define IS(prefix)                                                             \
	(n >= sizeof(prefix) - 1 && !strncmp(l, prefix, sizeof(prefix) - 1))
#define REST(prefix) l + sizeof(prefix) - 1, n - (sizeof(prefix) - 1)
	if (IS("index "))
		keep(s, &s->index, g_strndup(REST("index ")));
	else if (IS("old mode "))
		keep(s, &s->old_mode, g_strndup(REST("old mode ")));
	else if (IS("deleted file mode "))
		keep(s, &s->old_mode, g_strndup(REST("deleted file mode ")));
	else if (IS("new file mode "))
		s->is_new = TRUE;
	else if (IS("rename from "))
		keep(s, &s->from, line_name(REST("rename from "), FALSE));
	else if (IS("copy from "))
		keep(s, &s->from, line_name(REST("copy from "), FALSE));
	else if (IS("rename to "))
		keep(s, &s->to, line_name(REST("rename to "), FALSE));
	else if (IS("copy to "))
		keep(s, &s->to, line_name(REST("copy to "), FALSE));
	else if (IS("--- /dev/null"))
		s->dev_null = TRUE;
	else if (IS("--- "))
		keep(s, &s->minus, line_name(REST("--- "), TRUE));
	else if (IS("+++ "))
		keep(s, &s->plus, line_name(REST("+++ "), TRUE));
	else if (IS("@@ -") || IS("Binary files ") || IS("GIT binary patch"))
		return FALSE;
	return TRUE;
#undef IS
#undef REST
}

/* an index line whose old id is all zeros: a file the patch adds */
static gboolean
adds(const char *index)
{
	size_t z = strspn(index, "0");

	return z && !strncmp(index + z, "..", 2);
}

/* 7 to 64 lower-case hex digits, as git abbreviates a blob id */
static size_t
hex_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n >= 7 && n <= 64 ? n : 0;
}

/* a blob's mode: 1 a file's or a link's, 0 a submodule's, -1 neither */
static int
file_mode(const char *m)
{
	if (!strcmp(m, "100644") || !strcmp(m, "100755") ||
	    !strcmp(m, "120000"))
		return 1;
	return !strcmp(m, "160000") ? 0 : -1;
}

/* a name update-index takes, safe on a terminal: relative, no empty,
 * "." or ".." folder, no .git, no control byte */
static gboolean
good_path(const char *p)
{
	g_auto(GStrv) parts = NULL;
	const char *c;
	guint i;

	if (!*p || *p == '/')
		return FALSE;
	for (c = p; *c; c++)
		if ((guchar)*c < 0x20 || *c == 0x7f)
			return FALSE;
	parts = g_strsplit(p, "/", -1);
	for (i = 0; parts[i]; i++)
		if (!*parts[i] || !strcmp(parts[i], ".") ||
		    !strcmp(parts[i], "..") ||
		    !g_ascii_strcasecmp(parts[i], ".git"))
			return FALSE;
	return TRUE;
}

static void refuse(struct reader *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
refuse(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *text = NULL;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	r->set->refused = lore_term_safe(text, -1);
	r->stop = TRUE;
}

/*
 * The index line "OLD..NEW[ MODE]" checked: the old id's length, or 0
 * with the section refused; *@mode the file's mode (the old mode line's
 * when there is one, else the index line's, else a file's).
 */
static size_t
check_index(struct reader *r, const struct section *s, const char *path,
	    const char **mode)
{
	g_autofree char *sp = lore_term_safe(path, -1);
	const char *ix = s->index, *m = NULL;
	size_t a = hex_id(ix), b = 0;

	if (a && !strncmp(ix + a, "..", 2))
		b = hex_id(ix + a + 2);
	if (b && ix[a + 2 + b] == ' ')
		m = ix + a + 3 + b;
	if (!b || (ix[a + 2 + b] && !m) ||
	    (m && (strspn(m, "01234567") != 6 || m[6]))) {
		refuse(r, "the index line of '%s' is not git's ('index %.80s')",
		       sp, ix);
		return 0;
	}
	if (s->old_mode && m && strcmp(s->old_mode, m)) {
		refuse(r,
		       "the index line of '%s' gives mode %.8s, its old "
		       "mode line %.8s",
		       sp, m, s->old_mode);
		return 0;
	}
	*mode = s->old_mode ? s->old_mode : m ? m : "100644";
	if (file_mode(*mode) < 0) {
		refuse(r,
		       "the index line of '%s' gives mode %.8s, not a file's",
		       sp, *mode);
		return 0;
	}
	return a;
}

/* The section read: its file listed when the revision needs it. */
static void
section_end(struct reader *r, struct section *s, const char *body, size_t blen)
{
	const char *old = s->from ? s->from : s->minus ? s->minus : s->hdr_old;
	const char *new = s->to ? s->to : s->plus ? s->plus : s->hdr_new;
	const char *mode = NULL;
	struct preimage *f;
	size_t n;

	r->set->sections++;
	r->set->indexed += s->index != NULL;
	if (s->twice) {
		refuse(r, "a file's diff header gives one of its lines twice");
		return;
	}
	if (s->is_new || s->dev_null || (s->index && adds(s->index))) {
		/* made by the series: a later change needs nothing here */
		if (new)
			g_hash_table_add(r->seen, g_strdup(new));
		return;
	}
	if (!old || g_hash_table_contains(r->seen, old)) {
		if (new && !g_hash_table_contains(r->seen, new))
			g_hash_table_add(r->seen, g_strdup(new));
		return;
	}
	g_hash_table_add(r->seen, g_strdup(old));
	if (new && !g_hash_table_contains(r->seen, new))
		g_hash_table_add(r->seen, g_strdup(new));
	if (!s->index)
		return;
	if (!good_path(old)) {
		g_autofree char *sp = lore_term_safe(old, -1);

		refuse(r, "a file name git would not take ('%s')", sp);
		return;
	}
	if (!(n = check_index(r, s, old, &mode)) || !file_mode(mode))
		return;
	if (r->set->files->len >= PREIMAGE_FILES_MAX) {
		refuse(r, "more than %d files", PREIMAGE_FILES_MAX);
		return;
	}
	f = g_new0(struct preimage, 1);
	f->path = g_strdup(old);
	f->pre = g_strndup(s->index, n);
	g_strlcpy(f->mode, mode, sizeof(f->mode));
	if (s->hunks >= 0)
		f->old = prep3way_old_side(body + s->hunks, blen - s->hunks);
	g_ptr_array_add(r->set->files, f);
}

static void
one_mail(const char *msg, size_t len, void *data)
{
	struct reader *r = data;
	struct message *m;
	struct section s;
	gboolean in_section = FALSE, in_header = FALSE;
	const char *body, *l;
	size_t pos = 0, at, blen, n;

	if (r->stop || !(m = message_parse(msg, len, NULL)))
		return;
	memset(&s, 0, sizeof(s));
	section_reset(&s);
	body = message_body(m);
	blen = strlen(body);
	while (!r->stop &&
	       (at = pos, lore_next_line(body, blen, &pos, &l, &n))) {
		/* git am drops a mail's CRs (am.keepcr off) */
		if (n && l[n - 1] == '\r')
			n--;
		if (n > 11 && !strncmp(l, "diff --git ", 11)) {
			if (in_section)
				section_end(r, &s, body, blen);
			section_reset(&s);
			header_names(&s, l + 11, n - 11);
			in_section = in_header = TRUE;
		} else if (in_header && !header_line(&s, l, n)) {
			in_header = FALSE;
			if (n > 4 && !strncmp(l, "@@ -", 4))
				s.hunks = (gssize)at;
		}
	}
	if (in_section && !r->stop)
		section_end(r, &s, body, blen);
	section_reset(&s);
	message_free(m);
}

gboolean
preimage_read(const GString *mbox, struct preimage_set *set)
{
	struct reader r = {set, NULL, FALSE};

	memset(set, 0, sizeof(*set));
	set->files = g_ptr_array_new_with_free_func(preimage_free);
	r.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	mbox_split(mbox->str, mbox->len, one_mail, &r);
	g_hash_table_destroy(r.seen);
	return !r.stop;
}

void
preimage_clear(struct preimage_set *set)
{
	if (set->files)
		g_ptr_array_free(set->files, TRUE);
	g_free(set->refused);
	memset(set, 0, sizeof(*set));
}
