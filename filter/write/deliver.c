/*
 * deliver.c - messages into mailboxes unchanged. mboxrd framing follows the
 * qmail mbox(5) rules (">*From " lines get one more '>', a blank line ends
 * each entry, as mutt expects when it reads the mbox back); maildir
 * delivery follows the maildir spec (unique names "time.MusecPpidQn.host",
 * written in tmp/, linked into cur/ with the ":2," info).
 */
#include "write/deliver.h"
#include "mail/mbox.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Header blocks longer than this are not mail we wrote: stop reading. */
#define MAX_HEADER (1024 * 1024)

static gboolean
addr_fits(const char *a)
{
	const char *p;

	if (!a || !*a)
		return FALSE;
	for (p = a; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return FALSE;
	return TRUE;
}

char *
deliver_from_line(const struct message *m)
{
	static const char *const wday[] = {"Sun", "Mon", "Tue", "Wed",
					   "Thu", "Fri", "Sat"};
	static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr",
					  "May", "Jun", "Jul", "Aug",
					  "Sep", "Oct", "Nov", "Dec"};
	gint64 when = m->date;
	time_t tt;
	struct tm tm;

	/* asctime has four digits for the year */
	if (when < 0 || when > G_GINT64_CONSTANT(253402300799))
		when = 0;
	tt = (time_t)when;
	gmtime_r(&tt, &tm);
	return g_strdup_printf(
	    "From %s %s %s %2d %02d:%02d:%02d %d",
	    addr_fits(m->from_email) ? m->from_email : "MAILER-DAEMON",
	    wday[tm.tm_wday], mon[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, tm.tm_year + 1900);
}

void
deliver_mboxrd_add(GString *out, const struct message *m)
{
	g_autofree char *from = deliver_from_line(m);
	size_t pos = 0, ll;
	const char *l;

	g_string_append(out, from);
	g_string_append_c(out, '\n');
	while (lore_next_line(m->raw, m->len, &pos, &l, &ll)) {
		mbox_append_mboxrd_line(out, l, ll);
		/* also ends a last line that had no newline */
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

/*
 * Bytes to put before the first new entry so that its From_ line follows
 * a blank line, as readers require of every From_ line but the first.
 */
const char *
deliver_separator(const guint8 *d, size_t n)
{
	if (n == 0 || (n >= 2 && d[n - 1] == '\n' && d[n - 2] == '\n'))
		return "";
	return d[n - 1] == '\n' ? "\n" : "\n\n";
}

/* The Message-ID of a maildir file, reading its header only. */
static char *
file_msgid(const char *path)
{
	FILE *f = fopen(path, "rb");
	GString *h;
	char *line = NULL, *id = NULL;
	size_t cap = 0;
	ssize_t n;
	struct message *m;

	if (!f)
		return NULL;
	h = g_string_new(NULL);
	while ((n = getline(&line, &cap, f)) > 0 && h->len < MAX_HEADER) {
		if (!strcmp(line, "\n") || !strcmp(line, "\r\n"))
			break;
		g_string_append_len(h, line, n);
	}
	free(line);
	fclose(f);
	m = message_parse(h->str, h->len, NULL);
	/* copied: the message's strings are one allocation with it */
	if (m)
		id = g_strdup(m->msgid);
	message_free(m);
	g_string_free(h, TRUE);
	return id;
}

static void
maildir_ids(const char *dir, GHashTable *have)
{
	static const char *const subs[] = {"cur", "new"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *sub = g_build_filename(dir, subs[i], NULL);
		GDir *d = g_dir_open(sub, 0, NULL);
		const char *n;

		if (!d)
			continue;
		while ((n = g_dir_read_name(d))) {
			g_autofree char *f = NULL;
			char *id;

			if (n[0] == '.')
				continue;
			f = g_build_filename(sub, n, NULL);
			id = file_msgid(f);
			if (id)
				g_hash_table_add(have, id);
		}
		g_dir_close(d);
	}
}

static gboolean
is_empty_dir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	gboolean empty;

	if (!d)
		return FALSE;
	empty = g_dir_read_name(d) == NULL;
	g_dir_close(d);
	return empty;
}

/* Make sure @dir is a maildir: create it, or its missing subfolders. */
static int
maildir_prepare(const char *dir, GError **err)
{
	static const char *const subs[] = {"cur", "new", "tmp"};
	gboolean exists = g_file_test(dir, G_FILE_TEST_EXISTS);
	guint i, have = 0;

	if (exists && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is not a folder, so not a maildir", dir);
		return LORE_EUSAGE;
	}
	for (i = 0; exists && i < 2; i++) {
		g_autofree char *s = g_build_filename(dir, subs[i], NULL);

		have += g_file_test(s, G_FILE_TEST_IS_DIR);
	}
	if (exists && !have && !is_empty_dir(dir)) {
		g_set_error(
		    err, LORE_ERROR, LORE_EUSAGE,
		    "'%s' is a folder but not a maildir (no cur/ or new/)",
		    dir);
		return LORE_EUSAGE;
	}
	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *s = g_build_filename(dir, subs[i], NULL);

		if (g_mkdir_with_parents(s, 0700) < 0) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot create folder '%s': %s", s,
				    g_strerror(errno));
			return LORE_EIO;
		}
	}
	return LORE_OK;
}

/* The host part of a unique name, with '/' and ':' escaped as required. */
static char *
maildir_host(void)
{
	GString *s = g_string_new(NULL);
	const char *p;

	for (p = g_get_host_name(); *p; p++) {
		if (*p == '/')
			g_string_append(s, "\\057");
		else if (*p == ':')
			g_string_append(s, "\\072");
		else
			g_string_append_c(s, *p);
	}
	return g_string_free(s, FALSE);
}

/*
 * Write @m into tmp/ under a new unique name (stored in @name). The data
 * is made durable for all files at once by maildir_sync().
 */
static int
maildir_write(const char *dir, const char *host, const struct message *m,
	      guint *seq, char **name, GError **err)
{
	g_autofree char *tmp = NULL;
	int fd = -1, e, tries;

	for (tries = 0; tries < 100 && fd < 0; tries++) {
		gint64 now = g_get_real_time();

		g_free(*name);
		g_free(tmp);
		*name = g_strdup_printf(
		    "%" G_GINT64_FORMAT ".M%06dP%dQ%u.%s", now / G_USEC_PER_SEC,
		    (int)(now % G_USEC_PER_SEC), (int)getpid(), ++*seq, host);
		tmp = g_build_filename(dir, "tmp", *name, NULL);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd >= 0) {
		gboolean ok = lore_write_all(fd, m->raw, m->len);

		e = errno;
		if (close(fd) < 0 && ok) {
			ok = FALSE;
			e = errno;
		}
		if (ok)
			return LORE_OK;
		unlink(tmp);
		errno = e;
	}
	g_clear_pointer(name, g_free);
	g_set_error(err, LORE_ERROR, LORE_EIO,
		    "cannot deliver to maildir '%s': %s", dir,
		    g_strerror(errno));
	return LORE_EIO;
}

/*
 * Make the files written to tmp/ durable before any is linked into cur/,
 * as the maildir spec asks. One syncfs(2) for the batch: an fsync(2) per
 * file costs a journal commit each, seconds for a thread of thousands.
 */
static gboolean
maildir_sync(const char *dir, GPtrArray *names)
{
	g_autofree char *tmpdir = g_build_filename(dir, "tmp", NULL);
	int fd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	gboolean ok;
	guint i;

	if (fd < 0)
		return FALSE;
	ok = syncfs(fd) == 0;
	close(fd);
	for (i = 0; !ok && i < names->len; i++) {
		g_autofree char *f =
		    g_build_filename(tmpdir, names->pdata[i], NULL);

		fd = open(f, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) < 0) {
			if (fd >= 0)
				close(fd);
			return FALSE;
		}
		close(fd);
		if (i + 1 == names->len)
			ok = TRUE;
	}
	return ok;
}

/* Move tmp/@name to cur/@name:2,[S]; link(2) never replaces a file. */
static gboolean
maildir_link(const char *dir, const char *name, gboolean seen)
{
	g_autofree char *tmp = g_build_filename(dir, "tmp", name, NULL);
	g_autofree char *dst =
	    g_strdup_printf("%s/cur/%s:2,%s", dir, name, seen ? "S" : "");
	int e;

	if (link(tmp, dst) == 0) {
		unlink(tmp);
		return TRUE;
	}
	/* some file systems have no hard links: rename what is unique */
	if (errno != EEXIST && !g_file_test(dst, G_FILE_TEST_EXISTS) &&
	    rename(tmp, dst) == 0)
		return TRUE;
	e = errno;
	unlink(tmp);
	errno = e;
	return FALSE;
}

/* Make the new directory entries durable too. */
static void
sync_dir(const char *dir)
{
	g_autofree char *cur = g_build_filename(dir, "cur", NULL);
	int fd = open(cur, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Remove what was written to tmp/ but will not be delivered. */
static void
maildir_discard(const char *dir, GPtrArray *names, guint from)
{
	guint i;

	for (i = from; i < names->len; i++) {
		g_autofree char *f =
		    g_build_filename(dir, "tmp", names->pdata[i], NULL);

		unlink(f);
	}
}

int
deliver_maildir(const char *dir, GPtrArray *msgs, gboolean seen, guint *added,
		GError **err)
{
	g_autofree char *host = NULL;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GHashTable *have;
	guint i, seq = 0;
	int rc;

	*added = 0;
	rc = maildir_prepare(dir, err);
	if (rc)
		goto out;
	have = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	maildir_ids(dir, have);
	host = maildir_host();
	/* a failed write stops here; what was written whole is delivered */
	for (i = 0; i < msgs->len && !rc; i++) {
		struct message *m = msgs->pdata[i];
		char *name = NULL;

		if (g_hash_table_contains(have, m->msgid))
			continue;
		g_hash_table_add(have, g_strdup(m->msgid));
		rc = maildir_write(dir, host, m, &seq, &name, err);
		if (!rc)
			g_ptr_array_add(names, name);
	}
	g_hash_table_destroy(have);
	if (names->len && !maildir_sync(dir, names)) {
		if (!rc)
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot deliver to maildir '%s': %s", dir,
				    g_strerror(errno));
		maildir_discard(dir, names, 0);
		rc = LORE_EIO;
		goto out;
	}
	for (i = 0; i < names->len; i++) {
		if (!maildir_link(dir, names->pdata[i], seen)) {
			if (!rc)
				g_set_error(
				    err, LORE_ERROR, LORE_EIO,
				    "cannot deliver to maildir '%s': %s", dir,
				    g_strerror(errno));
			maildir_discard(dir, names, i + 1);
			rc = LORE_EIO;
			break;
		}
		(*added)++;
	}
	if (*added)
		sync_dir(dir);
out:
	g_ptr_array_free(names, TRUE);
	return rc;
}
