/*
 * tmpwt.c - temporary folders and worktrees that say whose they are (see
 * tmpwt.h). A run is known by its pid, the start time of that pid (field
 * 22 of /proc/PID/stat: a pid used again by another process starts at
 * another time), the boot id and the host name; a run killed with
 * SIGKILL is known to be gone by these, and its worktree is removed with
 * `git worktree remove --force --force` (it is locked), its folder after.
 */
#include "git/tmpwt.h"
#include "core/gitenv.h"
#include "core/gitrun.h"
#include "core/gitwait.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OWNER_FILE "owner"
#define OWNER_MAX 512
/* a folder of the naming before pids were in it: gone after an hour */
#define OLD_NAME_AGE 3600

static const char *const kinds[] = {"lore-am-apply-", "lore-am-interdiff-"};

/* This boot's id (g_free), "-" where the system has none to read. */
static char *
boot_id(void)
{
	char *s = NULL;

	if (!g_file_get_contents("/proc/sys/kernel/random/boot_id", &s, NULL,
				 NULL))
		return g_strdup("-");
	g_strstrip(s);
	if (!*s || strpbrk(s, " \t\n")) {
		g_free(s);
		return g_strdup("-");
	}
	return s;
}

/*
 * When process @pid started (clock ticks after boot), 0 when unknown;
 * G_MAXUINT64 for a zombie (killed, its parent has not reaped it yet),
 * which kill(pid, 0) would still find.
 */
static guint64
start_time(long pid)
{
	g_autofree char *path = g_strdup_printf("/proc/%ld/stat", pid);
	g_autofree char *text = NULL;
	g_auto(GStrv) f = NULL;
	const char *p;
	guint64 t = 0;

	/* "PID (COMM) STATE ...": COMM may hold blanks and parentheses;
	 * the fields after its last ')' are 3, 4, ... of proc(5) */
	if (!g_file_get_contents(path, &text, NULL, NULL) ||
	    !(p = strrchr(text, ')')))
		return 0;
	f = g_strsplit(p + 1, " ", 0);
	if (f[0] && f[1] && (!strcmp(f[1], "Z") || !strcmp(f[1], "X")))
		return G_MAXUINT64;
	if (g_strv_length(f) > 20)
		g_ascii_string_to_unsigned(f[20], 10, 0, G_MAXUINT64, &t, NULL);
	return t;
}

/* The host's name as one word (a blank would split the owner line). */
static char *
host_word(void)
{
	char *h = g_strdup(g_get_host_name());

	g_strdelimit(h, " \t\r\n", '_');
	return h;
}

/* "lore-am PID START BOOT HOST" for this process (g_free). */
static char *
owner_line(void)
{
	g_autofree char *boot = boot_id(), *host = host_word();
	long pid = (long)getpid();

	return g_strdup_printf("lore-am %ld %" G_GUINT64_FORMAT " %s %s", pid,
			       start_time(pid), boot, host);
}

gboolean
tmpwt_owner_gone(const char *owner)
{
	g_auto(GStrv) f = g_strsplit(owner, " ", 0);
	g_autofree char *boot = NULL, *host = NULL;
	guint64 pid, start, now;

	if (g_strv_length(f) != 5 || strcmp(f[0], "lore-am") ||
	    !g_ascii_string_to_unsigned(f[1], 10, 1, G_MAXINT, &pid, NULL) ||
	    !g_ascii_string_to_unsigned(f[2], 10, 0, G_MAXUINT64, &start, NULL))
		return FALSE;
	g_strchomp(f[4]);
	host = host_word();
	if (strcmp(f[4], host))
		return FALSE; /* another host's: not ours to judge */
	boot = boot_id();
	if (strcmp(f[3], "-") && strcmp(boot, "-") && strcmp(f[3], boot))
		return TRUE; /* this host has booted since */
	if ((pid_t)pid == getpid())
		return FALSE;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return TRUE;
	/* alive: the same process only if it started when the owner did */
	now = start_time((long)pid);
	return now == G_MAXUINT64 || (start && now && now != start);
}

/* rm -r of a folder lore-am made (symbolic links are not followed) */
static void
remove_tree(const char *path)
{
	GDir *d;
	const char *name;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR) ||
	    g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		g_unlink(path);
		return;
	}
	if ((d = g_dir_open(path, 0, NULL))) {
		while ((name = g_dir_read_name(d))) {
			g_autofree char *sub =
			    g_build_filename(path, name, NULL);

			remove_tree(sub);
		}
		g_dir_close(d);
	}
	g_rmdir(path);
}

char *
tmpwt_make_dir(const char *kind, GError **err)
{
	g_autofree char *tmpl =
	    g_strdup_printf("lore-am-%s-%ld-XXXXXX", kind, (long)getpid());
	g_autofree char *owner = owner_line(), *file = NULL, *text = NULL;
	char *dir = g_dir_make_tmp(tmpl, err);

	if (!dir)
		return NULL;
	file = g_build_filename(dir, OWNER_FILE, NULL);
	text = g_strconcat(owner, "\n", NULL);
	if (!g_file_set_contents(file, text, -1, err)) {
		remove_tree(dir);
		g_free(dir);
		return NULL;
	}
	/* git's variables of the user's repository are not for it */
	gitenv_place_add(dir, NULL);
	/* a git run in it is stopped if it is removed under it */
	gitwait_watch(dir);
	return dir;
}

/* The git folder the worktree @wt's ".git" file names (absolute; git
 * may write it relative), or NULL */
static char *
worktree_gitdir(const char *wt)
{
	g_autofree char *file = g_build_filename(wt, ".git", NULL);
	g_autofree char *text = NULL;
	gsize n = 0;

	if (!g_file_get_contents(file, &text, &n, NULL) || n > OWNER_MAX * 8 ||
	    strlen(text) != n || !g_str_has_prefix(text, "gitdir: "))
		return NULL;
	g_strchomp(text);
	if (!text[8])
		return NULL;
	return g_canonicalize_filename(text + 8, wt);
}

/* `git worktree remove --force --force PATH` run in @cwd (NULL: here) */
static gboolean
git_remove(const char *cwd, const char *path)
{
	const char *const rm[] = {"worktree", "remove", "--force",
				  "--force",  path,	NULL};
	GString *e = g_string_new(NULL);
	int st = gitrun(cwd, rm, NULL, 0, NULL, e, NULL);

	g_string_free(e, TRUE);
	return st == 0;
}

int
tmpwt_add(struct tmpwt *w, const char *commit, GError **err)
{
	g_autofree char *owner = owner_line();
	GString *e = g_string_new(NULL);
	int rc = LORE_OK;

	memset(w, 0, sizeof(*w));
	gitrun_hold();
	if (!(w->dir = tmpwt_make_dir("apply", err))) {
		g_prefix_error(err, "cannot make a temporary folder: ");
		rc = LORE_EIO;
		goto out;
	}
	w->path = g_build_filename(w->dir, "worktree", NULL);
	{
		const char *const add[] = {
		    "worktree", "add",	  "--quiet",  "--no-checkout",
		    "--detach", "--lock", "--reason", owner,
		    w->path,	commit,	  NULL};

		if (gitrun(NULL, add, NULL, 0, NULL, e, NULL) == 0) {
			g_autofree char *gitdir = worktree_gitdir(w->path);

			/* each git there gets its git folder, work tree and
			 * index named, none of the user's */
			gitenv_place_add(w->path, gitdir);
			if (tmpwt_fence(gitdir))
				goto out;
			g_string_assign(e, "cannot lock its REBASE_HEAD");
		}
	}
	{
		g_auto(GStrv) l = g_strsplit(e->str, "\n", 2);
		g_autofree char *why = lore_term_safe(
		    l[0] && *l[0] ? l[0] : "no reason given", -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot make a temporary worktree: %s", why);
	}
	rc = LORE_ENOTFOUND;
	tmpwt_remove(w);
out:
	gitrun_release();
	g_string_free(e, TRUE);
	return rc;
}

void
tmpwt_remove(struct tmpwt *w)
{
	gitrun_hold();
	/* an am stopped halfway lives in the worktree's own git folder:
	 * removing the worktree removes it too; git refuses a worktree it
	 * cannot read: then the folder goes first, the record after */
	if (w->path && !git_remove(NULL, w->path)) {
		remove_tree(w->path);
		git_remove(NULL, w->path);
	}
	if (w->dir)
		remove_tree(w->dir);
	if (w->path)
		gitenv_place_remove(w->path);
	if (w->dir) {
		gitenv_place_remove(w->dir);
		gitwait_unwatch(w->dir);
	}
	gitrun_release();
	g_clear_pointer(&w->dir, g_free);
	g_clear_pointer(&w->path, g_free);
}

/* The kind prefix @name starts with, or NULL: not of our naming. */
static const char *
our_kind(const char *name)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (g_str_has_prefix(name, kinds[i]))
			return kinds[i];
	return NULL;
}

/* @dir is a folder (not a link) of ours: our naming, our user */
static gboolean
ours(const char *dir)
{
	g_autofree char *name = g_path_get_basename(dir);
	GStatBuf st;

	return our_kind(name) && g_lstat(dir, &st) == 0 &&
	       S_ISDIR(st.st_mode) && st.st_uid == getuid();
}

/*
 * Whether the run that made the folder @dir is gone: its owner file says,
 * else the pid in its name (killed before it wrote the file), else, named
 * by an older version without a pid, its age.
 */
static gboolean
folder_gone(const char *dir)
{
	g_autofree char *file = g_build_filename(dir, OWNER_FILE, NULL);
	g_autofree char *text = NULL, *name = g_path_get_basename(dir);
	const char *kind = our_kind(name), *p;
	gsize len = 0;
	guint64 pid;
	GStatBuf st;

	if (g_file_get_contents(file, &text, &len, NULL) && len < OWNER_MAX &&
	    strlen(text) == len)
		return tmpwt_owner_gone(text);
	p = name + strlen(kind);
	if (g_ascii_isdigit(*p) && strchr(p, '-')) {
		g_autofree char *num = g_strndup(p, strchr(p, '-') - p);

		return g_ascii_string_to_unsigned(num, 10, 1, G_MAXINT, &pid,
						  NULL) &&
		       (pid_t)pid != getpid() && kill((pid_t)pid, 0) < 0 &&
		       errno == ESRCH;
	}
	return g_lstat(dir, &st) == 0 &&
	       g_get_real_time() / G_USEC_PER_SEC - (gint64)st.st_mtime >=
		   OLD_NAME_AGE;
}

static void
note_removed(const char *what, const char *path)
{
	g_autofree char *p = lore_term_safe(path, -1);

	lore_err("note: removed the temporary %s '%s' a killed run left", what,
		 p);
}

/* One worktree record of the current repository: @path, its lock's
 * @reason (or NULL); removed with its folder when its run is gone. */
static void
sweep_record(const char *path, const char *reason)
{
	g_autofree char *base = g_path_get_basename(path);
	g_autofree char *dir = g_path_get_dirname(path);
	g_autofree char *dname = g_path_get_basename(dir);
	gboolean gone, done;

	if (strcmp(base, "worktree") || !our_kind(dname))
		return;
	if (reason && g_str_has_prefix(reason, "lore-am "))
		gone = tmpwt_owner_gone(reason);
	else if (g_file_test(dir, G_FILE_TEST_EXISTS))
		gone = ours(dir) && folder_gone(dir);
	else
		gone = TRUE; /* its folder is gone (a reboot emptied it) */
	if (!gone)
		return;
	if (!(done = git_remove(NULL, path)) && ours(dir)) {
		remove_tree(dir);
		done = git_remove(NULL, path);
	}
	if (ours(dir))
		remove_tree(dir);
	if (done)
		note_removed("worktree", path);
}

/* The worktrees registered in the current repository, as
 * `git worktree list --porcelain -z` gives them (NUL after each line,
 * another after each worktree) */
static void
sweep_repo(void)
{
	const char *const list[] = {"worktree", "list", "--porcelain", "-z",
				    NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	const char *p, *end, *path = NULL, *reason = NULL;

	if (gitrun(NULL, list, NULL, 0, out, e, NULL) != 0)
		goto out;
	for (p = out->str, end = out->str + out->len; p < end;
	     p += strlen(p) + 1) {
		if (!*p) {
			if (path)
				sweep_record(path, reason);
			path = reason = NULL;
		} else if (g_str_has_prefix(p, "worktree ")) {
			path = p + 9;
		} else if (g_str_has_prefix(p, "locked ")) {
			reason = p + 7;
		}
	}
out:
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
}

/* The folders of our naming in the temporary folder */
static void
sweep_tmp(void)
{
	const char *tmp = g_get_tmp_dir(), *name;
	GDir *d = g_dir_open(tmp, 0, NULL);

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *dir = NULL, *wt = NULL, *dotgit = NULL;

		if (!our_kind(name))
			continue;
		dir = g_build_filename(tmp, name, NULL);
		if (!ours(dir) || !folder_gone(dir))
			continue;
		wt = g_build_filename(dir, "worktree", NULL);
		dotgit = g_build_filename(wt, ".git", NULL);
		/* its record is in some repository: git finds which */
		if (g_file_test(dotgit, G_FILE_TEST_IS_REGULAR)) {
			gitenv_place_add(wt, NULL);
			git_remove(wt, wt);
			gitenv_place_remove(wt);
		}
		remove_tree(dir);
		note_removed("folder", dir);
	}
	g_dir_close(d);
}

void
tmpwt_sweep(gboolean repo)
{
	static gboolean swept_repo, swept_tmp;

	gitrun_hold();
	if (repo && !swept_repo)
		sweep_repo();
	if (!swept_tmp)
		sweep_tmp();
	swept_repo = swept_repo || repo;
	swept_tmp = TRUE;
	gitrun_release();
}

gboolean
tmpwt_fence(const char *gitdir)
{
	g_autofree char *path = NULL;
	int fd;

	if (!gitdir)
		return FALSE;
	path = g_build_filename(gitdir, "REBASE_HEAD.lock", NULL);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return FALSE;
	close(fd);
	return TRUE;
}

GString *
tmpwt_am_errors(const GString *e)
{
	g_auto(GStrv) lines = g_strsplit(e->str, "\n", -1);
	GString *kept = g_string_new(NULL);
	g_autofree char *prefix = NULL;
	guint i;

	/* git's message for the fenced ref is "PREFIX cannot lock ref
	 * 'REBASE_HEAD': ..." and a paragraph of advice, up to the next
	 * message with a prefix of its own */
	for (i = 0; lines[i]; i++) {
		const char *colon = strstr(lines[i], ": ");

		if (strstr(lines[i], "'REBASE_HEAD'") && colon) {
			g_free(prefix);
			prefix = g_strndup(lines[i], colon + 2 - lines[i]);
			continue;
		}
		if (prefix && !g_str_has_prefix(lines[i], prefix) &&
		    !g_str_has_prefix(lines[i], "error: ") &&
		    !g_str_has_prefix(lines[i], "fatal: ") &&
		    !g_str_has_prefix(lines[i], "hint: "))
			continue;
		g_clear_pointer(&prefix, g_free);
		g_string_append(kept, lines[i]);
		if (lines[i + 1])
			g_string_append_c(kept, '\n');
	}
	return kept;
}
