/*
 * servesock.h - what lore-am-client and `lore-am --server` share: where
 * the socket lives, the request that crosses it, and the descriptor
 * passing (unix(7) SCM_RIGHTS). Plain libc, no GLib: the client links
 * nothing else, so that it starts as fast as a process can.
 *
 * A request is one struct serve_hello, sent with four descriptors (the
 * client's stdin, stdout, stderr and an O_PATH handle on its working
 * folder), followed by hello.len bytes: hello.argc NUL-terminated argument
 * strings, then hello.envc NUL-terminated "NAME=value" strings. The server
 * answers with two 32-bit numbers in host order: the pid of the process
 * running the request (sent by that process), then SERVE_STATUS with its
 * exit status (0-255, or 128 + the signal that ended it). A connection
 * closed, or a status, before the pid came means nothing ran.
 */
#ifndef LORE_SERVESOCK_H
#define LORE_SERVESOCK_H

#include <stddef.h>
#include <stdint.h>

#define SERVE_MAGIC 0x6c6f7265u /* "lore" */
#define SERVE_VERSION 1u
#define SERVE_NFDS 4
#define SERVE_MAX_PAYLOAD (4u << 20) /* arguments and environment */
#define SERVE_MAX_STRINGS 65536u
#define SERVE_STATUS 0x80000000u /* marks a status: no pid has this bit */

struct serve_hello {
	uint32_t magic, version;
	uint32_t umask;
	uint32_t argc, envc;
	uint32_t len; /* bytes of strings that follow */
};

/*
 * The socket's path into @buf (@size bytes): $LORE_AM_SOCKET when set;
 * else "lore-am.sock" in $XDG_RUNTIME_DIR, or in /run/user/UID when that
 * variable is unset (a mail delivery agent's environment lacks it) but
 * the folder is ours; else in /tmp/lore-am-UID/, which @create makes
 * (mode 0700). A folder that is not ours or is open to others is refused.
 * Returns 0, or -1 with a reason in @why (a static string).
 */
int servesock_path(char *buf, size_t size, int create, const char **why);

/* write(2)/read(2) all of @n bytes, retrying EINTR; 0 or -1 (errno set;
 * read_full gives -1 with errno 0 at an early end of file). */
int servesock_write_full(int fd, const void *p, size_t n);
int servesock_read_full(int fd, void *p, size_t n);

/* Send @n bytes at @p with the @nfds descriptors in @fds. 0 or -1. */
int servesock_send_fds(int sock, const void *p, size_t n, const int *fds,
		       int nfds);

/*
 * Receive up to @n bytes into @p and exactly @nfds descriptors into @fds
 * (the caller's to close; all are -1 when the message had none or another
 * count, and those that came are closed). Returns the bytes read, 0 at end
 * of file, -1 on error.
 */
long servesock_recv_fds(int sock, void *p, size_t n, int *fds, int nfds);

#endif
