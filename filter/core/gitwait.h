/*
 * gitwait.h - how lore-am waits for a program it started (gitrun.c,
 * gitbound.c), so that nothing is left running or waited for without end.
 *
 * A child dies with lore-am: it asks the kernel for SIGTERM when the
 * thread that started it exits (PR_SET_PDEATHSIG), lore-am killed with
 * SIGKILL included; git removes its lock files on SIGTERM. A child
 * started while gitrun_hold() holds the signals keeps SIGTERM blocked:
 * that step (moving the user's branch) still happens whole.
 *
 * A folder lore-am made for itself (a temporary worktree's folder,
 * gitwait_watch()) is watched while a child runs in it or below: when the
 * folder is removed under it (its last link gone: a test's scratch folder
 * removed, a cleaner of the temporary folder), git cannot finish there and
 * may not end at all, so it is stopped (SIGTERM, then SIGKILL after a
 * grace) and the wait fails with one line naming the folder. There is no
 * bound on time: a git step on a large tree may take minutes.
 *
 * A child must be waited for by the thread that started it (the kernel
 * signals it when that thread ends); the --check workers do so.
 *
 * Ownership: the watched folders' paths are copied; all of it may be
 * called from any thread.
 */
#ifndef LORE_GITWAIT_H
#define LORE_GITWAIT_H

#include <glib.h>

/* The child_setup function of g_spawn_*(), @parent being
 * GINT_TO_POINTER(getpid()) of the parent: the child dies with it. */
void gitwait_child_setup(gpointer parent);

/* Watch @dir (absolute) for the children started in it or below, until
 * gitwait_unwatch(@dir); FALSE when it cannot be opened. */
gboolean gitwait_watch(const char *dir);
void gitwait_unwatch(const char *dir);

/*
 * Wait for @pid, started in @dir (NULL: the current folder, never
 * watched), named @what in messages ("git am"). Returns its wait status
 * (as waitpid gives it), or -1 with @err set when it could not be waited
 * for or was stopped because its watched folder was removed.
 */
int gitwait_child(GPid pid, const char *dir, const char *what, GError **err);

/* Whether @dir (NULL: never) is in a watched folder already removed:
 * TRUE with @err set (and noted for gitwait_lost()), nothing to start
 * there; @what names the program that was to run. */
gboolean gitwait_gone(const char *dir, const char *what, GError **err);

/* Whether a child was stopped, or not started, so in this process: the first
 * such stop's message (the module's, never freed), NULL for none. The stage
 * then stops as when interrupted: nothing is tried again in another folder. */
const char *gitwait_lost(void);

#endif
