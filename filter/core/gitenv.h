/*
 * gitenv.h - which git, and with which environment, every git child runs
 * (gitrun.c and gitbound.c ask here; no caller decides it).
 *
 * git's own variables that say where the repository, its index or its
 * work tree are (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_COMMON_DIR,
 * GIT_OBJECT_DIRECTORY, GIT_CEILING_DIRECTORIES, ...) are set when
 * lore-am runs from a git hook or a maintainer's script. They name the
 * user's repository: git finds it once honouring them (gitenv_repo()),
 * and every git run on it gets them back as the absolute paths git found
 * (a child started elsewhere with -C would read a relative one from
 * there). A folder lore-am made for itself (a temporary worktree, a git
 * folder of its own, a scratch folder) is declared a place
 * (gitenv_place_add()): a git run in it or below gets none of those
 * variables, only, when the place has a git folder, its own GIT_DIR,
 * GIT_WORK_TREE and GIT_INDEX_FILE; it shares the user's objects
 * (GIT_OBJECT_DIRECTORY, made absolute, and the alternates stay).
 *
 * A relative entry of GIT_ALTERNATE_OBJECT_DIRECTORIES is read by git
 * from the folder it works in (the work tree's top when started inside
 * it, else where it started): every git child, in a place or not, gets
 * the entries made absolute as a git started here would read them
 * (core/gitalt.h), found once a run.
 *
 * git itself is looked up in PATH once a run (the PATH lore-am was
 * started with) and started by its full path: no failed execve(2) in
 * each folder before git's. GIT_EXEC_PATH and the rest of the
 * environment go to git as they are.
 *
 * Ownership: the places are copied; gitenv_git() and gitenv_repo()
 * return the module's own (never freed); gitenv_child()'s array is the
 * caller's (g_strfreev). All of it may be called from any thread.
 */
#ifndef LORE_GITENV_H
#define LORE_GITENV_H

#include <glib.h>

/* git's full path, found in PATH at the first call; NULL when PATH has
 * no git (the caller then lets the spawn say so). */
const char *gitenv_git(void);

/* Whether one of git's variables that say where the repository, index
 * or work tree are is set. */
gboolean gitenv_says_where(void);

/* Whether one is set that changes which repository (and so which
 * configuration file) git finds from the current folder: GIT_DIR,
 * GIT_COMMON_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES,
 * GIT_DISCOVERY_ACROSS_FILESYSTEM (for gitconfig.c). */
gboolean gitenv_finds_elsewhere(void);

/* The user's repository as git finds it from the current folder with
 * those variables, each an absolute path (NULL when git did not say). */
struct gitenv_repo {
	char *gitdir;  /* git rev-parse --absolute-git-dir */
	char *top;     /* the work tree's top, NULL for none (bare) */
	char *index;   /* the index git uses (GIT_INDEX_FILE when set) */
	char *common;  /* the common git folder */
	char *objects; /* the object folder (GIT_OBJECT_DIRECTORY) */
};

/* Found at the first call (one or two `git rev-parse`); NULL when none
 * of the variables is set (git finds the repository as usual) or git
 * finds no repository. */
const struct gitenv_repo *gitenv_repo(void);

/*
 * @dir (absolute, made by lore-am) is a place of its own: a git run in it
 * or in a folder below gets the environment above, with GIT_DIR=@gitdir,
 * GIT_WORK_TREE=@dir and GIT_INDEX_FILE=@gitdir/index when @gitdir is
 * given (NULL: git finds the repository from @dir's .git, if any). The
 * innermost place holding a folder is the one that counts.
 */
void gitenv_place_add(const char *dir, const char *gitdir);
void gitenv_place_remove(const char *dir);

/*
 * The environment for a git (or any program) started in @dir (NULL: the
 * current folder): NULL when it is ours unchanged, else a new array
 * (g_strfreev). The user's repository's variables made absolute for a
 * folder that is no place, the place's own for a place.
 */
char **gitenv_child(const char *dir);

#endif
