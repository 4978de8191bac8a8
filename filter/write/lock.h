/*
 * lock.h - an mbox locked the way mail delivery agents and mutt lock it: a
 * "MBOX.lock" dotlock next to the file, then fcntl(2) and flock(2) locks on
 * the open file. Nothing blocks for ever: every lock is retried until a
 * deadline, so a lock held too long ends in a clear error (exit status 75).
 * A dotlock whose holder is gone (its pid, written on this host, is not
 * alive, or it is older than LOCK_STALE_AGE) is taken over, with a note on
 * stderr; the kernel locks go away with their process by themselves.
 *
 * Ownership: a struct lock is the caller's (usually on the stack); it owns
 * the open descriptor and the dotlock, which lock_release() gives back.
 */
#ifndef LORE_LOCK_H
#define LORE_LOCK_H

#include <glib.h>

struct lock {
	char *path;	  /* the mailbox */
	char *dotlock;	  /* "PATH.lock" while we hold it, else NULL */
	int fd;		  /* the mailbox, open for reading and writing */
	gboolean created; /* lock_open() made the file: it was missing */
	char *stale;	  /* what a stale dotlock we took over held, else NULL:
			     "PID\nHOST\n" and its holder's lock_note() (that
			     only when the lock was our own user's) */
};

/* A dotlock this old is stale whoever holds it (procmail waits 1024 s). */
#define LOCK_STALE_AGE (15 * 60)
#define LOCK_STALE_AGE_TEXT "15 minutes"

/*
 * Open @path (created with mode 0600 when missing) and lock it, waiting at
 * most @timeout seconds for other holders. When the folder does not let us
 * create the dotlock (no write permission, read-only file system), the
 * kernel locks alone are taken, as mail readers without a dotlock helper
 * do. Returns a lore_status: LORE_ETEMP when someone else holds a lock,
 * LORE_EIO or LORE_EUSAGE when the file cannot be opened; @err says which.
 * On failure nothing is left held and @l needs no release.
 */
int lock_open(struct lock *l, const char *path, guint timeout, GError **err);

/*
 * Write @note after the pid and host in the dotlock we hold, synced, so
 * that whoever takes over the lock after this process was killed finds it
 * in its l->stale (deliver.c notes there the append it is making). FALSE
 * when there is no dotlock (the folder is not writable) or it failed.
 */
gboolean lock_note(struct lock *l, const char *note);

/*
 * Drop the kernel locks, close the file and remove the dotlock. With
 * @discard, a file that lock_open() created is removed again (used when
 * nothing could be written to it).
 */
void lock_release(struct lock *l, gboolean discard);

#endif
