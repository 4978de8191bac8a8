/*
 * runopts.h - turning the command line (cli.h) and git config into each
 * stage's options: run.c's, and those of a command that runs a stage
 * itself (cmd_pr.c's -e).
 *
 * Ownership: the option structs are the caller's; runopts_am() fills one
 * with strings runopts_am_clear() frees; runopts_lore() fills a struct
 * lore_opts that lore_opts_clear() frees.
 */
#ifndef LORE_RUNOPTS_H
#define LORE_RUNOPTS_H

#include <glib.h>

#include "write/amjob.h"
#include "cli/cli.h"
#include "core/config.h"
#include "source/gather.h"
#include "source/lore.h"

/* The am job's options (the trailers stage's among them). */
void runopts_am(struct amjob_opts *o, const struct cli *c, struct config *cfg);
void runopts_am_clear(struct amjob_opts *o);
/* lore-am.gate into @o->gate.policy: LORE_EUSAGE, said, when not valid. */
int runopts_gate(struct amjob_opts *o, const struct cli *c, struct config *cfg);

/* The thread's rule among copies of one Message-ID (copyrank.h):
 * lore-am.listid-preference, else b4.listid-preference. */
void runopts_thread(struct config *cfg);

/* LORE_AM_LOCK_TIMEOUT, or the default; FALSE when it is not a number. */
gboolean runopts_lock_timeout(guint *secs);

/* The archive's settings: git config, then -L and --fallback. A
 * lore_status, reported. */
int runopts_lore(struct lore_opts *lo, const struct cli *c, struct config *cfg);

/* --source, else lore-am.source, else auto; -N forces notmuch. A
 * lore_status, reported. */
int runopts_mode(const struct cli *c, struct config *cfg,
		 enum gather_mode *mode);

#endif
