/*
 * gitenv.c - git's path and each git child's environment (see gitenv.h).
 * The variables are git's own (git(1) "ENVIRONMENT VARIABLES", and the
 * ones git sets for what it runs, local_repo_env in git's environment.c);
 * the user's repository is what `git rev-parse --absolute-git-dir
 * --show-toplevel` says with them set, as every git would find it.
 */
#include "core/gitenv.h"
#include "core/gitalt.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* read by git from the folder it works in when an entry is relative */
#define ALT_VAR "GIT_ALTERNATE_OBJECT_DIRECTORIES"

enum {
	WHERE = 1, /* says where the repository, index or tree are */
	FINDS = 2, /* changes which repository git finds from a folder */
	STRIP = 4, /* never for a place of lore-am's own */
	PATH = 8,  /* a path, made absolute for a git run elsewhere */
};

static const struct var {
	const char *name;
	unsigned flags;
} vars[] = {
    {"GIT_DIR", WHERE | FINDS | STRIP | PATH},
    {"GIT_WORK_TREE", WHERE | FINDS | STRIP | PATH},
    {"GIT_COMMON_DIR", WHERE | FINDS | STRIP | PATH},
    {"GIT_CEILING_DIRECTORIES", WHERE | FINDS | STRIP},
    {"GIT_DISCOVERY_ACROSS_FILESYSTEM", WHERE | FINDS | STRIP},
    {"GIT_INDEX_FILE", WHERE | STRIP | PATH},
    /* the same objects in a place too (made absolute there) */
    {"GIT_OBJECT_DIRECTORY", WHERE | PATH},
    {"GIT_NAMESPACE", STRIP},
    /* what git sets for the programs it runs: the folder it was started
     * in, relative to the top, and a flag of its own setup */
    {"GIT_PREFIX", STRIP},
    {"GIT_IMPLICIT_WORK_TREE", STRIP},
    {"GIT_INTERNAL_SUPER_PREFIX", STRIP},
};

struct place {
	char *dir;
	char *gitdir; /* or NULL */
};

G_LOCK_DEFINE_STATIC(places);
static GPtrArray *places;

static gboolean
any_set(unsigned flag)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(vars); i++)
		if ((vars[i].flags & flag) && g_getenv(vars[i].name))
			return TRUE;
	return FALSE;
}

gboolean
gitenv_says_where(void)
{
	return any_set(WHERE);
}

gboolean
gitenv_finds_elsewhere(void)
{
	return any_set(FINDS);
}

const char *
gitenv_git(void)
{
	static gsize once;
	static char *git;

	if (g_once_init_enter(&once)) {
		char *p = g_find_program_in_path("git");

		/* a relative PATH entry: absolute, for a child started
		 * in another folder */
		if (p && !g_path_is_absolute(p)) {
			g_autofree char *here = g_get_current_dir();

			git = g_build_filename(here, p, NULL);
			g_free(p);
		} else {
			git = p;
		}
		g_once_init_leave(&once, 1);
	}
	return git;
}

/* `git rev-parse --path-format=absolute @args...` here, with our own
 * environment: its lines, NULL when it failed */
static char **
rev_parse(const char *const *args)
{
	const char *git = gitenv_git();
	GPtrArray *argv = g_ptr_array_new();
	g_autofree char *out = NULL;
	char **lines = NULL;
	int st = -1;
	guint i;

	g_ptr_array_add(argv, (char *)(git ? git : "git"));
	g_ptr_array_add(argv, "rev-parse");
	g_ptr_array_add(argv, "--path-format=absolute");
	for (i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	/* stdin is /dev/null: ours holds the mail */
	if (g_spawn_sync(NULL, (char **)argv->pdata, NULL,
			 (git ? 0 : G_SPAWN_SEARCH_PATH) |
			     G_SPAWN_STDERR_TO_DEV_NULL,
			 NULL, NULL, &out, NULL, &st, NULL) &&
	    g_spawn_check_wait_status(st, NULL))
		lines = g_strsplit(out, "\n", -1);
	g_ptr_array_free(argv, TRUE);
	return lines;
}

/* the lines @l[0..@n) each an absolute path (a path with a line break
 * in it would shift them all) */
static gboolean
absolute_lines(char **l, guint n)
{
	guint i;

	if (g_strv_length(l) < n)
		return FALSE;
	for (i = 0; i < n; i++)
		if (!g_path_is_absolute(l[i]))
			return FALSE;
	return TRUE;
}

static struct gitenv_repo *
find_repo(void)
{
	/* the top last: git refuses --show-toplevel without a work tree,
	 * and is then asked again without it */
	const char *const with_top[] = {
	    "--absolute-git-dir", "--git-common-dir",
	    "--git-path",	  "index",
	    "--git-path",	  "objects",
	    "--show-toplevel",	  NULL};
	const char *const bare[] = {
	    "--absolute-git-dir", "--git-common-dir", "--git-path", "index",
	    "--git-path",	  "objects",	      NULL};
	struct gitenv_repo *r;
	char **l = rev_parse(with_top);
	gboolean top = l && absolute_lines(l, 5);

	if (!top) {
		g_strfreev(l);
		l = rev_parse(bare);
	}
	if (!l || !absolute_lines(l, 4)) {
		g_strfreev(l);
		return NULL;
	}
	r = g_new0(struct gitenv_repo, 1);
	r->gitdir = g_strdup(l[0]);
	r->common = g_strdup(l[1]);
	r->index = g_strdup(l[2]);
	r->objects = g_strdup(l[3]);
	r->top = top ? g_strdup(l[4]) : NULL;
	g_strfreev(l);
	return r;
}

const struct gitenv_repo *
gitenv_repo(void)
{
	static gsize once;
	static struct gitenv_repo *repo;

	if (g_once_init_enter(&once)) {
		if (gitenv_says_where())
			repo = find_repo();
		g_once_init_leave(&once, 1);
	}
	return repo;
}

void
gitenv_place_add(const char *dir, const char *gitdir)
{
	struct place *p = g_new0(struct place, 1);

	p->dir = g_strdup(dir);
	p->gitdir = g_strdup(gitdir);
	G_LOCK(places);
	if (!places)
		places = g_ptr_array_new();
	g_ptr_array_add(places, p);
	G_UNLOCK(places);
}

void
gitenv_place_remove(const char *dir)
{
	guint i;

	G_LOCK(places);
	for (i = 0; places && i < places->len; i++) {
		struct place *p = places->pdata[i];

		if (!strcmp(p->dir, dir)) {
			g_ptr_array_remove_index(places, i);
			g_free(p->dir);
			g_free(p->gitdir);
			g_free(p);
			break;
		}
	}
	G_UNLOCK(places);
}

/* The innermost place holding @dir: TRUE, with its folder in *@top and
 * its git folder (or NULL) in *@gitdir (both g_free) */
static gboolean
place_of(const char *dir, char **top, char **gitdir)
{
	const struct place *best = NULL;
	gsize n, best_n = 0;
	guint i;

	*top = *gitdir = NULL;
	if (!dir || !g_path_is_absolute(dir))
		return FALSE;
	G_LOCK(places);
	for (i = 0; places && i < places->len; i++) {
		const struct place *p = places->pdata[i];

		n = strlen(p->dir);
		if (n > best_n && lore_path_at_or_under(dir, p->dir)) {
			best = p;
			best_n = n;
		}
	}
	if (best) {
		*top = g_strdup(best->dir);
		*gitdir = g_strdup(best->gitdir);
	}
	G_UNLOCK(places);
	return best != NULL;
}

/* The user's repository for a git run anywhere: each of its variables
 * that is set, as the absolute path git found */
static char **
user_env(void)
{
	const struct gitenv_repo *r = gitenv_repo();
	char **env;

	if (!r)
		return NULL;
	env = g_get_environ();
	/* with GIT_DIR alone git takes the folder it starts in for the
	 * top: a child started with -C elsewhere must not */
	if (g_getenv("GIT_DIR")) {
		env = g_environ_setenv(env, "GIT_DIR", r->gitdir, TRUE);
		if (r->top)
			env = g_environ_setenv(env, "GIT_WORK_TREE", r->top,
					       TRUE);
	}
	if (g_getenv("GIT_WORK_TREE") && r->top)
		env = g_environ_setenv(env, "GIT_WORK_TREE", r->top, TRUE);
	if (g_getenv("GIT_COMMON_DIR"))
		env = g_environ_setenv(env, "GIT_COMMON_DIR", r->common, TRUE);
	if (g_getenv("GIT_INDEX_FILE"))
		env = g_environ_setenv(env, "GIT_INDEX_FILE", r->index, TRUE);
	if (g_getenv("GIT_OBJECT_DIRECTORY"))
		env = g_environ_setenv(env, "GIT_OBJECT_DIRECTORY", r->objects,
				       TRUE);
	return env;
}

/* A place's: none of the user's where-variables, its own if @gitdir
 * (@top its work tree) */
static char **
place_env(const char *top, const char *gitdir)
{
	const struct gitenv_repo *r;
	char **env;
	guint i;

	if (!gitdir && !any_set(STRIP | WHERE))
		return NULL;
	env = g_get_environ();
	for (i = 0; i < G_N_ELEMENTS(vars); i++)
		if (vars[i].flags & STRIP)
			env = g_environ_unsetenv(env, vars[i].name);
	if (g_getenv("GIT_OBJECT_DIRECTORY") && (r = gitenv_repo()))
		env = g_environ_setenv(env, "GIT_OBJECT_DIRECTORY", r->objects,
				       TRUE);
	if (gitdir) {
		g_autofree char *index =
		    g_build_filename(gitdir, "index", NULL);

		env = g_environ_setenv(env, "GIT_DIR", gitdir, TRUE);
		env = g_environ_setenv(env, "GIT_WORK_TREE", top, TRUE);
		env = g_environ_setenv(env, "GIT_INDEX_FILE", index, TRUE);
	}
	return env;
}

/* @path's physical form (symbolic links resolved), NULL when it has none */
static char *
physical(const char *path)
{
	char *p = path ? realpath(path, NULL) : NULL;
	char *r = g_strdup(p);

	free(p);
	return r;
}

/*
 * The folder a git started here reads a relative alternate from: it
 * moves to the work tree's top when here is inside it (setup.c), else
 * stays here. Physical, as git's getcwd() and realpath() see them.
 */
static char *
git_workdir(void)
{
	const char *const top_arg[] = {"--show-toplevel", NULL};
	g_autofree char *here = physical("."), *top = NULL;
	const struct gitenv_repo *r;

	if (gitenv_says_where()) {
		r = gitenv_repo();
		top = physical(r ? r->top : NULL);
	} else {
		g_auto(GStrv) l = rev_parse(top_arg);

		top = physical(l && absolute_lines(l, 1) ? l[0] : NULL);
	}
	if (here && top && lore_path_at_or_under(here, top))
		return g_steal_pointer(&top);
	return g_steal_pointer(&here);
}

/* GIT_ALTERNATE_OBJECT_DIRECTORIES with its relative entries made
 * absolute, found at the first call; NULL when none is relative */
static const char *
alternates(void)
{
	static gsize once;
	static char *alt;

	if (g_once_init_enter(&once)) {
		const char *v = g_getenv(ALT_VAR);

		if (gitalt_relative(v)) {
			g_autofree char *base = git_workdir();

			alt = gitalt_absolute(v, base);
		}
		g_once_init_leave(&once, 1);
	}
	return alt;
}

char **
gitenv_child(const char *dir)
{
	g_autofree char *top = NULL, *gitdir = NULL;
	const char *alt = alternates();
	char **env;

	if (place_of(dir, &top, &gitdir))
		env = place_env(top, gitdir);
	/* a ceiling alone (set for good in many a shell's profile) changes
	 * nothing for a git that finds the same repository */
	else if (any_set(PATH))
		env = user_env();
	else
		env = NULL;
	/* the same objects for a git in any folder, a place's too */
	if (alt)
		env = g_environ_setenv(env ? env : g_get_environ(), ALT_VAR,
				       alt, TRUE);
	return env;
}
