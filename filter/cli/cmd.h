/*
 * cmd.h - lore-am's commands, as notmuch has its commands: main.c parses
 * the options into a struct cli and picks one command; each command's
 * file checks the options it takes and starts its run (run.c does the
 * work they share). The am job is the default; --thread, --passthrough,
 * --apply and --range-diff pick the others, and so do b4's words
 * (b4words.c).
 *
 * Ownership: every function borrows @c, and may change it (a b4 word or
 * -v folded into the options main.c's table fills).
 */
#ifndef LORE_CMD_H
#define LORE_CMD_H

#include "cli/cli.h"

struct cmd {
	const char *name; /* as messages name it */
	/* its option checks, before any input is read: a lore_status,
	 * reported */
	int (*check)(struct cli *c);
	/* the run, after main.c's setup: a lore_status, reported (with
	 * --passthrough: 0 unless the mail could not be copied) */
	int (*run)(struct cli *c);
};

extern const struct cmd cmd_am;		 /* cmd_am.c: the default */
extern const struct cmd cmd_thread;	 /* cmd_thread.c: --thread */
extern const struct cmd cmd_passthrough; /* cmd_passthrough.c */
extern const struct cmd cmd_apply;	 /* cmd_apply.c: --apply[=MODE] */
extern const struct cmd cmd_rangediff;	 /* cmd_rangediff.c */
extern const struct cmd cmd_pr;		 /* cmd_pr.c: the word pr */
extern const struct cmd cmd_dig;	 /* cmd_dig.c: the word dig */
extern const struct cmd cmd_ty;		 /* cmd_ty.c: the word ty */
extern const struct cmd cmd_refetch;	 /* refetch.c: mbox -r MBOX */

/* `lore-am queue ...` (cmd_queue.c): @argv from the word "queue" on, its
 * own options. A lore_status, reported. */
int cmd_queue_main(int argc, char **argv);

/* The command the options ask for. */
const struct cmd *cmd_pick(const struct cli *c);

/*
 * The checks every command shares, before its own (cmd_am.c): contra-
 * dictions, -o -, -n NAME, -v folded into --range-diff, no input at all.
 */
int cmd_common_check(struct cli *c);

/*
 * b4's words and letters in @argv made lore-am's before @table reads them
 * (b4words.c): a new vector in *@out (g_strfreev), even on failure; a
 * lore_status, reported (a b4 word lore-am does not do).
 */
int cmd_b4_argv(const GOptionEntry *table, int argc, char **argv, char ***out);

/* --passthrough anywhere before "--": a mail filter, which delivers the
 * mail even when its options are wrong (cmd_passthrough.c). */
gboolean cmd_passthrough_asked(int argc, char **argv);

/* The mail filter's copy after a usage error (@rc): the mail still goes
 * out. Returns the exit status. */
int cmd_passthrough_refused(struct cli *c, int rc);

/*
 * --range-diff's revisions from -v (b4 diff's): -v N, -v OLD NEW or -v
 * OLD..NEW, folded into c->range_diff (cmd_rangediff.c).
 */
int cmd_rangediff_fold(struct cli *c);

/*
 * --thread's option checks (cmd_thread.c); --maildir and --append set
 * c->thread. Every command runs them: --seen alone is refused too.
 */
int cmd_thread_check(struct cli *c);

#endif
