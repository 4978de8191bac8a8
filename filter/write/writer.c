/*
 * writer.c - output: mbox framing (git am reads "From " lines followed by a
 * date as separators and does not unescape ">From "; mboxrd adds one '>'
 * to every ">*From " line), atomic file replacement (mkstemp in the target
 * folder, write, fsync, rename; a file that already holds the same bytes
 * is left alone; temporary files a killed run left are swept), and
 * b4-compatible file names.
 */
#include "write/writer.h"
#include "mail/mbox.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* a temporary file of a dead writer unchanged this long is removed */
#define TEMP_STALE_AGE 60

void
writer_mbox_add(GString *mbox, const char *msg, gboolean mboxrd)
{
	size_t pos = 0, len = strlen(msg), ll;
	const char *l;

	if (!mboxrd) {
		g_string_append(mbox, "From git@z Thu Jan  1 00:00:00 1970\n");
		g_string_append(mbox, msg);
		return;
	}
	g_string_append(mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	while (lore_next_line(msg, len, &pos, &l, &ll)) {
		mbox_append_mboxrd_line(mbox, l, ll);
		if (l + ll < msg + len)
			g_string_append_c(mbox, '\n');
	}
}

gboolean
writer_has_from_line(const char *msg)
{
	size_t pos = 0, len = strlen(msg), ll;
	const char *l;

	while (lore_next_line(msg, len, &pos, &l, &ll))
		if (mbox_is_from_line(l, ll))
			return TRUE;
	return FALSE;
}

gboolean
writer_stdout(const GString *data, GError **err)
{
	fflush(stdout);
	if (!lore_write_all(STDOUT_FILENO, data->str, data->len)) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot write to standard output: %s",
			    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/*
 * Is @name one of our temporary files that no one will finish: named
 * "NAME.tmp-PID-XXXXXX", its process gone (or, for the "NAME.tmp-XXXXXX"
 * of older versions, which carry no pid, an hour old) and not written for
 * TEMP_STALE_AGE seconds, so that a writer on another host sharing the
 * folder has had its time?
 */
static gboolean
stale_temp(const char *dir, const char *name, gint64 now)
{
	g_autofree char *path = NULL, *num = NULL;
	const char *t = g_strrstr(name, ".tmp-"), *dash;
	guint64 pid = 0;
	GStatBuf st;
	size_t n;

	if (!t || t == name)
		return FALSE;
	t += 5;
	n = strlen(t);
	dash = strchr(t, '-');
	if (dash) {
		num = g_strndup(t, dash - t);
		if (n - (dash - t) != 7 ||
		    !g_ascii_string_to_unsigned(num, 10, 1, G_MAXINT, &pid,
						NULL))
			return FALSE;
	}
	if (!dash && n != 6)
		return FALSE;
	path = g_build_filename(dir, name, NULL);
	if (g_lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return FALSE;
	if (now - (gint64)st.st_mtime < (pid ? TEMP_STALE_AGE : 3600))
		return FALSE;
	return !pid || (kill((pid_t)pid, 0) < 0 && errno == ESRCH);
}

/*
 * Remove what a writer killed between its temporary file and the rename
 * left in @dir. Housekeeping: errors are ignored.
 */
static void
sweep_temps(const char *dir)
{
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	if (!d)
		return;
	while ((n = g_dir_read_name(d))) {
		if (stale_temp(dir, n, now)) {
			g_autofree char *p = g_build_filename(dir, n, NULL);

			g_unlink(p);
		}
	}
	g_dir_close(d);
}

/* Create a temporary file next to @path holding @data, synced to disk. */
static char *
write_temp(const char *path, const GString *data, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(path);
	char *tmp;
	mode_t um;
	int fd, e;

	if (g_mkdir_with_parents(dir, 0777) < 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot create folder '%s': %s", dir,
			    g_strerror(errno));
		return NULL;
	}
	/* the pid tells a later sweep whether the writer is still there */
	tmp = g_strdup_printf("%s.tmp-%d-XXXXXX", path, (int)getpid());
	fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot write '%s': %s",
			    path, g_strerror(errno));
		g_free(tmp);
		return NULL;
	}
	/* mkstemp makes it 0600; give it the usual umask-based mode */
	um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	/* the first failure is the one said: a write, the sync, the close */
	if (lore_write_all(fd, data->str, data->len) && fsync(fd) == 0)
		e = 0;
	else
		e = errno ? errno : EIO;
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		unlink(tmp);
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot write '%s': %s (the old file, if any, is "
			    "unchanged)",
			    path, g_strerror(e));
		g_free(tmp);
		return NULL;
	}
	return tmp;
}

/* Make the renames into @path's folder survive a crash. */
static void
sync_dir(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * Does @path hold exactly @data already? Then a rewrite (temporary file,
 * fsync, rename) would change nothing but cost the fsyncs, and a mail
 * filter that runs for every incoming reply of a series mostly writes the
 * same mbox again.
 */
static gboolean
same_content(const char *path, const GString *data)
{
	g_autofree char *old = NULL;
	GStatBuf st;
	gsize len;

	if (g_stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (guint64)st.st_size != data->len)
		return FALSE;
	return g_file_get_contents(path, &old, &len, NULL) &&
	       len == data->len && !memcmp(old, data->str, len);
}

gboolean
writer_files(const char *const *paths, const GString *const *data, guint n,
	     GError **err)
{
	char **tmps = g_new0(char *, n + 1);
	gboolean *same = g_new0(gboolean, n + 1);
	gboolean ok = TRUE;
	guint i, changed = 0;

	for (i = 0; i < n; i++) {
		g_autofree char *dir = g_path_get_dirname(paths[i]);

		/* a run that rewrites nothing still cleans up */
		sweep_temps(dir);
		changed += !(same[i] = same_content(paths[i], data[i]));
	}
	/* every file is complete on disk before the first one is replaced */
	for (i = 0; i < n && ok; i++)
		if (!same[i])
			ok = (tmps[i] = write_temp(paths[i], data[i], err)) !=
			     NULL;
	for (i = 0; i < n && ok; i++) {
		if (same[i])
			continue;
		if (rename(tmps[i], paths[i]) < 0) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot write '%s': %s (the old file, if "
				    "any, is unchanged)",
				    paths[i], g_strerror(errno));
			ok = FALSE;
			break;
		}
		g_clear_pointer(&tmps[i], g_free);
	}
	for (i = 0; i < n; i++)
		if (tmps[i])
			unlink(tmps[i]);
	if (ok && changed)
		sync_dir(paths[0]);
	g_strfreev(tmps);
	g_free(same);
	return ok;
}

gboolean
writer_file(const char *path, const GString *data, GError **err)
{
	return writer_files(&path, &data, 1, err);
}

/* re.sub(r'\W+', '_', s).strip('_').lower(), on Unicode letters */
static char *
slugify(const char *s)
{
	GString *o = g_string_new(NULL);
	const char *p;
	gboolean us = FALSE;

	for (p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char_validated(p, -1);

		if (c == (gunichar)-1 || c == (gunichar)-2)
			break;
		if (g_unichar_isalnum(c) || c == '_') {
			if (us && o->len)
				g_string_append_c(o, '_');
			us = FALSE;
			g_string_append_unichar(o, g_unichar_tolower(c));
		} else {
			us = TRUE;
		}
	}
	while (o->len && o->str[o->len - 1] == '_')
		g_string_truncate(o, o->len - 1);
	return g_string_free(o, FALSE);
}

/* Cut to @max characters without splitting a UTF-8 sequence. */
static char *
cut(char *s, glong max)
{
	if (g_utf8_strlen(s, -1) > max) {
		char *e = g_utf8_offset_to_pointer(s, max);

		*e = '\0';
	}
	return s;
}

static struct spatch *
first_present(struct series *ser)
{
	guint i;

	for (i = 0; i < ser->slots->len; i++) {
		struct series_entry *e =
		    &g_array_index(ser->slots, struct series_entry, i);

		if (e->p)
			return e->p;
	}
	return NULL;
}

static char *
date_prefix(const struct spatch *p)
{
	GDateTime *dt;
	GTimeZone *tz;
	char *s;

	tz = g_time_zone_new_offset(p->msg->date_tz);
	dt = g_date_time_new_from_unix_utc(p->msg->date);
	if (dt && tz) {
		GDateTime *l = g_date_time_to_timezone(dt, tz);

		s = g_date_time_format(l, "%Y%m%d");
		g_date_time_unref(l);
	} else {
		s = g_strdup("19700101");
	}
	if (dt)
		g_date_time_unref(dt);
	if (tz)
		g_time_zone_unref(tz);
	return s;
}

char *
writer_slug(struct series *ser)
{
	struct spatch *p = first_present(ser);
	g_autofree char *date = NULL, *local = NULL, *unsafe = NULL;
	char *slug;
	const char *at;

	if (!p)
		return g_strdup("undefined");
	date = date_prefix(p);
	at = strchr(p->msg->from_email, '@');
	local = at ? g_strndup(p->msg->from_email, at - p->msg->from_email)
		   : g_strdup(p->msg->from_email);
	unsafe = g_strdup_printf("%s_%s_%s", date, local, p->subj.title);
	slug = slugify(unsafe);
	if (ser->revision != 1) {
		char *v = g_strdup_printf("v%d_%s", ser->revision, slug);

		g_free(slug);
		slug = v;
	}
	if (!*slug) {
		g_free(slug);
		slug = g_strdup("series");
	}
	return cut(slug, 100);
}

char *
writer_branch_slug(struct series *ser)
{
	struct spatch *p = first_present(ser);
	g_autofree char *date = NULL, *addr = NULL;
	char *slug;

	if (!p)
		return g_strdup("undefined");
	date = date_prefix(p);
	addr = slugify(p->msg->from_email);
	slug = g_strdup_printf("%s_%s", date, addr);
	if (ser->revision != 1) {
		char *v = g_strdup_printf("v%d_%s", ser->revision, slug);

		g_free(slug);
		slug = v;
	}
	return cut(slug, 100);
}
