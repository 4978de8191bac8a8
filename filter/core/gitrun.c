/*
 * gitrun.c - git as a child process, with argv arrays (g_spawn, no shell).
 * stdin comes from an unlinked temporary file holding the input and stdout
 * and stderr go to two more, read back once git has exited: no pipe can
 * fill up and block either side, whatever git prints.
 */
#include "core/gitrun.h"
#include "core/gitenv.h"
#include "core/gitwait.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
static struct sigaction saved[3];
static const int guarded[] = {SIGINT, SIGTERM, SIGHUP};
static guint guard_depth;
static guint hold_depth;
static sigset_t held_before;

static void
on_signal(int sig)
{
	interrupted = sig;
}

void
gitrun_guard(void)
{
	struct sigaction sa;
	guint i;

	if (guard_depth++)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < G_N_ELEMENTS(guarded); i++) {
		sigaction(guarded[i], &sa, &saved[i]);
		/* ignored when we started (nohup, a background job of a
		 * script): it stays ignored, it interrupts nothing */
		if (saved[i].sa_handler == SIG_IGN)
			sigaction(guarded[i], &saved[i], NULL);
	}
}

void
gitrun_unguard(void)
{
	guint i;

	if (!guard_depth || --guard_depth)
		return;
	for (i = 0; i < G_N_ELEMENTS(guarded); i++)
		sigaction(guarded[i], &saved[i], NULL);
}

void
gitrun_hold(void)
{
	sigset_t set;
	guint i;

	if (hold_depth++)
		return;
	sigemptyset(&set);
	for (i = 0; i < G_N_ELEMENTS(guarded); i++)
		sigaddset(&set, guarded[i]);
	sigprocmask(SIG_BLOCK, &set, &held_before);
}

void
gitrun_release(void)
{
	if (!hold_depth || --hold_depth)
		return;
	/* a signal that came while held is delivered here, to on_signal */
	sigprocmask(SIG_SETMASK, &held_before, NULL);
}

gboolean
gitrun_interrupted(void)
{
	return interrupted != 0;
}

int
gitrun_signal(void)
{
	return interrupted;
}

/*
 * An unlinked temporary file opened read-write, or -1. O_TMPFILE makes it
 * nameless from the start, so a run killed at any moment leaves no file;
 * where the file system cannot, a named one is unlinked at once.
 */
static int
tmp_fd(GError **err)
{
	g_autofree char *path = NULL;
	int fd = -1;

#ifdef O_TMPFILE
	fd = open(g_get_tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	fd = g_file_open_tmp("lore-am-git-XXXXXX", &path, err);
	if (fd >= 0)
		unlink(path);
	return fd;
}

static void
slurp(int fd, GString *to)
{
	char buf[8192];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			g_string_append_len(to, buf, n);
}

/* "git SUBCOMMAND" of @argv, for messages (g_free): its first word that
 * is not an option nor the value of -c or -C */
static char *
what_of(const char *const *argv)
{
	guint i;

	for (i = 0; argv[i]; i++) {
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "-C")) {
			if (!argv[++i])
				break;
		} else if (argv[i][0] != '-') {
			g_autofree char *w = lore_term_safe(argv[i], -1);

			return g_strconcat("git ", w, NULL);
		}
	}
	return g_strdup("git");
}

static int
wait_child(GPid pid, const char *dir, const char *what, GError **err)
{
	int st = gitwait_child(pid, dir, what, err);

	if (st < 0 || WIFEXITED(st))
		return st < 0 ? -1 : WEXITSTATUS(st);
	g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
		    "%s was killed by signal %d", what, WTERMSIG(st));
	return -1;
}

/* "@git git [-C @dir] @argv...": the file to run, then git's argv from
 * its name on (G_SPAWN_FILE_AND_ARGV_ZERO); "git ..." alone, to be
 * looked up in PATH, when @git is NULL */
static char **
full_argv(const char *git, const char *dir, const char *const *argv)
{
	GPtrArray *a = g_ptr_array_new();
	guint i;

	if (git)
		g_ptr_array_add(a, g_strdup(git));
	g_ptr_array_add(a, g_strdup("git"));
	if (dir) {
		g_ptr_array_add(a, g_strdup("-C"));
		g_ptr_array_add(a, g_strdup(dir));
	}
	for (i = 0; argv[i]; i++)
		g_ptr_array_add(a, g_strdup(argv[i]));
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* git by the path found once (gitenv.h), with the environment for @dir */
static int
spawn(const char *dir, const char *const *argv, int in, int out, int errfd,
      GError **err)
{
	const char *git = gitenv_git();
	g_auto(GStrv) av = full_argv(git, dir, argv);
	g_auto(GStrv) env = gitenv_child(dir);
	g_autofree char *what = what_of(argv);
	GError *e = NULL;
	GPid pid;

	/* a temporary folder already removed: git could only fail there */
	if (gitwait_gone(dir, what, err))
		return -1;
	if (!g_spawn_async_with_pipes_and_fds(
		NULL, (const char *const *)av, (const char *const *)env,
		(git ? G_SPAWN_FILE_AND_ARGV_ZERO : G_SPAWN_SEARCH_PATH) |
		    G_SPAWN_DO_NOT_REAP_CHILD,
		gitwait_child_setup, GINT_TO_POINTER(getpid()), in, out, errfd,
		NULL, NULL, 0, &pid, NULL, NULL, NULL, &e)) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot run git: %s", e->message);
		g_error_free(e);
		return -1;
	}
	return wait_child(pid, dir, what, err);
}

int
gitrun_input_fd(const char *input, gsize inlen, GError **err)
{
	int fd;

	if (!input)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	if ((fd = tmp_fd(err)) < 0)
		return -1;
	if (!lore_write_all(fd, input, inlen) || lseek(fd, 0, SEEK_SET) < 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot write a program's input: %s",
			    g_strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
gitrun(const char *dir, const char *const *argv, const char *input, gsize inlen,
       GString *out, GString *errout, GError **err)
{
	int in, ofd = -1, efd = -1, rc = -1;

	if ((in = gitrun_input_fd(input, inlen, err)) < 0)
		return -1;
	if ((out && (ofd = tmp_fd(err)) < 0) ||
	    (errout && (efd = tmp_fd(err)) < 0))
		goto out;
	rc = spawn(dir, argv, in, out ? ofd : STDERR_FILENO,
		   errout ? efd : STDERR_FILENO, err);
	if (out)
		slurp(ofd, out);
	if (errout)
		slurp(efd, errout);
out:
	close(in);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return rc;
}

int
gitrun_tty(const char *dir, const char *const *argv, GError **err)
{
	return spawn(dir, argv, STDIN_FILENO, STDERR_FILENO, STDERR_FILENO,
		     err);
}

char *
gitrun_reason(const GString *e)
{
	g_auto(GStrv) lines = g_strsplit(e->str, "\n", -1);
	guint i;

	for (i = 0; lines[i]; i++)
		if (g_str_has_prefix(lines[i], "error: ") ||
		    g_str_has_prefix(lines[i], "fatal: "))
			return lore_term_safe(g_strchomp(lines[i]), -1);
	for (i = 0; lines[i]; i++)
		if (*g_strstrip(lines[i]))
			return lore_term_safe(lines[i], -1);
	return g_strdup("no reason given");
}

char *
gitrun_line(const char *dir, const char *const *argv)
{
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	char *l = NULL;

	if (gitrun(dir, argv, NULL, 0, out, e, NULL) == 0 && out->len)
		l = gitrun_first_line(out->str);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return l;
}

char *
gitrun_first_line(const char *s)
{
	const char *nl = strchr(s, '\n');
	char *l = g_strndup(s, nl ? (gsize)(nl - s) : strlen(s));

	return g_strchomp(l);
}
