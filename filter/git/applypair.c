/*
 * applypair.c - the first job in a forked child, which sends back its
 * status, message and commits through a pipe as NUL-ended fields, and
 * leaves with _exit() (the parent's stdio buffers, flushed before the
 * fork, and exit handlers are the parent's to run). A child that dies
 * without a word (killed) is a failed run; its worktree is removed by
 * the next run's sweep (tmpwt.h), as for any killed run.
 */
#include "git/applypair.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* the child's report: 5 fields; none holds a NUL */
#define FIELDS 5
#define REPORT_MAX ((gsize)64 << 10)

/* apply_run() as an applypair_fn */
static int
plain(struct apply_job *j, gpointer data, GError **err)
{
	return apply_run(j, err);
}

static void
child(applypair_fn fn, struct apply_job *a, gpointer da, int fd)
{
	GError *e = NULL;
	int rc = fn(a, da, &e);
	g_autofree char *st = g_strdup_printf("%d", rc);
	const char *f[FIELDS] = {st, e ? e->message : "", a->tip ? a->tip : "",
				 a->onto ? a->onto : "",
				 a->from ? a->from : ""};
	guint i;

	for (i = 0; i < FIELDS; i++)
		if (!lore_write_all(fd, f[i], strlen(f[i]) + 1))
			break;
	close(fd);
	_exit(0);
}

static char *
field(const char *s)
{
	return *s ? g_strdup(s) : NULL;
}

/* the child's report read into @a; FALSE: it said nothing whole */
static gboolean
report(int fd, struct apply_job *a, int *ra, GError **ea)
{
	GString *buf = g_string_new(NULL);
	const char *f[FIELDS], *p, *end;
	char tmp[4096];
	ssize_t n;
	guint i = 0;
	gint64 st = 0;
	gboolean ok = FALSE;

	while (buf->len < REPORT_MAX && ((n = read(fd, tmp, sizeof(tmp))) > 0 ||
					 (n < 0 && errno == EINTR)))
		if (n > 0)
			g_string_append_len(buf, tmp, n);
	for (p = buf->str, end = buf->str + buf->len; i < FIELDS && p < end;
	     p += strlen(p) + 1)
		f[i++] = p;
	if (i < FIELDS ||
	    !g_ascii_string_to_signed(f[0], 10, -255, 255, &st, NULL))
		goto out;
	*ra = (int)st;
	if (st)
		g_set_error_literal(ea, LORE_ERROR, (int)st,
				    *f[1] ? f[1] : "git am failed");
	apply_job_clear(a);
	a->tip = field(f[2]);
	a->onto = field(f[3]);
	a->from = field(f[4]);
	ok = TRUE;
out:
	g_string_free(buf, TRUE);
	return ok;
}

void
applypair_run(applypair_fn fn, struct apply_job *a, gpointer da, int *ra,
	      GError **ea, struct apply_job *b, gpointer db, int *rb,
	      GError **eb)
{
	int fds[2], st;
	pid_t pid = -1;

	if (!fn)
		fn = plain;
	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) == 0 && (pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
	}
	if (pid < 0) {
		*ra = fn(a, da, ea);
		*rb = fn(b, db, eb);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fn, a, da, fds[1]);
	}
	close(fds[1]);
	*rb = fn(b, db, eb);
	if (!report(fds[0], a, ra, ea)) {
		*ra = LORE_ENOTFOUND;
		g_set_error_literal(ea, LORE_ERROR, LORE_ENOTFOUND,
				    "its trial run was stopped");
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}
