/*
 * gitconfig.h - the git configuration lore-am reads (sections "lore-am",
 * "b4" and "user"), taken from git's files directly when they are in the
 * plain form almost every configuration has, so that a run does not
 * spawn `git config` (a process start that cost a mail filter as much as
 * its own work). Anything outside that form, or any setting that changes
 * which files git reads, is left to git itself (config.c asks it then).
 *
 * The files and their order are git's: the system file (GIT_CONFIG_SYSTEM,
 * or the gitconfig of git's installation, none with GIT_CONFIG_NOSYSTEM),
 * the global ones (GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config then
 * ~/.gitconfig), then the repository git finds from the current folder.
 *
 * Ownership: the caller owns @vals; keys and values put there are
 * allocated with g_malloc (the table must free both).
 */
#ifndef LORE_GITCONFIG_H
#define LORE_GITCONFIG_H

#include <glib.h>

/*
 * Put every "section.key" (lower case, subsection included) of the
 * sections lore-am reads into @vals, later files and lines replacing
 * earlier ones, as `git config --get-regexp` lists them. FALSE when only
 * git can tell (include directives, quoting or escapes, a linked worktree,
 * a repository owned by someone else, GIT_CONFIG_PARAMETERS, GIT_DIR, ...):
 * @vals may then hold part of the answer and must be emptied. git is
 * looked up in PATH (once a run, gitenv_git()) only for the system file,
 * when neither GIT_CONFIG_NOSYSTEM nor GIT_CONFIG_SYSTEM names it: without
 * git on the PATH then, TRUE with nothing added (git would give nothing
 * either).
 */
gboolean gitconfig_read(GHashTable *vals);

#endif
