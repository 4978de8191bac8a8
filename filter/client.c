/*
 * client.c - lore-am-client: run one lore-am command in a resident
 * `lore-am --server`, which forks a ready process for it, instead of
 * starting lore-am and its libraries again. Takes lore-am's own arguments;
 * hands over its stdin, stdout, stderr, working folder, umask and
 * environment (servesock.h), forwards the signals that end a command, and
 * exits with the command's status. When no server of ours answers, it
 * becomes lore-am itself (execv), so a recipe may always call it; with
 * LORE_AM_SERVER=auto it also starts a server for the next commands.
 *
 * libc only (linked statically by default), on purpose: its start-up is
 * the cost per mail.
 */
#include "servesock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LORE_BINDIR
#define LORE_BINDIR "/usr/local/bin"
#endif

extern char **environ;

#define EX_TEMPFAIL 75

static volatile sig_atomic_t child_pid;

static void
forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void
fail(const char *what)
{
	fprintf(stderr, "lore-am-client: %s\n", what);
}

/* Exec lore-am with @argv: $LORE_AM_PROGRAM, the lore-am beside us, the
 * installed one, or the first on PATH. Returns only when none could be
 * run, with errno set. */
static void
exec_lore_am(char **argv)
{
	const char *env = getenv("LORE_AM_PROGRAM");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		execv(env, argv);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash && (size_t)(slash - self) + sizeof("/lore-am") <=
				 sizeof(self)) {
			strcpy(slash + 1, "lore-am");
			execv(self, argv);
		}
	}
	execv(LORE_BINDIR "/lore-am", argv);
	execvp("lore-am", argv);
}

/* Become lore-am. Returns only when it could not be run. */
static int
run_lore_am(char **argv)
{
	argv[0] = "lore-am";
	exec_lore_am(argv);
	fprintf(stderr, "lore-am-client: cannot run lore-am: %s\n",
		strerror(errno));
	return 127;
}

/*
 * LORE_AM_SERVER=auto and no server: start one for the mails to come, on
 * the same socket (it ends after AUTO_IDLE seconds without a request), in
 * its own session, holding none of our descriptors. Two clients starting
 * one at once are fine: the second server finds the socket locked and
 * exits. The command at hand does not wait for it.
 */
#define AUTO_IDLE "600"

static void
start_server(void)
{
	char *argv[] = { "lore-am", "--server", "-q", "--idle", AUTO_IDLE,
			 NULL };
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return;
	if (pid) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (setsid() < 0 || fork() != 0)
		_exit(0);
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || chdir("/"))
		_exit(0);
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close_range(3, ~0U, 0);
	exec_lore_am(argv);
	_exit(127);
}

/* A connection to a server running as our user, or -1. */
static int
connect_server(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *why = NULL, *mode = getenv("LORE_AM_SERVER");
	int require = mode && !strcmp(mode, "require");
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int s;

	if (servesock_path(sa.sun_path, sizeof(sa.sun_path), 0, &why)) {
		if (require) {
			fprintf(stderr, "lore-am-client: no server: %s\n",
				why);
		}
		return -1;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa))) {
		if (require) {
			fprintf(stderr,
				"lore-am-client: no server at '%s': %s\n",
				sa.sun_path, strerror(errno));
		}
		close(s);
		return -1;
	}
	/* our descriptors and environment go to no one but ourselves */
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    cred.uid != getuid()) {
		fprintf(stderr,
			"lore-am-client: '%s' is served by another user: "
			"not used\n",
			sa.sun_path);
		close(s);
		return -1;
	}
	return s;
}

/* The request: header and strings in one buffer (malloc), or NULL. */
static char *
build_request(char **argv, size_t *lenp)
{
	struct serve_hello h = { .magic = SERVE_MAGIC,
				 .version = SERVE_VERSION };
	size_t len = 0, i;
	mode_t um = umask(0);
	char *buf, *p;

	umask(um);
	h.umask = (uint32_t)um;
	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	h.argc = (uint32_t)i;
	for (i = 0; environ && environ[i]; i++)
		len += strlen(environ[i]) + 1;
	h.envc = (uint32_t)i;
	if (len > SERVE_MAX_PAYLOAD || h.argc + h.envc > SERVE_MAX_STRINGS)
		return NULL;
	h.len = (uint32_t)len;
	buf = malloc(sizeof(h) + len);
	if (!buf)
		return NULL;
	memcpy(buf, &h, sizeof(h));
	p = buf + sizeof(h);
	for (i = 0; argv[i]; i++)
		p = stpcpy(p, argv[i]) + 1;
	for (i = 0; environ && environ[i]; i++)
		p = stpcpy(p, environ[i]) + 1;
	*lenp = sizeof(h) + len;
	return buf;
}

int
main(int argc, char **argv)
{
	const char *mode = getenv("LORE_AM_SERVER");
	int require = mode && !strcmp(mode, "require");
	int s, fds[SERVE_NFDS];
	uint32_t pid, status;
	struct sigaction sa;
	size_t len;
	char *req;
	int i;

	(void)argc;
	if (mode && !strcmp(mode, "off"))
		return run_lore_am(argv);
	/* a server must never start a server */
	for (i = 1; argv[i] && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--server"))
			return run_lore_am(argv);
	s = connect_server();
	if (s < 0 && mode && !strcmp(mode, "auto"))
		start_server();
	if (s < 0)
		return require ? EX_TEMPFAIL : run_lore_am(argv);
	req = build_request(argv, &len);
	fds[0] = STDIN_FILENO;
	fds[1] = STDOUT_FILENO;
	fds[2] = STDERR_FILENO;
	fds[3] = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!req || fds[3] < 0 ||
	    servesock_send_fds(s, req, len, fds, SERVE_NFDS) ||
	    servesock_read_full(s, &pid, sizeof(pid)) ||
	    (pid & SERVE_STATUS)) {
		/* nothing ran: the command may still run here */
		free(req);
		if (fds[3] >= 0)
			close(fds[3]);
		close(s);
		if (require) {
			fail("the server refused the request");
			return EX_TEMPFAIL;
		}
		return run_lore_am(argv);
	}
	free(req);
	close(fds[3]);
	child_pid = (sig_atomic_t)pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	if (servesock_read_full(s, &status, sizeof(status)) ||
	    !(status & SERVE_STATUS)) {
		fail("the server went away before the command ended");
		return EX_TEMPFAIL;
	}
	close(s);
	status &= ~SERVE_STATUS;
	return status > 255 ? 255 : (int)status;
}
