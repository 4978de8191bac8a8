/*
 * server.h - `lore-am --server`: a resident lore-am that has loaded its
 * libraries once and forks a ready process for each request from
 * lore-am-client (protocol in servesock.h). The forked process takes the
 * client's stdin, stdout, stderr, working folder, umask and environment,
 * then runs the command exactly as lore-am would; its exit status goes
 * back to the client.
 *
 * Only a client running as the server's user is served. One server per
 * socket: a second one started on the same path exits with an error.
 */
#ifndef LORE_SERVER_H
#define LORE_SERVER_H

#include <glib.h>

/* What a forked process runs: lore-am's main work on @argv. */
typedef int (*server_main_fn)(int argc, char **argv);

struct server_opts {
	const char *socket; /* NULL: servesock_path() */
	int idle;           /* exit after this many seconds without a
			     * request; 0: never */
	gboolean quiet;     /* no "serving on" line */
	server_main_fn run;
};

/*
 * Serve until SIGTERM, SIGINT or SIGHUP, the idle time, or the lore-am
 * binary being replaced on disk (the next client then falls back to the
 * new one); running requests are waited for, the socket is removed.
 * Returns LORE_OK, or a lore_status with @err set when the socket could
 * not be set up (LORE_ETEMP: another server holds it).
 */
int server_run(const struct server_opts *o, GError **err);

#endif
