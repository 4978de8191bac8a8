/*
 * track.c - b4's thanks tracking (b4/mbox.py thanks_record_am, read by
 * b4/ty.py) written from C: the series' first message (cover letter, else
 * patch 1) gives the addresses, date and a quote of its text; each patch
 * its subject, message-id, "NN/MM" and patchwork hash. The hash is taken
 * from the applied commits' own diffs (`git log -p`), which is what
 * `b4 ty --auto` computes and matches, and the commits go in too. A
 * pull request's record (b4/pr.py thanks_record_pr) is the mail's
 * fields, the remote and ref, named after the tip fetched.
 */
#include "git/track.h"
#include "core/json.h"
#include "core/gitrun.h"
#include "mail/mbox.h"
#include "git/mergemsg.h"
#include "mail/message.h"
#include "mail/subject.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

/* "@@ -A[,B] +C[,D] @@": B and D (1 when left out) */
static gboolean
hunk_counts(const char *l, long *b, long *d)
{
	const char *p = l + 4;
	char *end;

	if (strncmp(l, "@@ -", 4) || !g_ascii_isdigit(*p))
		return FALSE;
	strtol(p, &end, 10);
	*b = 1;
	if (*end == ',') {
		if (!g_ascii_isdigit(end[1]))
			return FALSE;
		*b = strtol(end + 1, &end, 10);
	}
	if (strncmp(end, " +", 2) || !g_ascii_isdigit(end[2]))
		return FALSE;
	strtol(end + 2, &end, 10);
	*d = 1;
	if (*end == ',') {
		if (!g_ascii_isdigit(end[1]))
			return FALSE;
		*d = strtol(end + 1, &end, 10);
	}
	return !strncmp(end, " @@", 3);
}

char *
track_pwhash(const char *diff, gsize len)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	g_autofree char *copy = g_strndup(diff, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
	char *out;
	guint i;
	long b, d;

	for (i = 0; lines[i]; i++) {
		const char *l = lines[i];
		g_autofree char *norm = NULL;

		if (!*l)
			continue;
		if ((!strncmp(l, "--- ", 4) || !strncmp(l, "+++ ", 4)) &&
		    l[4] && !g_ascii_isspace(l[4])) {
			/* -p1: the first path component becomes a/ or b/ */
			size_t n = strcspn(l + 4, " \t\r\n\v\f");
			g_autofree char *name = g_strndup(l + 4, n);
			const char *slash = strchr(name, '/');

			norm = g_strdup_printf("%.3s %s/%s", l,
					       l[0] == '-' ? "a" : "b",
					       slash ? slash + 1 : "");
			l = norm;
		} else if (hunk_counts(l, &b, &d)) {
			norm = g_strdup_printf("@@ -%ld +%ld @@", b, d);
			l = norm;
		} else if (l[0] != '-' && l[0] != '+' && l[0] != ' ') {
			continue;
		}
		g_checksum_update(c, (const guchar *)l, strlen(l));
		g_checksum_update(c, (const guchar *)"\n", 1);
	}
	out = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	return out;
}

static gboolean
blank(const char *l)
{
	while (*l && g_ascii_isspace(*l))
		l++;
	return !*l;
}

/* ^(hi|hello|greetings|dear)\W, case-insensitively */
static gboolean
greeting(const char *l)
{
	static const char *const words[] = {"hi", "hello", "greetings", "dear"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(words); i++) {
		size_t n = strlen(words[i]);

		if (!g_ascii_strncasecmp(l, words[i], n) && l[n] &&
		    !g_ascii_isalnum(l[n]) && l[n] != '_' &&
		    !((guchar)l[n] & 0x80))
			return TRUE;
	}
	return FALSE;
}

/* b4's make_quote(): the first lines of the text, greeting left out,
 * cut at the first blank line past @maxlines (5 for a series, 6 for a
 * pull request, as b4 calls it) */
static char *
quote(const char *body, guint maxlines)
{
	g_autofree char *msg = mergemsg_cover_text(body);
	g_auto(GStrv) lines = NULL;
	GString *q = g_string_new(NULL);
	guint i = 0, n = 0;
	size_t len = strlen(msg);

	while (len && msg[len - 1] == '\n')
		msg[--len] = '\0';
	if (!*msg) {
		g_string_free(q, TRUE);
		return g_strdup("> \n");
	}
	lines = g_strsplit(msg, "\n", -1);
	if (lines[1] && greeting(lines[0])) {
		i = 1;
		while (lines[i] && !*lines[i])
			i++;
	}
	for (; lines[i]; i++) {
		if (n > maxlines && blank(lines[i])) {
			g_string_append(q, "\n> \n> [...]");
			break;
		}
		g_strchomp(lines[i]);
		g_string_append_printf(q, "%s> %s", n ? "\n" : "", lines[i]);
		n++;
	}
	return g_string_free(q, FALSE);
}

struct patches {
	GPtrArray *msgs; /* struct message * of the mbox, in order */
};

static void
add_msg(const char *msg, size_t len, void *data)
{
	struct patches *p = data;
	struct message *m = message_parse(msg, len, NULL);

	if (m)
		g_ptr_array_add(p->msgs, m);
}

/* b4's extended slug: date, sender's local part, subject; \W+ -> _ */
static char *
slug(struct message *first, const char *title, int revision)
{
	g_autoptr(GDateTime) dt =
	    g_date_time_new_from_unix_utc(first->date + first->date_tz);
	g_autofree char *day =
	    dt ? g_date_time_format(dt, "%Y%m%d") : g_strdup("00000000");
	const char *at = strchr(first->from_email, '@');
	g_autofree char *local =
	    g_strndup(first->from_email, at ? (gsize)(at - first->from_email)
					    : strlen(first->from_email));
	g_autofree char *raw = g_strdup_printf("%s_%s_%s", day, local, title);
	GString *s = g_string_new(NULL);
	const char *p;
	gboolean gap = FALSE;
	char *low;

	if (revision != 1)
		g_string_append_printf(s, "v%d_", revision);
	for (p = raw; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char_validated(p, -1);

		if (c == (gunichar)-1 || c == (gunichar)-2)
			break;
		if (g_unichar_isalnum(c) || c == '_') {
			if (gap && s->len && s->str[s->len - 1] != '_')
				g_string_append_c(s, '_');
			gap = FALSE;
			g_string_append_unichar(s, c);
		} else {
			gap = TRUE;
		}
	}
	low = g_utf8_strdown(s->str, -1);
	g_string_free(s, TRUE);
	if (g_utf8_strlen(low, -1) > 100)
		*g_utf8_offset_to_pointer(low, 100) = '\0';
	return low;
}

/* The applied commits, oldest first, and each one's patchwork hash. */
static gboolean
commits(const char *onto, const char *tip, GPtrArray *ids, GPtrArray *hashes)
{
	g_autofree char *range = g_strdup_printf("%s..%s", onto, tip);
	const char *const argv[] = {"log",
				    "--reverse",
				    "-p",
				    "--no-color",
				    "--no-ext-diff",
				    "--no-textconv",
				    "--format=%x00%H",
				    range,
				    NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	guint i;

	if (gitrun(NULL, argv, NULL, 0, out, e, NULL) != 0) {
		g_string_free(out, TRUE);
		g_string_free(e, TRUE);
		return FALSE;
	}
	/* "\0ID\n\ndiff..." per commit: split at the NULs */
	for (i = 0; i < out->len; i++) {
		const char *rec = out->str + i + 1, *nl;
		const char *end;

		if (out->str[i] != '\0')
			continue;
		end = memchr(rec, '\0', out->len - (rec - out->str));
		if (!end)
			end = out->str + out->len;
		nl = memchr(rec, '\n', end - rec);
		if (!nl)
			nl = end;
		g_ptr_array_add(ids, g_strndup(rec, nl - rec));
		g_ptr_array_add(hashes, track_pwhash(nl, end - nl));
		i = end - out->str - 1;
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return TRUE;
}

/*
 * A patch mail's patchwork hash, taken from its diff (from the first
 * "diff " line) as patchwork takes it from the diff it parsed: the
 * commit message and diffstat above are not the patch, and a commit's own
 * diff then hashes the same.
 */
static char *
diff_pwhash(struct message *m)
{
	const char *b = message_body(m), *d, *sig;

	if (g_str_has_prefix(b, "diff "))
		d = b;
	else if ((d = strstr(b, "\ndiff ")))
		d++;
	else
		d = b;
	/* format-patch's "-- \n2.39.5" signature is not the diff's; a
	 * removed "- " line looks the same, but has hunks after it */
	sig = g_strrstr(d, "\n-- \n");
	if (sig && !strstr(sig, "\n@@ ") && !strstr(sig, "\ndiff "))
		return track_pwhash(d, (gsize)(sig - d) + 1);
	return track_pwhash(d, strlen(d));
}

/*
 * The cover letter @t holds for the series whose first patch is @m: its
 * parent, numbered 0/N of the same N and revision; NULL when there is
 * none. A run without --apply keeps no cover of its own. Borrowed.
 */
static struct message *
thread_cover(struct thread *t, struct message *m)
{
	struct message *o = m->msgid ? thread_get(t, m->msgid) : NULL;
	struct message *par = o ? thread_parent(t, o) : NULL;
	struct subject s, ps;
	gboolean ok;

	if (!par || !par->subject)
		return NULL;
	subject_parse(par->subject, &ps);
	subject_parse(m->subject ? m->subject : "", &s);
	ok = !ps.reply && ps.counter == 0 && ps.expected == s.expected &&
	     ps.revision == s.revision;
	subject_clear(&ps);
	subject_clear(&s);
	return ok ? par : NULL;
}

/* b4's record's fields, "KEY": "VALUE" in @fields' order, opening the
 * object: json.dump(indent=4)'s layout */
static void
put_fields(GString *j, const char *const (*fields)[2], guint n)
{
	guint i;

	for (i = 0; i < n; i++) {
		g_string_append_printf(j, "%s\n    \"%s\": ", i ? "," : "{",
				       fields[i][0]);
		json_str(j, fields[i][1] ?: "", -1);
	}
}

char *
track_dir(void)
{
	const char *x = g_getenv("XDG_DATA_HOME");

	if (x && *x)
		return g_build_filename(x, "b4", NULL);
	return g_build_filename(g_get_home_dir(), ".local", "share", "b4",
				NULL);
}

char *
track_write(struct thread *t, const GString *mbox, const GString *cover,
	    const char *onto, const char *tip, gboolean cherrypick,
	    GError **err)
{
	struct patches p = {
	    g_ptr_array_new_with_free_func((GDestroyNotify)message_free)};
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *hashes = g_ptr_array_new_with_free_func(g_free);
	struct message *cov = NULL, *first, *orig;
	GString *j = g_string_new(NULL);
	g_autofree char *dir = track_dir(), *name = NULL, *path = NULL;
	g_autofree char *refs = NULL, *q = NULL;
	struct subject fs;
	char *result = NULL;
	guint i;
	char num[16];
	int width;

	mbox_split(mbox->str, mbox->len, add_msg, &p);
	if (cover && cover->len)
		cov = message_parse(cover->str, cover->len, NULL);
	if (!p.msgs->len) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "the series has no patches");
		goto out;
	}
	if (onto &&
	    (!commits(onto, tip, ids, hashes) || ids->len != p.msgs->len)) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "the applied commits do not match the series");
		goto out;
	}
	for (i = 0; !onto && i < p.msgs->len; i++)
		g_ptr_array_add(hashes, diff_pwhash(p.msgs->pdata[i]));
	first = cov ? cov : thread_cover(t, p.msgs->pdata[0]);
	if (!first)
		first = p.msgs->pdata[0];
	/* the message as it came, for its addresses */
	orig = first->msgid ? thread_get(t, first->msgid) : NULL;
	if (!orig)
		orig = first;
	subject_parse(first->subject ? first->subject : "", &fs);
	refs = message_header(orig, "References");
	q = quote(message_body(first), 5);
	{
		/* b4's tracking file names these fields so, in this order */
		const char *fields[][2] = {
		    {"msgid", first->msgid},
		    {"subject", orig->subject},
		    {"fromname", orig->from_name},
		    {"fromemail", orig->from_email},
		    {"to", orig->to_hdr},
		    {"cc", orig->cc_hdr},
		    {"references", refs ? g_strstrip(refs) : ""},
		    {"sentdate", orig->date_hdr},
		    {"quote", q},
		};

		put_fields(j, fields, G_N_ELEMENTS(fields));
	}
	g_string_append_printf(j,
			       ",\n    \"cherrypick\": %s,\n    \"patches\": [",
			       cherrypick ? "true" : "false");
	/* b4 pads the counter to the width of the patch count */
	width = g_snprintf(num, sizeof(num), "%d", fs.expected);
	for (i = 0; i < p.msgs->len; i++) {
		struct message *m = p.msgs->pdata[i];
		struct subject s;
		g_autofree char *prefix = NULL;

		subject_parse(m->subject ? m->subject : "", &s);
		prefix =
		    g_strdup_printf("%0*d/%d", width, s.counter, s.expected);
		g_string_append(j, i ? ",\n        [\n            "
				     : "\n        [\n            ");
		json_str(j, s.title ?: "", -1);
		g_string_append(j, ",\n            ");
		json_str(j, hashes->pdata[i] ?: "", -1);
		g_string_append(j, ",\n            ");
		json_str(j, m->msgid ?: "", -1);
		g_string_append(j, ",\n            ");
		json_str(j, prefix ?: "", -1);
		g_string_append(j, "\n        ]");
		subject_clear(&s);
	}
	g_string_append(j, "\n    ]");
	/* not applied yet: b4 ty --auto finds the commits by their hashes */
	if (onto)
		g_string_append(j, ",\n    \"commits\": [");
	for (i = 0; onto && i < ids->len; i++)
		g_string_append_printf(j,
				       "%s\n        [\n            %u,\n       "
				       "     \"%s\"\n        ]",
				       i ? "," : "", i + 1,
				       (char *)ids->pdata[i]);
	g_string_append(j, onto ? "\n    ]\n}" : "\n}");
	name = slug(first, fs.title, fs.revision);
	subject_clear(&fs);
	path = g_strdup_printf("%s/%s.am", dir, name);
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot make '%s': %s",
			    dir, g_strerror(errno));
		goto out;
	}
	if (g_file_set_contents(path, j->str, j->len, err))
		result = g_steal_pointer(&path);
out:
	if (cov)
		message_free(cov);
	g_ptr_array_free(p.msgs, TRUE);
	g_ptr_array_free(ids, TRUE);
	g_ptr_array_free(hashes, TRUE);
	g_string_free(j, TRUE);
	return result;
}

char *
track_write_pr(struct message *m, const char *remote, const char *ref,
	       const char *tip, gboolean *fresh, GError **err)
{
	g_autofree char *dir = track_dir(), *path = NULL, *refs = NULL;
	g_autofree char *q = NULL;
	GString *j;
	gboolean ok;

	*fresh = FALSE;
	/* the name is the tip git fetched: 40 (or 64) hex digits, no path */
	if (strspn(tip, "0123456789abcdef") != strlen(tip) ||
	    (strlen(tip) != 40 && strlen(tip) != 64)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%.80s' is no commit id", tip);
		return NULL;
	}
	path = g_strdup_printf("%s/%s.pr", dir, tip);
	/* b4 keeps the first record of a tip: a second fetch is no news */
	if (g_file_test(path, G_FILE_TEST_EXISTS))
		return g_steal_pointer(&path);
	refs = message_header(m, "References");
	q = quote(message_body(m), 6);
	j = g_string_new(NULL);
	{
		/* b4 pr's thanks_record_pr(): these fields, in this order */
		const char *fields[][2] = {
		    {"msgid", m->msgid},
		    {"subject", m->subject},
		    {"fromname", m->from_name},
		    {"fromemail", m->from_email},
		    {"to", m->to_hdr},
		    {"cc", m->cc_hdr},
		    {"references", refs ? g_strstrip(refs) : ""},
		    {"remote", remote},
		    {"ref", ref},
		    {"sentdate", m->date_hdr},
		    {"quote", q},
		};

		put_fields(j, fields, G_N_ELEMENTS(fields));
	}
	g_string_append(j, "\n}");
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot make '%s': %s",
			    dir, g_strerror(errno));
		ok = FALSE;
	} else {
		ok = g_file_set_contents(path, j->str, j->len, err);
	}
	g_string_free(j, TRUE);
	*fresh = ok;
	return ok ? g_steal_pointer(&path) : NULL;
}
