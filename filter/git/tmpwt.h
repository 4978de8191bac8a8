/*
 * tmpwt.h - the temporary folders and worktrees of the git steps (apply.h,
 * rangediff.h): made with their owner's name on them, removed whole, and
 * what a killed run left behind removed by a later run once its owner is
 * gone. A folder is "lore-am-apply-PID-XXXXXX" (or -interdiff-) in the
 * temporary folder, holding an "owner" file; its worktree is registered
 * in the user's repository locked, with the same owner line as the lock's
 * reason, so that neither git's own pruning nor another run takes a live
 * run's worktree. While the folder exists it is watched (core/gitwait.h):
 * a git running in it when it is removed is stopped.
 *
 * Ownership: a struct tmpwt owns its two strings; tmpwt_remove() removes
 * what they name and frees them.
 */
#ifndef LORE_TMPWT_H
#define LORE_TMPWT_H

#include <glib.h>

struct tmpwt {
	char *dir;  /* the folder made for this run */
	char *path; /* dir/worktree once registered, else NULL */
};

/*
 * A folder of our naming for this process, "lore-am-@kind-PID-XXXXXX",
 * with its owner file: the path (g_free), or NULL with @err set.
 */
char *tmpwt_make_dir(const char *kind, GError **err);

/*
 * A worktree of the repository in the current folder, detached at
 * @commit and nothing checked out, in a new "apply" folder; signals are
 * held while git registers it (gitrun_hold()). A lore_status, @err says
 * why; on failure nothing is left and @w needs no tmpwt_remove().
 */
int tmpwt_add(struct tmpwt *w, const char *commit, GError **err);

/* Remove the worktree (its record, and an am stopped in it) and the
 * folder, whatever state they are in; signals are held meanwhile. */
void tmpwt_remove(struct tmpwt *w);

/*
 * Remove what killed runs left: with @repo, the worktrees of our naming
 * registered in the current repository, and in any case the folders of
 * our naming in the temporary folder, whose owner is gone (its pid not
 * alive, or alive but started at another time, or this host rebooted
 * since; a folder without an owner file is judged by the pid in its name,
 * or, named by an older version without one, by an age of an hour). An
 * owner on another host is left alone. One note on stderr per removal.
 */
void tmpwt_sweep(gboolean repo);

/*
 * The argv words ("-c" and a value each) that go before "am" in a
 * temporary worktree's `git am`, so that it takes no lock of the user's
 * repository: no `git maintenance run --auto` after it (a trial's commits
 * are few, and a Ctrl-C in git's window between creating the shared
 * objects/maintenance.lock and setting up its removal would leave that
 * lock, the user's own auto maintenance then skipped for good), and no
 * wait for the ref lock tmpwt_fence() holds.
 */
#define TMPWT_AM_CONFIG                                                        \
	"-c", "maintenance.auto=false", "-c", "core.filesRefLockTimeout=0"

/*
 * Make the worktree whose own git folder is @gitdir take no lock shared
 * with the user's repository when a `git am` runs there: git am deletes
 * REBASE_HEAD as it starts and as it ends, and git's files backend takes
 * the repository's packed-refs.lock for every deletion, in a window where
 * a signal leaves it for good. REBASE_HEAD.lock, made here in @gitdir (the
 * worktree's own, removed with it), makes each deletion fail before that
 * lock is taken (am goes on). FALSE when it cannot be made.
 */
gboolean tmpwt_fence(const char *gitdir);

/* git am's stderr @e without what tmpwt_fence() makes it say, so that
 * gitrun_reason() finds git's own reason (a new GString). */
GString *tmpwt_am_errors(const GString *e);

/* Whether the owner line @owner ("lore-am PID START BOOT HOST") names a
 * process that is gone; FALSE when it cannot tell (another host). */
gboolean tmpwt_owner_gone(const char *owner);

#endif
