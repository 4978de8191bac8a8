/*
 * gitconfig.c - git's configuration files read directly, in their plain
 * form only (git-config(1) "CONFIGURATION FILE": "[section]" and
 * '[section "sub"]' headers, "key = value" and boolean "key" lines, '#'
 * and ';' comments), with git's rules for values: white space around a
 * value dropped, each blank inside it kept as one space, a comment ending
 * it. Quotes, escapes, continuation lines, includes and anything else
 * unusual make gitconfig_read() give up, and config.c asks git.
 */
#include "core/gitconfig.h"
#include "core/gitenv.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The sections config.c is asked about (see config.h). */
static gboolean
wanted(const char *sec, size_t n)
{
	return (n == 7 && !g_ascii_strncasecmp(sec, "lore-am", 7)) ||
	       (n == 2 && !g_ascii_strncasecmp(sec, "b4", 2)) ||
	       (n == 4 && !g_ascii_strncasecmp(sec, "lore", 4)) ||
	       (n == 4 && !g_ascii_strncasecmp(sec, "user", 4));
}

static gboolean
is_keychar(char c)
{
	return g_ascii_isalnum(c) || c == '-';
}

/* A value as git reads it, or NULL when only git can read it. */
static char *
parse_value(const char *p, const char *end)
{
	GString *v = g_string_new(NULL);
	size_t blanks = 0;

	for (; p < end; p++) {
		guchar c = *p;

		if (c == ' ' || c == '\t') {
			if (v->len)
				blanks++;
			continue;
		}
		if (c == '#' || c == ';')
			break;
		if (c == '"' || c == '\\' || c < ' ' || c == 0x7f) {
			g_string_free(v, TRUE);
			return NULL;
		}
		for (; blanks; blanks--)
			g_string_append_c(v, ' ');
		g_string_append_c(v, c);
	}
	return g_string_free(v, FALSE);
}

/* Nothing but blanks and maybe a comment from @p to @end? */
static gboolean
rest_empty(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p == end || *p == '#' || *p == ';';
}

/*
 * A "[section]" or '[section "sub"]' header: its name (lower case, with
 * the subsection) in @sec, and whether lore-am reads it in @want.
 */
static gboolean
parse_header(const char *p, const char *end, GString *sec, gboolean *want)
{
	const char *name = ++p, *sub = NULL;
	size_t nl, sl = 0;

	while (p < end && is_keychar(*p))
		p++;
	nl = p - name;
	if (!nl || p == end)
		return FALSE;
	if (*p == ' ' || *p == '\t') {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p++ != '"')
			return FALSE;
		for (sub = p; p < end && *p != '"'; p++)
			if (*p == '\\' || (guchar)*p < ' ')
				return FALSE;
		if (p == end)
			return FALSE;
		sl = p++ - sub;
	}
	/* a key after the header on the same line is git's to read */
	if (p == end || *p++ != ']' || !rest_empty(p, end))
		return FALSE;
	if ((nl == 7 && !g_ascii_strncasecmp(name, "include", 7)) ||
	    (nl == 9 && !g_ascii_strncasecmp(name, "includeif", 9)))
		return FALSE;
	g_string_assign(sec, "");
	g_string_append_len(sec, name, nl);
	if (sub) {
		g_string_append_c(sec, '.');
		g_string_append_len(sec, sub, sl);
	}
	*want = wanted(name, nl);
	return TRUE;
}

/*
 * One file into @vals. A missing file is no configuration; one that
 * cannot be read, or is not in the plain form, is FALSE.
 */
static gboolean
read_file(const char *path, GHashTable *vals)
{
	g_autofree char *buf = NULL;
	g_autoptr(GString) sec = g_string_new(NULL);
	gboolean want = FALSE, in_sec = FALSE;
	const char *p, *next;
	GError *err = NULL;
	gsize len;

	if (!g_file_get_contents(path, &buf, &len, &err)) {
		gboolean none = err->code == G_FILE_ERROR_NOENT ||
				err->code == G_FILE_ERROR_NOTDIR;

		g_error_free(err);
		return none;
	}
	if (memchr(buf, '\0', len))
		return FALSE;
	for (p = buf; p < buf + len; p = next) {
		const char *k, *ke, *end, *q,
		    *nl = memchr(p, '\n', buf + len - p);
		char *v;

		next = nl ? nl + 1 : buf + len;
		end = nl ? nl : buf + len;
		/* git reads CRLF as LF; any other CR is git's to judge */
		if (end > p && end[-1] == '\r')
			end--;
		for (q = p; q < end; q++)
			if (*q == '\r')
				return FALSE;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (rest_empty(p, end))
			continue;
		if (*p == '[') {
			if (!parse_header(p, end, sec, &want))
				return FALSE;
			in_sec = TRUE;
			continue;
		}
		if (!in_sec || !g_ascii_isalpha(*p))
			return FALSE;
		for (k = p; p < end && is_keychar(*p); p++)
			;
		ke = p;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			v = g_strdup("true"); /* a boolean key alone */
		else if (*p == '=')
			v = parse_value(p + 1, end);
		else
			return FALSE;
		if (!v)
			return FALSE;
		if (want) {
			g_autofree char *key = g_strdup_printf(
			    "%s.%.*s", sec->str, (int)(ke - k), k);

			g_hash_table_replace(vals, g_ascii_strdown(key, -1), v);
		} else {
			g_free(v);
		}
	}
	return TRUE;
}

static gboolean
exists(const char *dir, const char *name)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);

	return access(p, F_OK) == 0;
}

/*
 * The configuration file of the repository git finds from the current
 * folder (NULL: none), following git's discovery: .git in this folder or
 * the nearest one above, not across a mount point. FALSE when git's
 * answer could differ: a .git file (linked worktree, submodule), a bare
 * repository, a repository of another user (safe.directory), per-worktree
 * configuration.
 */
static gboolean
repo_config(char **path)
{
	g_autofree char *dir = g_get_current_dir();
	struct stat st;
	dev_t dev;

	*path = NULL;
	if (stat(dir, &st) < 0)
		return FALSE;
	dev = st.st_dev;
	for (;;) {
		g_autofree char *git = g_build_filename(dir, ".git", NULL);
		char *parent;

		if (stat(git, &st) == 0) {
			if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
			    !exists(git, "HEAD") || !exists(git, "objects") ||
			    !exists(git, "refs") || exists(git, "commondir") ||
			    exists(git, "config.worktree"))
				return FALSE;
			if (stat(dir, &st) < 0 || st.st_uid != geteuid())
				return FALSE;
			*path = g_build_filename(git, "config", NULL);
			return TRUE;
		}
		if (errno != ENOENT && errno != ENOTDIR)
			return FALSE;
		/* a bare repository, or the inside of a .git folder */
		if (exists(dir, "HEAD") && exists(dir, "objects"))
			return FALSE;
		parent = g_path_get_dirname(dir);
		if (!strcmp(parent, dir)) {
			g_free(parent);
			return TRUE;
		}
		g_free(dir);
		dir = parent;
		/* git stops at a mount point: no repository then */
		if (stat(dir, &st) < 0)
			return FALSE;
		if (st.st_dev != dev)
			return TRUE;
	}
}

/* git's boolean environment values: 1, 0 or -1 when git would refuse. */
static int
env_bool(const char *v)
{
	static const char *const yes[] = {"1", "true", "yes", "on"};
	static const char *const no[] = {"0", "false", "no", "off", ""};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(yes); i++)
		if (!g_ascii_strcasecmp(v, yes[i]))
			return 1;
	for (i = 0; i < G_N_ELEMENTS(no); i++)
		if (!g_ascii_strcasecmp(v, no[i]))
			return 0;
	return -1;
}

/* system_config()'s answers */
enum { SYS_ASK_GIT = -1, SYS_NO_GIT = 0, SYS_FOUND = 1 };

/*
 * The system file: none with GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM when
 * set (neither needs to know which git runs, so a run that starts no git
 * looks none up in PATH), else that of the git on the PATH:
 * $(prefix)/etc/gitconfig, and /etc/gitconfig for a prefix of /usr (git's
 * Makefile). SYS_NO_GIT when that is asked and PATH has no git;
 * SYS_ASK_GIT when another candidate exists too, so that a git built with
 * its own sysconfdir is asked rather than guessed at.
 */
static int
system_config(char **path)
{
	const char *env = g_getenv("GIT_CONFIG_NOSYSTEM");
	char real[PATH_MAX];
	const char *bins[2], *git;
	guint i;

	*path = NULL;
	if (env) {
		int b = env_bool(env);

		if (b < 0)
			return SYS_ASK_GIT;
		if (b)
			return SYS_FOUND;
	}
	if ((env = g_getenv("GIT_CONFIG_SYSTEM"))) {
		*path = g_strdup(env);
		return SYS_FOUND;
	}
	/* the lookup every git child shares (gitenv.h) */
	if (!(git = gitenv_git()))
		return SYS_NO_GIT;
	if (!realpath(git, real))
		return SYS_ASK_GIT;
	bins[0] = real;
	bins[1] = git;
	for (i = 0; i < G_N_ELEMENTS(bins); i++) {
		g_autofree char *bin = g_path_get_dirname(bins[i]);
		g_autofree char *prefix = g_path_get_dirname(bin);
		char *f =
		    !strcmp(prefix, "/usr")
			? g_strdup("/etc/gitconfig")
			: g_build_filename(prefix, "etc", "gitconfig", NULL);

		if (!*path) {
			*path = f;
		} else if (strcmp(f, *path) && !access(f, F_OK)) {
			g_free(f);
			return SYS_ASK_GIT;
		} else {
			g_free(f);
		}
	}
	if (strcmp(*path, "/etc/gitconfig") && !access("/etc/gitconfig", F_OK))
		return SYS_ASK_GIT;
	return SYS_FOUND;
}

gboolean
gitconfig_read(GHashTable *vals)
{
	/* each of these adds settings or names another file; those that
	 * change which repository git finds are gitenv.h's */
	static const char *const asks_git[] = {
	    "GIT_CONFIG_PARAMETERS",
	    "GIT_CONFIG_COUNT",
	    "GIT_CONFIG",
	};
	g_autofree char *sys = NULL, *repo = NULL;
	const char *home = g_getenv("HOME"), *env;
	guint i;
	int s;

	for (i = 0; i < G_N_ELEMENTS(asks_git); i++)
		if (g_getenv(asks_git[i]))
			return FALSE;
	if (gitenv_finds_elsewhere())
		return FALSE;
	if ((s = system_config(&sys)) == SYS_NO_GIT)
		return TRUE;
	if (s == SYS_ASK_GIT || !repo_config(&repo))
		return FALSE;
	if (sys && !read_file(sys, vals))
		return FALSE;
	if ((env = g_getenv("GIT_CONFIG_GLOBAL"))) {
		if (!*env || !read_file(env, vals))
			return FALSE;
	} else {
		const char *xdg = g_getenv("XDG_CONFIG_HOME");
		g_autofree char *x = NULL, *u = NULL;

		if (xdg && *xdg)
			x = g_build_filename(xdg, "git", "config", NULL);
		else if (home)
			x = g_build_filename(home, ".config", "git", "config",
					     NULL);
		if (home)
			u = g_build_filename(home, ".gitconfig", NULL);
		if ((x && !read_file(x, vals)) || (u && !read_file(u, vals)))
			return FALSE;
	}
	return !repo || read_file(repo, vals);
}
