/*
 * servesock.c - the socket's place and the descriptor passing shared by
 * lore-am-client and the server (unix(7): SCM_RIGHTS ancillary data).
 * No GLib here: see servesock.h.
 */
#include "servesock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Is @dir a folder of ours that nobody else may enter? */
static int
private_dir(const char *dir)
{
	struct stat st;

	return !lstat(dir, &st) && S_ISDIR(st.st_mode) &&
	       st.st_uid == getuid() && !(st.st_mode & 077);
}

static int
put(char *buf, size_t size, const char *dir, const char **why)
{
	int n = snprintf(buf, size, "%s/lore-am.sock", dir);

	if (n < 0 || (size_t)n >= size ||
	    (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		*why = "the socket's path is too long";
		return -1;
	}
	return 0;
}

int
servesock_path(char *buf, size_t size, int create, const char **why)
{
	const char *env = getenv("LORE_AM_SOCKET");
	char dir[64];

	if (env && *env) {
		int n = snprintf(buf, size, "%s", env);

		if (n < 0 || (size_t)n >= size ||
		    (size_t)n >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
			*why = "LORE_AM_SOCKET is too long for a socket path";
			return -1;
		}
		return 0;
	}
	env = getenv("XDG_RUNTIME_DIR");
	if (env && *env) {
		if (!private_dir(env)) {
			*why = "XDG_RUNTIME_DIR is not a private folder of ours";
			return -1;
		}
		return put(buf, size, env, why);
	}
	snprintf(dir, sizeof(dir), "/run/user/%u", (unsigned)getuid());
	if (private_dir(dir))
		return put(buf, size, dir, why);
	snprintf(dir, sizeof(dir), "/tmp/lore-am-%u", (unsigned)getuid());
	if (create && mkdir(dir, 0700) && errno != EEXIST) {
		*why = "cannot create the socket's folder in /tmp";
		return -1;
	}
	if (!private_dir(dir)) {
		*why = "the socket's folder in /tmp is missing, not ours, "
		       "or open to others";
		return -1;
	}
	return put(buf, size, dir, why);
}

int
servesock_write_full(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int
servesock_read_full(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t r = read(fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (!r)
				errno = 0;
			return -1;
		}
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int
servesock_send_fds(int sock, const void *p, size_t n, const int *fds,
		   int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SERVE_NFDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)p, .iov_len = n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t w;

	if (nfds < 1 || nfds > SERVE_NFDS)
		return -1;
	memset(&u, 0, sizeof(u));
	mh.msg_control = u.buf;
	mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
	memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
	do
		w = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	/* the descriptors went with the first byte: the rest is plain */
	return servesock_write_full(sock, (const char *)p + w, n - (size_t)w);
}

long
servesock_recv_fds(int sock, void *p, size_t n, int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SERVE_NFDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = p, .iov_len = n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t r;
	int i;

	for (i = 0; i < nfds; i++)
		fds[i] = -1;
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	do
		r = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -1;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		size_t got;
		int tmp[SERVE_NFDS];

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		got = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (got > SERVE_NFDS)
			got = SERVE_NFDS;
		memcpy(tmp, CMSG_DATA(cm), got * sizeof(int));
		if ((int)got == nfds && fds[0] < 0) {
			memcpy(fds, tmp, got * sizeof(int));
			continue;
		}
		for (i = 0; i < (int)got; i++)
			close(tmp[i]);
	}
	if (mh.msg_flags & MSG_CTRUNC) {
		for (i = 0; i < nfds; i++) {
			if (fds[i] >= 0)
				close(fds[i]);
			fds[i] = -1;
		}
	}
	return (long)r;
}
