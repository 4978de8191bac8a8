/*
 * lock.c - mbox locking. The dotlock is made the NFS-safe way (a unique
 * file linked to "MBOX.lock", success judged by its link count, as
 * liblockfile and mutt's dotlock do); then an fcntl write lock and a flock
 * on the whole file, for readers that use either. All three are tried
 * without blocking and retried every 100 ms until the deadline.
 */
#include "lock.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_RETRY_US 100000

static gboolean
expired(gint64 deadline)
{
	return g_get_monotonic_time() >= deadline;
}

/* A dotlock we may skip: the folder is not ours to write in. */
static gboolean
dotlock_not_allowed(int e)
{
	return e == EACCES || e == EPERM || e == EROFS;
}

/*
 * One attempt at the dotlock: TRUE when taken, FALSE with errno set
 * (EEXIST while someone else holds it).
 */
static gboolean
dotlock_try(const char *lockname)
{
	g_autofree char *tmp = g_strdup_printf("%s.XXXXXX", lockname);
	g_autofree char *pid = g_strdup_printf("%d\n", (int)getpid());
	struct stat st;
	gboolean got = FALSE;
	int fd, e;

	fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return FALSE;
	if (write(fd, pid, strlen(pid)) < 0) {
		/* the pid is a courtesy to people; the lock works without */
	}
	close(fd);
	if (link(tmp, lockname) == 0) {
		got = TRUE;
	} else if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP) {
		/* no hard links here (some FUSE and vfat folders) */
		fd = open(lockname, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0644);
		if (fd >= 0) {
			close(fd);
			got = TRUE;
		}
	} else if (stat(tmp, &st) == 0 && st.st_nlink == 2) {
		/* NFS may report a failed link that happened */
		got = TRUE;
	}
	e = errno;
	unlink(tmp);
	errno = e;
	return got;
}

static int
dotlock_take(struct lock *l, gint64 deadline, GError **err)
{
	g_autofree char *lockname = g_strconcat(l->path, ".lock", NULL);

	for (;;) {
		if (dotlock_try(lockname)) {
			l->dotlock = g_steal_pointer(&lockname);
			return LORE_OK;
		}
		if (dotlock_not_allowed(errno))
			return LORE_OK;
		if (errno != EEXIST) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot create the lock file '%s': %s",
				    lockname, g_strerror(errno));
			return LORE_EIO;
		}
		if (expired(deadline)) {
			g_set_error(err, LORE_ERROR, LORE_ETEMP,
				    "'%s' is locked ('%s' exists; remove it if no program is using the mailbox)",
				    l->path, lockname);
			return LORE_ETEMP;
		}
		g_usleep(LOCK_RETRY_US);
	}
}

static void
dotlock_drop(struct lock *l)
{
	if (l->dotlock) {
		unlink(l->dotlock);
		g_clear_pointer(&l->dotlock, g_free);
	}
}

/* Lock errors that mean "this file system has no such locks". */
static gboolean
no_lock_support(int e)
{
	return e == ENOLCK || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP;
}

static int
kernel_locks(struct lock *l, gint64 deadline, GError **err)
{
	struct flock fl = { 0 };
	gboolean have_fcntl = FALSE;

	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	for (;;) {
		int e;

		if (!have_fcntl) {
			if (fcntl(l->fd, F_SETLK, &fl) == 0 ||
			    no_lock_support(errno))
				have_fcntl = TRUE;
		}
		if (have_fcntl) {
			if (flock(l->fd, LOCK_EX | LOCK_NB) == 0 ||
			    no_lock_support(errno))
				return LORE_OK;
		}
		e = errno;
		if (e != EAGAIN && e != EACCES && e != EWOULDBLOCK &&
		    e != EINTR) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot lock '%s': %s", l->path,
				    g_strerror(e));
			return LORE_EIO;
		}
		if (expired(deadline)) {
			g_set_error(err, LORE_ERROR, LORE_ETEMP,
				    "'%s' is locked by another program (%s lock)",
				    l->path, have_fcntl ? "flock" : "fcntl");
			return LORE_ETEMP;
		}
		g_usleep(LOCK_RETRY_US);
	}
}

int
lock_open(struct lock *l, const char *path, guint timeout, GError **err)
{
	gint64 deadline =
		g_get_monotonic_time() + (gint64)timeout * G_TIME_SPAN_SECOND;
	struct stat st;
	int rc;

	l->path = g_strdup(path);
	l->dotlock = NULL;
	l->fd = -1;
	l->created = FALSE;
	rc = dotlock_take(l, deadline, err);
	if (rc)
		goto fail;
	l->fd = open(path, O_RDWR | O_CLOEXEC);
	if (l->fd < 0 && errno == ENOENT) {
		l->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		l->created = l->fd >= 0;
	}
	if (l->fd < 0) {
		rc = (errno == EISDIR) ? LORE_EUSAGE : LORE_EIO;
		g_set_error(err, LORE_ERROR, rc, "cannot open '%s': %s", path,
			    g_strerror(errno));
		goto fail;
	}
	if (fstat(l->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = LORE_EUSAGE;
		g_set_error(err, LORE_ERROR, rc,
			    "'%s' is not a regular file: cannot append to it",
			    path);
		goto fail;
	}
	rc = kernel_locks(l, deadline, err);
	if (rc)
		goto fail;
	return LORE_OK;
fail:
	if (l->fd >= 0)
		close(l->fd);
	if (l->created)
		unlink(path); /* it was not there before: leave no trace */
	l->fd = -1;
	dotlock_drop(l);
	g_clear_pointer(&l->path, g_free);
	return rc;
}

void
lock_release(struct lock *l, gboolean discard)
{
	if (l->fd >= 0) {
		/* unlink before the locks go, so no one appends to it */
		if (discard && l->created)
			unlink(l->path);
		/* closing drops both the fcntl lock and the flock */
		close(l->fd);
		l->fd = -1;
	}
	dotlock_drop(l);
	g_clear_pointer(&l->path, g_free);
}
