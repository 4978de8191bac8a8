/*
 * server.c - the resident lore-am (server.h). One thread, a poll(2) loop
 * over the listening socket and a self-pipe for signals; each request is
 * read, checked (same user: SO_PEERCRED), and handed to a fork(2) child
 * that becomes the client's lore-am. The parent keeps only the pid and
 * the connection, and writes the exit status there when the child ends.
 */
#include "server.h"
#include "servesock.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHILDREN 64
/* a client has this long to send its request: one slow client must not
 * hold up the others */
#define REQUEST_TIMEOUT_S 5

extern char **environ;

struct slot {
	pid_t pid;
	int conn;
};

struct server {
	const struct server_opts *o;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int listen_fd, lock_fd;
	ino_t ino; /* of our socket, so that we never remove another's */
	struct slot slots[MAX_CHILDREN];
	int nchildren;
	gboolean stopping;
};

static int sig_pipe[2] = { -1, -1 };
/* the child's environment and the request's bytes it points into, kept
 * here too: a setenv() may replace environ */
static char **volatile child_env;
static char *volatile child_strings;
static volatile sig_atomic_t stop_signal;

static void
on_signal(int sig)
{
	int e = errno;
	ssize_t w;

	if (sig != SIGCHLD)
		stop_signal = sig;
	w = write(sig_pipe[1], "", 1);
	(void)w;
	errno = e;
}

static void
set_handlers(void (*fn)(int))
{
	static const int sigs[] = { SIGCHLD, SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa;
	guint i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < G_N_ELEMENTS(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int
setup_error(GError **err, int code, const char *path, const char *what)
{
	g_autofree char *p = lore_term_safe(path, -1);

	g_set_error(err, LORE_ERROR, code, "cannot serve on '%s': %s", p,
		    what);
	return code;
}

/* Lock PATH.lock, then bind and listen on PATH.new and rename it over
 * PATH (a dead server's socket there goes in the same step). */
static int
open_socket(struct server *sv, GError **err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	g_autofree char *lock = g_strconcat(sv->path, ".lock", NULL);
	g_autofree char *tmp = g_strconcat(sv->path, ".new", NULL);
	struct stat st;
	int s;

	sv->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (sv->lock_fd < 0)
		return setup_error(err, LORE_EUSAGE, sv->path,
				   g_strerror(errno));
	if (flock(sv->lock_fd, LOCK_EX | LOCK_NB))
		return setup_error(err, LORE_ETEMP, sv->path,
				   "another lore-am server holds it");
	/* we hold the lock: a socket file left there is a dead server's */
	if (!lstat(sv->path, &st) && !S_ISSOCK(st.st_mode))
		return setup_error(err, LORE_EUSAGE, sv->path,
				   "a file that is not a socket is in the way");
	if (strlen(tmp) >= sizeof(sa.sun_path))
		return setup_error(err, LORE_EUSAGE, sv->path,
				   "the path is too long for a socket");
	unlink(tmp);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return setup_error(err, LORE_EIO, sv->path, g_strerror(errno));
	memcpy(sa.sun_path, tmp, strlen(tmp) + 1);
	{
		/* nobody else may connect, even for a moment */
		mode_t um = umask(0177);
		int rc = bind(s, (struct sockaddr *)&sa, sizeof(sa));
		int e = errno;

		umask(um);
		/* listening before it takes the name: a client never finds
		 * a socket that refuses it */
		if (!rc && (listen(s, 64) || rename(tmp, sv->path))) {
			e = errno;
			unlink(tmp);
			rc = -1;
		}
		if (rc) {
			close(s);
			return setup_error(err, LORE_EIO, sv->path,
					   g_strerror(e));
		}
	}
	if (!lstat(sv->path, &st))
		sv->ino = st.st_ino;
	sv->listen_fd = s;
	return LORE_OK;
}

static void
close_socket(struct server *sv)
{
	struct stat st;

	if (sv->listen_fd < 0)
		return;
	close(sv->listen_fd);
	sv->listen_fd = -1;
	if (!lstat(sv->path, &st) && st.st_ino == sv->ino)
		unlink(sv->path);
}

/* Has our binary been replaced on disk (an upgrade)? */
static gboolean
binary_replaced(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return FALSE;
	buf[n] = '\0';
	return g_str_has_suffix(buf, " (deleted)");
}

static void
send_u32(int fd, guint32 v)
{
	/* a client gone is no error of ours: nothing to tell */
	ssize_t w = send(fd, &v, sizeof(v), MSG_NOSIGNAL | MSG_DONTWAIT);

	(void)w;
}

/* Split @len bytes at @p into exactly @n NUL-terminated strings; NULL
 * when they are not exactly that. The array is g_free'd, not its strings. */
static char **
split_strings(char *p, size_t len, guint32 n, size_t *used)
{
	char **v = g_new0(char *, n + 1);
	size_t off = 0;
	guint32 i;

	for (i = 0; i < n; i++) {
		char *end = off < len ? memchr(p + off, '\0', len - off) : NULL;

		if (!end) {
			g_free(v);
			return NULL;
		}
		v[i] = p + off;
		off = (size_t)(end - p) + 1;
	}
	*used = off;
	return v;
}

/*
 * In the child: take the client's descriptors, folder, umask and
 * environment, drop everything of the server's, and run the command.
 * Returns its exit status, to be returned all the way up to main().
 */
static int
become(struct server *sv, int conn, int *fds, guint32 um, char **argv,
       char **envv)
{
	int i, argc = 0;

	set_handlers(SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
	/* the socket stays in place: it is the server's, not ours */
	close(sv->listen_fd);
	close(sv->lock_fd);
	sv->listen_fd = sv->lock_fd = -1;
	for (i = 0; i < MAX_CHILDREN; i++)
		if (sv->slots[i].pid)
			close(sv->slots[i].conn);
	/* the pid comes from here, not from the parent: a client that has
	 * it knows the command runs, one that has not may run it itself
	 * (were the parent to die between fork and write, it would run
	 * twice) */
	send_u32(conn, (guint32)getpid());
	close(conn);
	for (i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			return LORE_EIO;
	if (fchdir(fds[3]))
		return LORE_EUSAGE;
	for (i = 0; i < SERVE_NFDS; i++) {
		close(fds[i]);
		fds[i] = -1;
	}
	umask((mode_t)um & 0777);
	environ = child_env = envv;
	while (argv[argc])
		argc++;
	return sv->o->run(argc, argv);
}

/*
 * Read one request from @conn and start its child; closes @conn unless a
 * child now owns the slot. Returns FALSE in the server; TRUE in the child,
 * once the command has run, with its exit status in @child_rc.
 */
static gboolean
serve_one(struct server *sv, int conn, int *child_rc)
{
	struct serve_hello h;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	struct timeval tv = { .tv_sec = REQUEST_TIMEOUT_S };
	int fds[SERVE_NFDS], i, slot = -1;
	char *payload = NULL, **argv = NULL, **envv = NULL;
	size_t used = 0, used2 = 0;
	long got;
	pid_t pid = -1;

	for (i = 0; i < SERVE_NFDS; i++)
		fds[i] = -1;
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &clen) ||
	    cred.uid != getuid())
		goto out;
	setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	got = servesock_recv_fds(conn, &h, sizeof(h), fds, SERVE_NFDS);
	if (got <= 0 || fds[0] < 0)
		goto out;
	if ((size_t)got < sizeof(h) &&
	    servesock_read_full(conn, (char *)&h + got, sizeof(h) - got))
		goto out;
	if (h.magic != SERVE_MAGIC || h.version != SERVE_VERSION ||
	    h.len > SERVE_MAX_PAYLOAD || !h.argc ||
	    h.argc > SERVE_MAX_STRINGS || h.envc > SERVE_MAX_STRINGS)
		goto out;
	payload = g_malloc(h.len + 1);
	if (servesock_read_full(conn, payload, h.len))
		goto out;
	payload[h.len] = '\0';
	argv = split_strings(payload, h.len, h.argc, &used);
	if (!argv)
		goto out;
	envv = split_strings(payload + used, h.len - used, h.envc, &used2);
	if (!envv || used + used2 != h.len)
		goto out;
	/* after an upgrade the client must run the new lore-am itself */
	if (binary_replaced()) {
		sv->stopping = TRUE;
		goto out;
	}
	for (i = 0; i < MAX_CHILDREN && slot < 0; i++)
		if (!sv->slots[i].pid)
			slot = i;
	if (slot < 0)
		goto out;
	pid = fork();
	if (pid < 0)
		goto out;
	if (!pid) {
		child_strings = payload;
		*child_rc = become(sv, conn, fds, h.umask, argv, envv);
		conn = -1;
		goto out;
	}
	sv->slots[slot].pid = pid;
	sv->slots[slot].conn = conn;
	sv->nchildren++;
	conn = -1;
out:
	for (i = 0; i < SERVE_NFDS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (conn >= 0)
		close(conn);
	g_free(argv);
	/* in the child the environment is made of them */
	if (pid) {
		g_free(envv);
		g_free(payload);
	}
	return !pid;
}

static void
reap(struct server *sv)
{
	int st, i;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < MAX_CHILDREN; i++) {
			if (sv->slots[i].pid != pid)
				continue;
			send_u32(sv->slots[i].conn,
				 SERVE_STATUS |
				     (WIFEXITED(st)
					  ? (guint32)WEXITSTATUS(st)
					  : 128u + (guint32)WTERMSIG(st)));
			close(sv->slots[i].conn);
			sv->slots[i].pid = 0;
			sv->nchildren--;
		}
	}
}

int
server_run(const struct server_opts *o, GError **err)
{
	struct server sv = { .o = o, .listen_fd = -1, .lock_fd = -1 };
	const char *why = NULL;
	gint64 last = g_get_monotonic_time();
	int rc;

	if (o->socket) {
		if (strlen(o->socket) >= sizeof(sv.path))
			return setup_error(err, LORE_EUSAGE, o->socket,
					   "the path is too long for a socket");
		strcpy(sv.path, o->socket);
	} else if (servesock_path(sv.path, sizeof(sv.path), 1, &why)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot serve: %s", why);
		return LORE_EUSAGE;
	}
	/* descriptors 0-2 open, so that none received can take their place */
	for (rc = 0; rc < 3; rc++)
		if (fcntl(rc, F_GETFD) < 0 && open("/dev/null", O_RDWR) != rc)
			return setup_error(err, LORE_EIO, sv.path,
					   "cannot open /dev/null");
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK)) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot serve: %s",
			    g_strerror(errno));
		return LORE_EIO;
	}
	rc = open_socket(&sv, err);
	if (rc)
		goto out;
	set_handlers(on_signal);
	signal(SIGPIPE, SIG_IGN);
	/* hold no folder busy; each child goes to its client's */
	if (chdir("/"))
		(void)0;
	if (!o->quiet) {
		g_autofree char *p = lore_term_safe(sv.path, -1);

		fprintf(stderr, "lore-am: serving on '%s'\n", p);
	}
	for (;;) {
		struct pollfd pf[2] = {
			{ .fd = sig_pipe[0], .events = POLLIN },
			{ .fd = sv.listen_fd, .events = POLLIN },
		};
		int timeout = -1, n;
		char drain[64];

		reap(&sv);
		if (stop_signal)
			sv.stopping = TRUE;
		if (o->idle > 0 && !sv.nchildren && !sv.stopping) {
			gint64 left = last + (gint64)o->idle * G_USEC_PER_SEC -
				      g_get_monotonic_time();

			if (left <= 0)
				sv.stopping = TRUE;
			else
				timeout = (int)MIN(left / 1000 + 1, G_MAXINT);
		}
		if (sv.stopping)
			close_socket(&sv);
		if (sv.stopping && !sv.nchildren)
			break;
		if (sv.listen_fd < 0 || sv.nchildren >= MAX_CHILDREN)
			pf[1].fd = -1;
		n = poll(pf, 2, timeout);
		if (n < 0 && errno != EINTR) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot serve: poll: %s",
				    g_strerror(errno));
			rc = LORE_EIO;
			break;
		}
		while (read(sig_pipe[0], drain, sizeof(drain)) > 0)
			;
		if (n > 0 && pf[1].fd >= 0 && (pf[1].revents & POLLIN)) {
			int conn = accept4(sv.listen_fd, NULL, NULL,
					   SOCK_CLOEXEC);

			if (conn >= 0 && serve_one(&sv, conn, &rc))
				return rc; /* the child, its command done */
			if (conn >= 0)
				last = g_get_monotonic_time();
		}
	}
out:
	close_socket(&sv);
	if (sv.lock_fd >= 0)
		close(sv.lock_fd);
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
	return rc;
}
