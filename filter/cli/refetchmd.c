/*
 * refetchmd.c - b4 mbox -r of a maildir (refetch-int.h): each message
 * file read as it lies in cur/ or new/, and the sources' copy written in
 * its place one file at a time (tmp/, fsync, rename over it), the file's
 * name, and so its flags, kept. A file that changed since it was read (a
 * mail client moved or flagged it) is left as it is.
 */
#include "cli/refetch-int.h"
#include "mail/message.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

gboolean
refetch_is_maildir(const char *path)
{
	static const char *const subs[] = {"cur", "new", "tmp"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *d = g_build_filename(path, subs[i], NULL);

		if (!g_file_test(d, G_FILE_TEST_IS_DIR))
			return FALSE;
	}
	return TRUE;
}

static gint
by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The file @path, a message of the maildir, into @r; FALSE when it is
 * not one to refetch (not a regular file, too large, unreadable). */
static gboolean
add_file(const char *path, struct refetch *r)
{
	struct entry e = {0};
	struct message *m;
	gsize n = 0;

	if (g_lstat(path, &e.st) < 0 || !S_ISREG(e.st.st_mode) ||
	    (guint64)e.st.st_size > LORE_MAX_MESSAGE ||
	    !g_file_get_contents(path, &e.raw, &n, NULL))
		return FALSE;
	if (n != (gsize)e.st.st_size) { /* changed while read */
		g_free(e.raw);
		return FALSE;
	}
	e.len = n;
	e.path = g_strdup(path);
	m = message_parse(e.raw, n, NULL);
	if (m && m->msgid)
		e.msgid = g_strdup(m->msgid);
	message_free(m);
	g_array_append_val(r->entries, e);
	return TRUE;
}

static int
read_sub(const char *dir, const char *sub, struct refetch *r)
{
	g_autofree char *d = g_build_filename(dir, sub, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	GError *err = NULL;
	const char *n;
	GDir *gd;
	guint i;

	if (!(gd = g_dir_open(d, 0, &err))) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	while ((n = g_dir_read_name(gd)))
		if (*n != '.')
			g_ptr_array_add(names, g_strdup(n));
	g_dir_close(gd);
	g_ptr_array_sort(names, by_name);
	for (i = 0; i < names->len; i++) {
		g_autofree char *p = g_build_filename(d, names->pdata[i], NULL);

		if (r->entries->len >= REFETCH_MAX_MESSAGES) {
			r->too_many = TRUE;
			break;
		}
		if (!add_file(p, r)) {
			g_autofree char *s = lore_term_safe(p, -1);

			lore_err("warning: '%s' is not read: left as it is", s);
		}
	}
	return LORE_OK;
}

int
refetch_read_maildir(const char *path, struct refetch *r)
{
	int rc = read_sub(path, "cur", r);

	return rc ? rc : read_sub(path, "new", r);
}

/* Is @e's file still the one read (same inode, size and time)? */
static gboolean
unchanged(const struct entry *e)
{
	struct stat now;

	return g_lstat(e->path, &now) == 0 && now.st_ino == e->st.st_ino &&
	       now.st_dev == e->st.st_dev && now.st_size == e->st.st_size &&
	       now.st_mtim.tv_sec == e->st.st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == e->st.st_mtim.tv_nsec;
}

/* @m's bytes in tmp/, synced, then renamed over @e's file; its mode kept */
static gboolean
put(const char *dir, const struct entry *e, const struct message *m, guint n)
{
	g_autofree char *name =
	    g_strdup_printf("lore-am-refetch.%d.%u", (int)getpid(), n);
	g_autofree char *tmp = g_build_filename(dir, "tmp", name, NULL);
	int fd = g_open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			e->st.st_mode & 0777);
	gboolean ok =
	    fd >= 0 && lore_write_all(fd, m->raw, m->len) && fsync(fd) == 0;

	if (fd >= 0 && close(fd) < 0)
		ok = FALSE;
	if (ok && g_rename(tmp, e->path) == 0)
		return TRUE;
	{
		g_autofree char *s = lore_term_safe(e->path, -1);

		lore_err("cannot write the refetched '%s': %s", s,
			 g_strerror(errno));
	}
	if (fd >= 0)
		g_unlink(tmp);
	return FALSE;
}

int
refetch_replace_maildir(const char *dir, struct refetch *r, struct thread *all,
			guint *got, guint *same)
{
	guint i;

	*got = *same = 0;
	for (i = 0; i < r->entries->len; i++) {
		const struct entry *e =
		    &g_array_index(r->entries, struct entry, i);
		struct message *m = e->msgid ? thread_get(all, e->msgid) : NULL;

		if (!m) {
			if (e->msgid)
				refetch_unknown(e);
			continue;
		}
		if (m->len == e->len && !memcmp(m->raw, e->raw, e->len)) {
			(*same)++;
			continue;
		}
		if (!unchanged(e)) {
			g_autofree char *s = lore_term_safe(e->path, -1);

			lore_err("warning: '%s' changed while it was "
				 "refetched: left as it is",
				 s);
			continue;
		}
		if (!put(dir, e, m, i))
			return LORE_EIO;
		(*got)++;
	}
	return LORE_OK;
}
