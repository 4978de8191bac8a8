/*
 * gitbound.c - a program run within bounds (gitrun_bounded(), see
 * gitrun.h): the per-patch check command is the project's own script,
 * and `sleep 1000` or `yes` must not hold the run for ever or fill the
 * disk. The child is made the leader of a process group of its own
 * (setpgid in the child and in the parent, so that neither order of the
 * two races), its output read from a pipe with poll(2) until the pipe
 * closes and the child exits, or the deadline kills the whole group.
 */
#include "core/gitenv.h"
#include "core/gitrun.h"
#include "core/gitwait.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* between fork and exec: a group of its own, and dying with lore-am */
static void
own_group(gpointer data)
{
	setpgid(0, 0);
	gitwait_child_setup(data);
}

/* ms left before @deadline (monotonic µs), at least 0 */
static int
left_ms(gint64 deadline)
{
	gint64 d = deadline - g_get_monotonic_time();

	return d <= 0 ? 0 : (int)MIN(d / 1000 + 1, G_MAXINT);
}

/* Read what is there on @fd: FALSE at end of file (or an error). */
static gboolean
drain(int fd, GString *out, struct gitrun_bound *b)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));
	gsize room;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return FALSE;
	room = out->len < b->keep ? b->keep - out->len : 0;
	g_string_append_len(out, buf, MIN((gsize)n, room));
	if ((gsize)n > room)
		b->cut += (gsize)n - room;
	return TRUE;
}

/*
 * Until the pipe @fd closes and @pid exits, or the deadline, or a guarded
 * signal: the wait status in *@st, FALSE when the group must be killed.
 */
static gboolean
watch(GPid pid, int fd, GString *out, struct gitrun_bound *b, int *st)
{
	gint64 deadline = b->timeout ? g_get_monotonic_time() +
					   (gint64)b->timeout * G_USEC_PER_SEC
				     : G_MAXINT64;
	struct pollfd p = {fd, POLLIN, 0};
	gboolean open_ = TRUE;
	int nap = 1; /* ms: a git that closed its output exits at once */

	for (;;) {
		int ms = left_ms(deadline), r;

		if (gitrun_interrupted() || !ms)
			return FALSE;
		if (!open_) {
			r = waitpid(pid, st, WNOHANG);
			if (r == pid)
				return TRUE;
			if (r < 0 && errno != EINTR)
				return FALSE;
			g_usleep(MIN(ms, nap) * 1000);
			nap = MIN(nap * 2, 20);
			continue;
		}
		r = poll(&p, 1, MIN(ms, 1000));
		if (r > 0)
			open_ = drain(fd, out, b);
		else if (r < 0 && errno != EINTR)
			return FALSE;
	}
}

/* The first @keep bytes of the temporary file @fd into @to. */
static void
read_back(int fd, GString *to, gsize keep)
{
	char buf[8192];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while (to->len < keep &&
	       ((n = read(fd, buf, MIN(sizeof(buf), keep - to->len))) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			g_string_append_len(to, buf, n);
}

/* @argv in @cwd, in a group of its own: git by the path found once,
 * anything else looked up in PATH; the environment gitenv.h says */
static gboolean
start(const char *cwd, const char *const *argv, int in, int out, int errfd,
      GPid *pid, GError **e)
{
	const char *git = !strcmp(argv[0], "git") ? gitenv_git() : NULL;
	g_autofree const char **av = NULL;
	g_auto(GStrv) env = gitenv_child(cwd);
	guint n = g_strv_length((char **)argv), i;

	if (git) {
		av = g_new0(const char *, n + 2);
		av[0] = git;
		for (i = 0; i < n; i++)
			av[i + 1] = argv[i];
	}
	return g_spawn_async_with_pipes_and_fds(
	    cwd ? cwd : ".", git ? av : argv, (const char *const *)env,
	    (git ? G_SPAWN_FILE_AND_ARGV_ZERO : G_SPAWN_SEARCH_PATH) |
		G_SPAWN_DO_NOT_REAP_CHILD,
	    own_group, GINT_TO_POINTER(getpid()), in, out, errfd, NULL, NULL, 0,
	    pid, NULL, NULL, NULL, e);
}

int
gitrun_bounded(const char *cwd, const char *const *argv, const char *input,
	       gsize inlen, GString *out, struct gitrun_bound *b, GError **err)
{
	int in, pfd[2], efd = -1, st = 0;
	gboolean ok;
	GError *e = NULL;
	GPid pid;

	b->timed_out = FALSE;
	b->cut = 0;
	if ((in = gitrun_input_fd(input, inlen, err)) < 0)
		return -1;
	/* stderr apart: an empty temporary file */
	if (b->errout && (efd = gitrun_input_fd("", 0, err)) < 0) {
		close(in);
		return -1;
	}
	if (!g_unix_open_pipe(pfd, FD_CLOEXEC, err)) {
		close(in);
		if (efd >= 0)
			close(efd);
		return -1;
	}
	if (!start(cwd, argv, in, pfd[1], efd >= 0 ? efd : pfd[1], &pid, &e)) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot run %s: %s", argv[0], e->message);
		g_error_free(e);
		close(in);
		close(pfd[0]);
		close(pfd[1]);
		if (efd >= 0)
			close(efd);
		return -1;
	}
	setpgid(pid, pid);
	close(in);
	close(pfd[1]);
	ok = watch(pid, pfd[0], out, b, &st);
	if (!ok) {
		/* the whole group: a script's children too */
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	close(pfd[0]);
	if (efd >= 0) {
		read_back(efd, b->errout, b->keep);
		close(efd);
	}
	if (!ok) {
		b->timed_out = !gitrun_interrupted();
		if (b->timed_out)
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "%s ran for %u s: stopped", argv[0],
				    b->timeout);
		else
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "%s: interrupted", argv[0]);
		return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
		    "%s was killed by signal %d", argv[0], WTERMSIG(st));
	return -1;
}
