/*
 * append.c - whole messages appended to an mbox under lock.h's locks, as
 * deliver.h frames them (mboxrd). Nothing half-written stays: a failed
 * write is cut back, catchable signals wait until the write is whole, and
 * an append killed outright leaves a journal in its dotlock (the old size
 * and where each new entry ends) by which the next run cuts the torn
 * message off (the rollback-journal idea of databases, on an mbox).
 */
#include "append.h"
#include "deliver.h"
#include "lock.h"
#include "mbox.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
add_id(const char *msg, size_t len, void *data)
{
	struct message *m = message_parse(msg, len, NULL);

	if (m && m->msgid)
		g_hash_table_add(data, g_strdup(m->msgid));
	message_free(m);
}

/* The whole of the locked file, read through its descriptor. */
static GByteArray *
read_locked(int fd, const char *path, GError **err)
{
	struct stat st;
	guint8 *data;
	size_t off = 0, size;

	if (fstat(fd, &st) < 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot read '%s': %s",
			    path, g_strerror(errno));
		return NULL;
	}
	/* the size is the mailbox's, not ours to trust: ask, never abort */
	size = (size_t)st.st_size;
	data = g_try_malloc(MAX(size, 1));
	if (!data) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot read '%s': %s (%" G_GUINT64_FORMAT
			    " bytes)",
			    path, g_strerror(ENOMEM), (guint64)st.st_size);
		return NULL;
	}
	/* the file is locked: nobody who locks changes its size meanwhile */
	while (off < size) {
		ssize_t n = pread(fd, data + off, size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot read '%s': %s", path,
				    g_strerror(errno));
			g_free(data);
			return NULL;
		}
		if (n == 0)
			break;
		off += n;
	}
	return g_byte_array_new_take(data, off);
}

/*
 * Bytes to put before the first new entry so that its From_ line follows
 * a blank line, as readers require of every From_ line but the first.
 */
static const char *
separator(const guint8 *d, size_t n)
{
	if (n == 0 || (n >= 2 && d[n - 1] == '\n' && d[n - 2] == '\n'))
		return "";
	return d[n - 1] == '\n' ? "\n" : "\n\n";
}

/*
 * The signals that would end the process in the middle of the write. They
 * wait, blocked, until the mailbox is whole again and unlocked; then the
 * process ends as they ask. (SIGXFSZ too: the write then fails with EFBIG
 * and is taken back first.)
 */
static void
block_signals(sigset_t *saved)
{
	static const int sigs[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGPIPE,
				   SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2};
	sigset_t set;
	guint i;

	sigemptyset(&set);
	for (i = 0; i < G_N_ELEMENTS(sigs); i++)
		sigaddset(&set, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

/*
 * The journal an append leaves in its dotlock while it writes: the size
 * the mailbox had, then where each new entry ends. A run killed in the
 * write (SIGKILL, a crash, a power cut) leaves it behind in the stale lock.
 */
static char *
journal_text(gsize old, GArray *ends)
{
	GString *j = g_string_new(NULL);
	guint i;

	g_string_printf(j, "append %" G_GSIZE_FORMAT, old);
	for (i = 0; i < ends->len; i++)
		g_string_append_printf(j, " %" G_GSIZE_FORMAT,
				       g_array_index(ends, gsize, i));
	g_string_append_c(j, '\n');
	return g_string_free(j, FALSE);
}

/*
 * After taking over the lock of a run that was killed while it appended
 * (its journal in @l->stale): cut the mailbox back to the end of the last
 * entry that run wrote whole, so that a torn message is neither kept nor
 * taken for present. Only when the file ends inside what that run was
 * writing: anything else means someone changed it since, and it is left.
 */
static int
repair_torn(struct lock *l, GError **err)
{
	g_auto(GStrv) words = NULL;
	g_autofree char *line = NULL;
	const char *nl, *j;
	guint64 size, cut, end;
	struct stat st;
	guint i;

	j = l->stale ? strstr(l->stale, "\nappend ") : NULL;
	if (!j || fstat(l->fd, &st) < 0)
		return LORE_OK;
	j += strlen("\nappend ");
	nl = strchr(j, '\n');
	if (!nl)
		return LORE_OK; /* the journal itself is cut: never written */
	line = g_strndup(j, nl - j);
	words = g_strsplit(line, " ", -1);
	size = (guint64)st.st_size;
	if (!words[0] || !words[1] ||
	    !g_ascii_string_to_unsigned(words[0], 10, 0, G_MAXUINT64, &cut,
					NULL) ||
	    size <= cut)
		return LORE_OK;
	for (i = 1; words[i]; i++) {
		if (!g_ascii_string_to_unsigned(words[i], 10, 0, G_MAXUINT64,
						&end, NULL))
			return LORE_OK;
		if (end > size)
			break;
		cut = end;
	}
	if (!words[i] || cut == size)
		return LORE_OK; /* whole, or grown past what it wrote */
	if (ftruncate(l->fd, (off_t)cut) < 0 || fsync(l->fd) < 0) {
		g_set_error(
		    err, LORE_ERROR, LORE_EIO,
		    "cannot cut the torn message off the end of '%s': %s",
		    l->path, g_strerror(errno));
		return LORE_EIO;
	}
	lore_err(
	    "note: cut '%s' back to its last whole message (%" G_GUINT64_FORMAT
	    " bytes of a message a killed run left half-written)",
	    l->path, size - cut);
	return LORE_OK;
}

/*
 * Write @buf at the end (@old bytes) of the locked mailbox, with the
 * catchable signals held off (*@blocked, their mask in @saved, for the
 * caller to restore once the lock is released) and the journal in the
 * dotlock; on failure the mailbox is cut back to @old.
 */
static int
write_entries(struct lock *l, gsize old, GString *buf, GArray *ends,
	      sigset_t *saved, gboolean *blocked, GError **err)
{
	g_autofree char *journal = journal_text(old, ends);
	gboolean ok;
	int e;

	block_signals(saved);
	*blocked = TRUE;
	/* without a dotlock (a folder we may not write) there is no journal */
	lock_note(l, journal);
	ok = lseek(l->fd, old, SEEK_SET) >= 0 &&
	     lore_write_all(l->fd, buf->str, buf->len) && fsync(l->fd) == 0;
	if (ok)
		return LORE_OK;
	e = errno;
	/* take back what part of it got there */
	if (ftruncate(l->fd, old) == 0)
		fsync(l->fd);
	g_set_error(err, LORE_ERROR, LORE_EIO,
		    "cannot append to '%s': %s (the mailbox is unchanged)",
		    l->path, g_strerror(e));
	return LORE_EIO;
}

static int
append_locked(struct lock *l, GPtrArray *msgs, guint *added, sigset_t *saved,
	      gboolean *blocked, GError **err)
{
	GHashTable *have;
	GByteArray *old;
	GString *buf;
	GArray *ends;
	guint i;
	int rc;

	rc = repair_torn(l, err);
	if (rc)
		return rc;
	old = read_locked(l->fd, l->path, err);
	if (!old)
		return LORE_EIO;
	if (old->len && (old->len < 5 || memcmp(old->data, "From ", 5))) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is not an mbox (it does not start with a "
			    "From_ line): nothing appended",
			    l->path);
		g_byte_array_unref(old);
		return LORE_EUSAGE;
	}
	have = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (old->len)
		mbox_split((const char *)old->data, old->len, add_id, have);
	buf = g_string_new(separator(old->data, old->len));
	ends = g_array_new(FALSE, FALSE, sizeof(gsize));
	for (i = 0; i < msgs->len; i++) {
		struct message *m = msgs->pdata[i];
		gsize end;

		if (g_hash_table_contains(have, m->msgid))
			continue;
		g_hash_table_add(have, g_strdup(m->msgid));
		deliver_mboxrd_add(buf, m);
		end = old->len + buf->len;
		g_array_append_val(ends, end);
		(*added)++;
	}
	if (*added) {
		rc = write_entries(l, old->len, buf, ends, saved, blocked, err);
		if (rc)
			*added = 0;
	}
	g_array_free(ends, TRUE);
	g_string_free(buf, TRUE);
	g_hash_table_destroy(have);
	g_byte_array_unref(old);
	return rc;
}

int
append_mbox(const char *path, GPtrArray *msgs, guint timeout, guint *added,
	    GError **err)
{
	struct lock l;
	sigset_t saved;
	gboolean blocked = FALSE;
	int rc;

	*added = 0;
	if (g_str_has_suffix(path, ".gz")) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot append to a compressed mailbox: '%s'",
			    path);
		return LORE_EUSAGE;
	}
	rc = lock_open(&l, path, timeout, err);
	if (rc)
		return rc;
	rc = append_locked(&l, msgs, added, &saved, &blocked, err);
	lock_release(&l, *added == 0);
	/* a signal that came in the write acts now, on a whole mailbox */
	if (blocked)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return rc;
}
