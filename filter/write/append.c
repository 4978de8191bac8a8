/*
 * append.c - whole messages appended to an mbox under lock.h's locks, as
 * deliver.h frames them (mboxrd). Nothing half-written stays: a failed
 * write is cut back, catchable signals wait until the write is whole, and
 * an append killed outright leaves a journal in its dotlock (appendlog.h)
 * by which the next run repairs what it left half-written.
 */
#include "write/append.h"
#include "write/appendlog.h"
#include "write/deliver.h"
#include "write/lock.h"
#include "mail/mbox.h"
#include "core/util.h"

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
 * Write @buf at the end (@old bytes) of the locked mailbox, with the
 * catchable signals held off (*@blocked, their mask in @saved, for the
 * caller to restore once the lock is released) and the journal in the
 * dotlock; on failure the mailbox is cut back to @old.
 */
static int
write_entries(struct lock *l, gsize old, GString *buf, GArray *ends,
	      sigset_t *saved, gboolean *blocked, GError **err)
{
	g_autofree char *journal = appendlog_text(old, ends, buf);
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

	rc = appendlog_repair(l, err);
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
	buf = g_string_new(deliver_separator(old->data, old->len));
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
