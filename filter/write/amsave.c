/*
 * amsave.c - b4 am's -M (a maildir) and -Q (a quilt-ready folder), made
 * from the am-ready mbox (amsave.h). The names are b4's: the patch's
 * counter and its title with each run of non-word characters made one
 * '_', lower case ("0002_part_add_piece_2").
 */
#include "write/amsave.h"
#include "mail/mailinfo.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "mail/subject.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* one folder being filled under a temporary name */
struct save {
	char *tmp;	/* the temporary folder */
	char *files;	/* where the messages go: tmp, or tmp/new */
	GString *order; /* the quilt series file */
	gboolean quilt;
	const GString *mbox; /* what is split */
	GError *err; /* the first failure; nothing more is written after */
};

/* "NNNN_title" as b4 names a message of the series */
static char *
name_of(const struct message *m)
{
	struct subject s = {0};
	GString *n = g_string_new(NULL);
	gboolean gap = FALSE;
	const char *p;
	char *low, *cut;

	subject_parse(m->subject ? m->subject : "", &s);
	for (p = s.title ? s.title : ""; *p; p = g_utf8_next_char(p)) {
		gunichar u = g_utf8_get_char_validated(p, -1);

		if (u == (gunichar)-1 || u == (gunichar)-2)
			break;
		if (g_unichar_isalnum(u) || u == '_') {
			if (gap && n->len)
				g_string_append_c(n, '_');
			gap = FALSE;
			g_string_append_unichar(n, u);
		} else {
			gap = TRUE;
		}
	}
	/* b4's strip('_'); a title past 100 characters is cut there, so
	 * that the name stays a file name */
	while (n->len && n->str[n->len - 1] == '_')
		g_string_truncate(n, n->len - 1);
	p = n->str + strspn(n->str, "_");
	cut = g_utf8_substring(p, 0, MIN(g_utf8_strlen(p, -1), 100));
	low = g_utf8_strdown(cut, -1);
	g_string_printf(n, "%04d_%s", s.counter, low);
	g_free(low);
	g_free(cut);
	subject_clear(&s);
	return g_string_free(n, FALSE);
}

/* What quilt reads: the mail's From, Subject, Date, message and patch. */
static GString *
quilt_text(const struct message *m)
{
	struct message *mm = (struct message *)m;
	struct mailinfo mi = {0};
	GString *t = g_string_new(NULL);

	mailinfo_run(m, message_am_body(mm), &mi);
	if (*mi.author_name)
		g_string_append_printf(t, "From: %s <%s>\n", mi.author_name,
				       mi.author_email);
	else
		g_string_append_printf(t, "From: %s\n", mi.author_email);
	g_string_append_printf(t, "Subject: %s\nDate: %s\n\n%s", mi.subject,
			       mi.date, mi.body);
	mailinfo_clear(&mi);
	return t;
}

static gboolean
put(const char *path, const char *data, size_t len, GError **err)
{
	if (g_file_set_contents(path, data, (gssize)len, err))
		return TRUE;
	g_clear_error(err);
	g_set_error(err, LORE_ERROR, LORE_EIO, "cannot write '%s': %s", path,
		    g_strerror(errno));
	return FALSE;
}

/*
 * A maildir file holds the message as the am job built it: without the
 * From_ line, and with the newline the split took for the blank line
 * that separates messages (the am job's messages end with one, as b4's).
 * Only a message handed over in place (not unquoted) has that byte.
 */
static void
maildir_bytes(const struct save *sv, const char **msg, size_t *len)
{
	const char *end = sv->mbox->str + sv->mbox->len;
	const char *nl;

	if (*len >= 5 && !memcmp(*msg, "From ", 5) &&
	    (nl = memchr(*msg, '\n', *len))) {
		*len -= (size_t)(nl + 1 - *msg);
		*msg = nl + 1;
	}
	if (*msg >= sv->mbox->str && *msg + *len < end && (*msg)[*len] == '\n')
		(*len)++;
}

static void
save_one(const char *msg, size_t len, void *data)
{
	struct save *sv = data;
	g_autofree char *name = NULL, *path = NULL;
	GString *text = NULL;
	GError *perr = NULL;
	struct message *m;

	if (sv->err)
		return;
	m = message_parse(msg, len, &perr);
	if (!m) {
		sv->err = perr;
		return;
	}
	name = name_of(m);
	if (sv->quilt) {
		path = g_strdup_printf("%s/%s.patch", sv->files, name);
		text = quilt_text(m);
		put(path, text->str, text->len, &sv->err);
		g_string_append_printf(sv->order, "%s.patch\n", name);
		g_string_free(text, TRUE);
	} else {
		path = g_strdup_printf("%s/%s.eml", sv->files, name);
		maildir_bytes(sv, &msg, &len);
		put(path, msg, len, &sv->err);
	}
	message_free(m);
}

/* Remove the temporary folder of a failed save, its files and all. */
static void
discard(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, n, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			discard(p);
		else
			unlink(p);
	}
	if (d)
		g_dir_close(d);
	rmdir(dir);
}

static gboolean
save(const GString *mbox, const char *dir, gboolean quilt, GError **err)
{
	g_autofree char *parent = g_path_get_dirname(dir);
	g_autofree char *base = g_path_get_basename(dir);
	struct save sv = {0};
	mode_t mask = umask(0);
	gboolean ok = FALSE;

	umask(mask);
	if (g_file_test(dir, G_FILE_TEST_EXISTS)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' exists: not replaced (move it away first)",
			    dir);
		return FALSE;
	}
	sv.tmp = g_strdup_printf("%s/.%s.XXXXXX", parent, base);
	if (g_mkdir_with_parents(parent, 0777) < 0 || !g_mkdtemp(sv.tmp)) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot make a folder in '%s': %s", parent,
			    g_strerror(errno));
		g_free(sv.tmp);
		return FALSE;
	}
	chmod(sv.tmp, 0777 & ~mask);
	sv.quilt = quilt;
	sv.mbox = mbox;
	sv.order = g_string_new(NULL);
	sv.files =
	    quilt ? g_strdup(sv.tmp) : g_build_filename(sv.tmp, "new", NULL);
	if (!quilt) {
		static const char *const subs[] = {"cur", "new", "tmp"};
		guint i;

		for (i = 0; i < G_N_ELEMENTS(subs); i++) {
			g_autofree char *s =
			    g_build_filename(sv.tmp, subs[i], NULL);

			if (!sv.err && mkdir(s, 0777) < 0)
				g_set_error(&sv.err, LORE_ERROR, LORE_EIO,
					    "cannot make '%s': %s", s,
					    g_strerror(errno));
		}
	}
	if (!sv.err)
		mbox_split(mbox->str, mbox->len, save_one, &sv);
	if (!sv.err && quilt) {
		g_autofree char *s = g_build_filename(sv.tmp, "series", NULL);

		put(s, sv.order->str, sv.order->len, &sv.err);
	}
	if (!sv.err && rename(sv.tmp, dir) < 0)
		g_set_error(&sv.err, LORE_ERROR, LORE_EIO,
			    "cannot rename into '%s': %s", dir,
			    g_strerror(errno));
	if (sv.err) {
		discard(sv.tmp);
		g_propagate_error(err, sv.err);
	} else {
		ok = TRUE;
	}
	g_string_free(sv.order, TRUE);
	g_free(sv.files);
	g_free(sv.tmp);
	return ok;
}

gboolean
amsave_maildir(const GString *mbox, const char *dir, GError **err)
{
	return save(mbox, dir, FALSE, err);
}

gboolean
amsave_quilt(const GString *mbox, const char *dir, GError **err)
{
	return save(mbox, dir, TRUE, err);
}
