/*
 * lock.c - mbox locking. The dotlock is made the NFS-safe way (a unique
 * file linked to "MBOX.lock", success judged by its link count, as
 * liblockfile and mutt's dotlock do); then an fcntl write lock and a flock
 * on the whole file, for readers that use either. All three are tried
 * without blocking and retried every 100 ms until the deadline. A dotlock
 * whose holder is gone is taken over as liblockfile and procmail do: its
 * pid is dead on this host, or it is older than LOCK_STALE_AGE.
 */
#include "write/lock.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_RETRY_US 100000
/* what a dotlock file may hold: "PID\nHOST\n" and a journal (under 3 MB,
 * appendlog.c) */
#define LOCK_MAX_CONTENT (4 * 1024 * 1024)

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
	g_autofree char *pid =
	    g_strdup_printf("%d\n%s\n", (int)getpid(), g_get_host_name());
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

/*
 * Why the dotlock @lockname (whose stat is @st and first bytes @text) no
 * longer guards anything, or NULL while its holder may be alive. The pid is
 * only believed on the host that wrote it (the second line; a lock from a
 * program that writes the pid alone is taken to be from this host, as
 * liblockfile takes it); kill(pid, 0) failing with ESRCH means it is gone.
 */
static char *
stale_reason(const GStatBuf *st, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", 3);
	gint64 age = g_get_real_time() / G_USEC_PER_SEC - (gint64)st->st_mtime;
	guint64 pid = 0;

	if (lines[0] &&
	    g_ascii_string_to_unsigned(lore_strip(lines[0]), 10, 1, G_MAXINT,
				       &pid, NULL) &&
	    (!lines[1] || !*lines[1] || !strcmp(lines[1], g_get_host_name())) &&
	    kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return g_strdup_printf("its process %d is gone", (int)pid);
	if (age >= LOCK_STALE_AGE)
		return g_strdup_printf("it is %" G_GINT64_FORMAT " minutes old",
				       age / 60);
	return NULL;
}

/*
 * Take over @lockname when its holder is gone: TRUE when it was removed
 * (its content then in l->stale). It is renamed aside first and checked
 * to be the very file judged stale, so that a lock another process took
 * over in between is put back, not removed.
 */
static gboolean
dotlock_take_over(struct lock *l, const char *lockname)
{
	g_autofree char *aside = NULL, *text = NULL, *why = NULL;
	GStatBuf st, st2;
	char *j;
	gsize len = 0;

	if (g_lstat(lockname, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > LOCK_MAX_CONTENT ||
	    !g_file_get_contents(lockname, &text, &len, NULL))
		return FALSE;
	why = stale_reason(&st, text);
	if (!why)
		return FALSE;
	aside = g_strdup_printf("%s.stale-%d", lockname, (int)getpid());
	if (rename(lockname, aside) < 0)
		return FALSE;
	if (g_lstat(aside, &st2) < 0 || st2.st_ino != st.st_ino ||
	    st2.st_dev != st.st_dev || st2.st_mtime != st.st_mtime) {
		/* not the one we judged: give it back (link never replaces) */
		if (link(aside, lockname) < 0) {
			/* nowhere to put it back; it was newer than ours */
		}
		unlink(aside);
		return FALSE;
	}
	unlink(aside);
	lore_err("note: removed the stale lock '%s' (%s)", lockname, why);
	/* a journal is believed only from a lock of our own user: one that
	 * another user of a shared mail folder wrote must not make us change
	 * a mailbox that user may not write */
	if (st.st_uid != geteuid() && (j = strstr(text, "\nappend ")))
		j[1] = '\0';
	g_free(l->stale);
	l->stale = g_steal_pointer(&text);
	return TRUE;
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
		/* the deadline holds even if stale locks keep coming back */
		if (!expired(deadline) && dotlock_take_over(l, lockname))
			continue;
		if (expired(deadline)) {
			g_set_error(err, LORE_ERROR, LORE_ETEMP,
				    "'%s' is locked ('%s' exists; remove it if "
				    "no program is using the mailbox)",
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
	struct flock fl = {0};
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
			g_set_error(
			    err, LORE_ERROR, LORE_ETEMP,
			    "'%s' is locked by another program (%s lock)",
			    l->path, have_fcntl ? "flock" : "fcntl");
			return LORE_ETEMP;
		}
		g_usleep(LOCK_RETRY_US);
	}
}

/*
 * We took over the dotlock of an append that was killed, but cannot go on
 * (another program holds a kernel lock): its journal must not be lost
 * with it. The dotlock is left holding the journal under our pid, stale
 * the moment we exit, so that the next run takes it over and repairs.
 */
static void
keep_journal(struct lock *l)
{
	const char *j = l->stale ? strstr(l->stale, "\nappend ") : NULL;

	if (j && l->dotlock && lock_note(l, j + 1))
		g_clear_pointer(&l->dotlock, g_free);
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
	l->stale = NULL;
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
	keep_journal(l);
	dotlock_drop(l);
	g_clear_pointer(&l->path, g_free);
	g_clear_pointer(&l->stale, g_free);
	return rc;
}

gboolean
lock_note(struct lock *l, const char *note)
{
	g_autofree char *text = NULL;
	int fd;
	gboolean ok;

	if (!l->dotlock)
		return FALSE;
	text = g_strdup_printf("%d\n%s\n%s", (int)getpid(), g_get_host_name(),
			       note ? note : "");
	fd = open(l->dotlock, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return FALSE;
	ok = lore_write_all(fd, text, strlen(text)) && fsync(fd) == 0;
	close(fd);
	return ok;
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
	g_clear_pointer(&l->stale, g_free);
}
