/*
 * gitwait.c - a child that dies with lore-am, and a wait that ends when
 * the folder the child runs in is removed (see gitwait.h). The wait on a
 * watched child polls a pidfd (pidfd_open(2), Linux 5.3; short naps
 * where the kernel has none) and looks at the folder each WATCH_MS: an
 * open descriptor on it says st_nlink == 0 once it is removed, whatever
 * name it had.
 */
#include "core/gitwait.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* how often a watched folder is looked at, and how long a stopped git
 * has to remove its lock files after SIGTERM before SIGKILL */
#define WATCH_MS 200
#define GRACE_MS 2000

struct watch {
	char *dir;
	int fd;
};

G_LOCK_DEFINE_STATIC(watches);
static GPtrArray *watches;
static char *lost; /* the first stop's message, kept to the end */

void
gitwait_child_setup(gpointer parent)
{
	/* async-signal-safe only: this runs between fork and exec */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* the parent died before the line above: nothing would tell us */
	if (getppid() != (pid_t)GPOINTER_TO_INT(parent))
		_exit(127);
}

static void
watch_free(gpointer p)
{
	struct watch *w = p;

	close(w->fd);
	g_free(w->dir);
	g_free(w);
}

gboolean
gitwait_watch(const char *dir)
{
	struct watch *w;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return FALSE;
	w = g_new(struct watch, 1);
	w->dir = g_strdup(dir);
	w->fd = fd;
	G_LOCK(watches);
	if (!watches)
		watches = g_ptr_array_new_with_free_func(watch_free);
	g_ptr_array_add(watches, w);
	G_UNLOCK(watches);
	return TRUE;
}

void
gitwait_unwatch(const char *dir)
{
	guint i;

	G_LOCK(watches);
	for (i = 0; watches && i < watches->len; i++) {
		struct watch *w = watches->pdata[i];

		if (!strcmp(w->dir, dir)) {
			g_ptr_array_remove_index_fast(watches, i);
			break;
		}
	}
	G_UNLOCK(watches);
}

/* A descriptor (dup'ed: the caller closes it) on the outermost watched
 * folder holding @dir, and its path in *@top (g_free); -1 for none. */
static int
watched(const char *dir, char **top)
{
	gsize n, best_n = G_MAXSIZE;
	int fd = -1;
	guint i;

	if (!dir || !g_path_is_absolute(dir))
		return -1;
	G_LOCK(watches);
	for (i = 0; watches && i < watches->len; i++) {
		struct watch *w = watches->pdata[i];

		n = strlen(w->dir);
		if (n < best_n && lore_path_at_or_under(dir, w->dir)) {
			if (fd >= 0)
				close(fd);
			fd = fcntl(w->fd, F_DUPFD_CLOEXEC, 0);
			g_free(*top);
			*top = g_strdup(w->dir);
			best_n = n;
		}
	}
	G_UNLOCK(watches);
	return fd;
}

static gboolean
removed(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_nlink == 0;
}

/* Until @pid ends (its status in *@st, TRUE) or @ms pass (FALSE); @pfd
 * its pidfd, or -1: naps then. */
static gboolean
reap_within(GPid pid, int pfd, int ms, int *st)
{
	gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;
	int nap = 1;

	for (;;) {
		gint64 left = (end - g_get_monotonic_time()) / 1000;
		int r = waitpid(pid, st, WNOHANG);

		if (r == pid)
			return TRUE;
		if (r < 0 && errno != EINTR) {
			*st = -1; /* no status: gitwait_child() says why */
			return TRUE;
		}
		if (left <= 0)
			return FALSE;
		if (pfd >= 0) {
			struct pollfd p = {pfd, POLLIN, 0};

			poll(&p, 1, (int)MIN(left, ms));
		} else {
			g_usleep(MIN(nap, left) * 1000);
			nap = MIN(nap * 2, WATCH_MS);
		}
	}
}

/* The child in the removed folder: SIGTERM (git removes its locks),
 * SIGKILL after the grace; reaped either way. */
static void
stop(GPid pid, int pfd, int *st)
{
	kill(pid, SIGTERM);
	if (reap_within(pid, pfd, GRACE_MS, st))
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
}

/* @pid in the watched folder @top (@fd): TRUE and its status in *@st
 * once it ended, FALSE when the folder went and it was stopped */
static gboolean
wait_watched(GPid pid, int fd, int *st)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	gboolean ended = TRUE;

	while (!reap_within(pid, pfd, WATCH_MS, st)) {
		if (removed(fd)) {
			stop(pid, pfd, st);
			ended = FALSE;
			break;
		}
	}
	if (pfd >= 0)
		close(pfd);
	return ended;
}

/* A child stopped (@how "stopped"), failed there ("failed") or not
 * started (NULL) in the removed folder @top: @err says so, and the first
 * such message is kept for gitwait_lost() */
static void
note_lost(const char *top, const char *what, const char *how, GError **err)
{
	g_autofree char *t = lore_term_safe(top, -1);
	char *m = how ? g_strdup_printf("the temporary folder '%s' was "
					"removed while %s ran in it: %s %s",
					t, what, what, how)
		      : g_strdup_printf("the temporary folder '%s' was "
					"removed before %s could run in it",
					t, what);

	g_set_error_literal(err, LORE_ERROR, LORE_ENOTFOUND, m);
	G_LOCK(watches);
	if (!lost)
		lost = g_steal_pointer(&m);
	G_UNLOCK(watches);
	g_free(m);
}

gboolean
gitwait_gone(const char *dir, const char *what, GError **err)
{
	g_autofree char *top = NULL;
	int fd = watched(dir, &top);
	gboolean gone;

	if (fd < 0)
		return FALSE;
	gone = removed(fd);
	close(fd);
	if (gone)
		note_lost(top, what, NULL, err);
	return gone;
}

int
gitwait_child(GPid pid, const char *dir, const char *what, GError **err)
{
	g_autofree char *top = NULL;
	int fd = watched(dir, &top), st = 0;

	if (fd >= 0) {
		gboolean ended = wait_watched(pid, fd, &st);
		int e = errno;
		/* one that failed on its own there failed for that: the
		 * stage must not take it for git's verdict on the series */
		gboolean failed_there = ended && st != -1 &&
					(!WIFEXITED(st) || WEXITSTATUS(st)) &&
					removed(fd);

		close(fd);
		if (ended && st == -1) {
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "cannot wait for %s: %s", what,
				    g_strerror(e));
			return -1;
		}
		if (!ended || failed_there) {
			note_lost(top, what, ended ? "failed" : "stopped", err);
			return -1;
		}
		return st;
	}
	/* a guarded signal interrupts waitpid: git finishes its step (it
	 * got the terminal's SIGINT itself), then the stage cleans up */
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "cannot wait for %s: %s", what,
				    g_strerror(errno));
			return -1;
		}
	}
	return st;
}

const char *
gitwait_lost(void)
{
	const char *m;

	G_LOCK(watches);
	m = lost;
	G_UNLOCK(watches);
	return m;
}
