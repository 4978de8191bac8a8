/*
 * gitrun.h - run git (never through a shell: an argv array) and capture
 * what it says. The steps after the writer (git/) drive git with it:
 * worktree, am, merge, range-diff, cat-file --batch-check. git is started
 * by the full path gitenv.h found once, with the environment gitenv.h
 * gives for the folder it runs in (none of the user's GIT_DIR,
 * GIT_INDEX_FILE... in a temporary worktree of lore-am's own).
 *
 * Ownership: the caller owns @out and @errout (GStrings it made); gitrun
 * borrows @argv and @input for the duration of the call.
 */
#ifndef LORE_GITRUN_H
#define LORE_GITRUN_H

#include <glib.h>

/*
 * Run "git -C @dir @argv..." (@dir NULL: the current folder) with @input
 * (@inlen bytes, NULL for none: /dev/null) on its stdin; its stdout is
 * appended to @out and its stderr to @errout (either may be NULL to let it
 * through to ours). Returns git's exit status (0 success), or -1 with
 * @err set when git could not be started or was killed by a signal.
 */
int gitrun(const char *dir, const char *const *argv, const char *input,
	   gsize inlen, GString *out, GString *errout, GError **err);

/* A descriptor to read @input from (@inlen bytes, from the start of a
 * nameless temporary file), /dev/null for NULL; -1 with @err set. */
int gitrun_input_fd(const char *input, gsize inlen, GError **err);

/*
 * Bounds for gitrun_bounded(): at most @timeout seconds (0: none), then
 * the program's whole process group is killed (SIGKILL), and at most
 * @keep bytes of its output kept, the rest read and counted.
 */
struct gitrun_bound {
	guint timeout;
	gsize keep;
	gboolean timed_out; /* out: killed at the time bound */
	guint64 cut;	    /* out: bytes of output not kept */
	GString *errout;    /* in: NULL, stderr joins stdout in @out; else
			       stderr apart, its first @keep bytes here: for
			       git's own commands, whose stdout is parsed
			       and whose stderr is a few lines */
};

/*
 * Any program (@argv[0] looked up in PATH, git by gitenv.h's path, run in
 * @cwd, NULL: the current folder; the per-patch check command) within @b: it
 * runs in a process group of its own, its stdout and stderr both read from one
 * pipe into @out as it writes them (nothing goes to a file; with @b->errout,
 * stderr goes to a nameless temporary file, read after). Returns its exit
 * status, or -1 with @err set when it could not be started, was killed by a
 * signal, hit the time bound (@b->timed_out) or lore-am was interrupted (a
 * guarded signal, gitrun_guard(): the group is killed then too).
 */
int gitrun_bounded(const char *cwd, const char *const *argv, const char *input,
		   gsize inlen, GString *out, struct gitrun_bound *b,
		   GError **err);

/* The same, with git's output let through to our stderr (a terminal sees
 * git's colors and progress) and stdin ours: for `git merge --edit`. */
int gitrun_tty(const char *dir, const char *const *argv, GError **err);

/*
 * SIGINT, SIGTERM and SIGHUP only set a flag while a stage that must clean
 * up (temporary worktrees) runs; the stage asks gitrun_interrupted()
 * between steps. gitrun_unguard() restores the previous handlers; the
 * calls nest (only the outermost pair changes the handlers).
 */
void gitrun_guard(void);
void gitrun_unguard(void);
gboolean gitrun_interrupted(void);
/* The guarded signal that came (SIGINT...), 0 when none did. */
int gitrun_signal(void);

/*
 * One step that must happen whole or not at all (moving the user's
 * branch): gitrun_hold() blocks SIGINT, SIGTERM and SIGHUP in lore-am and
 * in every program it starts until gitrun_release() (a child inherits the
 * blocked mask across exec, and git keeps it for its hooks and editor), so
 * a Ctrl-C sent to the whole process group reaches none of them in the
 * middle; once released, a signal that came meanwhile is delivered (to the
 * guard's flag). Call both inside gitrun_guard(); the calls nest.
 */
void gitrun_hold(void);
void gitrun_release(void);

/* The first line of @s without its trailing white space (g_free). */
char *gitrun_first_line(const char *s);
/* "git -C @dir @argv..." (@dir NULL: here) and the first line of what
 * it printed (g_free); NULL when it failed or printed nothing. */
char *gitrun_line(const char *dir, const char *const *argv);

/* git's own words in its stderr @e: the first "error:"/"fatal:" line,
 * else the first line that is not blank, terminal-safe (g_free). */
char *gitrun_reason(const GString *e);

#endif
