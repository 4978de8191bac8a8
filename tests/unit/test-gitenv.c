/* Which environment a git child gets (core/gitenv.h): in a place of
 * lore-am's own, none of git's variables that name the user's
 * repository, index or work tree, and the place's own when it has a git
 * folder; the innermost place counts; a folder that is no place keeps the
 * user's. The shell tests t9112-t9114 run the real thing. */
#include "core/gitenv.h"
#include "tap.h"

#include <stdlib.h>

static const char *
get(char **env, const char *name)
{
	return env ? g_environ_getenv(env, name) : NULL;
}

int
main(void)
{
	char **env;

	setenv("GIT_DIR", "/nowhere/u/.git", 1);
	setenv("GIT_WORK_TREE", "/nowhere/u", 1);
	setenv("GIT_INDEX_FILE", "/nowhere/other-index", 1);
	setenv("GIT_NAMESPACE", "ns", 1);
	setenv("GIT_CEILING_DIRECTORIES", "/nowhere", 1);
	setenv("GIT_PREFIX", "sub/", 1);
	setenv("GIT_CONFIG_PARAMETERS", "'a.b'='c'", 1);
	tap_ok(gitenv_says_where(), "GIT_DIR says where the repository is");
	tap_ok(gitenv_finds_elsewhere(), "and changes which one git finds");

	gitenv_place_add("/nowhere/tmp/p", "/nowhere/u/.git/worktrees/w");
	env = gitenv_child("/nowhere/tmp/p/sub");
	tap_is_str(get(env, "GIT_DIR"), "/nowhere/u/.git/worktrees/w",
		   "a place's own git folder");
	tap_is_str(get(env, "GIT_WORK_TREE"), "/nowhere/tmp/p",
		   "its own work tree, from a folder below it too");
	tap_is_str(get(env, "GIT_INDEX_FILE"),
		   "/nowhere/u/.git/worktrees/w/index", "its own index");
	tap_ok(!get(env, "GIT_NAMESPACE") &&
		   !get(env, "GIT_CEILING_DIRECTORIES") &&
		   !get(env, "GIT_PREFIX"),
	       "none of the user's other variables");
	tap_is_str(get(env, "GIT_CONFIG_PARAMETERS"), "'a.b'='c'",
		   "the user's settings stay");
	g_strfreev(env);

	gitenv_place_add("/nowhere/tmp/p/inner", NULL);
	env = gitenv_child("/nowhere/tmp/p/inner/x");
	tap_ok(env && !get(env, "GIT_DIR") && !get(env, "GIT_WORK_TREE") &&
		   !get(env, "GIT_INDEX_FILE"),
	       "the innermost place counts: no git folder named");
	g_strfreev(env);

	/* not a place: the user's (git finds no repository at
	 * /nowhere: the environment stays ours) */
	tap_ok(gitenv_child("/nowhere/tmp/pp") == NULL,
	       "a folder beside a place is no place");
	tap_ok(gitenv_child(NULL) == NULL, "nor is the current folder");
	gitenv_place_remove("/nowhere/tmp/p");
	gitenv_place_remove("/nowhere/tmp/p/inner");
	tap_ok(gitenv_child("/nowhere/tmp/p/inner") == NULL,
	       "a place removed is none");

	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_CEILING_DIRECTORIES");
	tap_ok(!gitenv_says_where() && !gitenv_finds_elsewhere(),
	       "without them nothing says where");
	gitenv_place_add("/nowhere/tmp/q", NULL);
	env = gitenv_child("/nowhere/tmp/q");
	tap_ok(env && !get(env, "GIT_NAMESPACE") && !get(env, "GIT_PREFIX"),
	       "a place without a git folder still loses GIT_NAMESPACE");
	g_strfreev(env);
	unsetenv("GIT_NAMESPACE");
	unsetenv("GIT_PREFIX");
	tap_ok(gitenv_child("/nowhere/tmp/q") == NULL,
	       "and with nothing to take away, keeps ours");
	tap_ok(gitenv_git() && g_path_is_absolute(gitenv_git()),
	       "git found by its full path");
	return tap_done();
}
