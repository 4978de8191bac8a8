/*
 * pipesep.h - --stdin-pipe-sep SEP (b4's): several mails on standard
 * input, one after another with SEP between them (a mail client's pipe
 * of tagged messages, mutt's pipe_split and pipe_sep), read as a
 * mailbox: the thread comes from them, no other source but -m and -L.
 *
 * Ownership: the mails read go to c->stdin_mails, the struct cli's.
 */
#ifndef LORE_PIPESEP_H
#define LORE_PIPESEP_H

#include "cli/cli.h"

/* All of standard input --stdin-pipe-sep reads, at most. */
#define PIPESEP_MAX ((gsize)512 << 20)

/*
 * Read standard input, split it at c->stdin_pipe_sep (C escapes such as
 * \n decoded, as b4 decodes them) into c->stdin_mails (the pieces with
 * anything but white space, leading blank lines left out), and take b4's
 * "-m -" off c->mboxes. *@target: the argument's Message-ID, else the
 * first mail's (g_free). A lore_status, reported.
 */
int pipesep_read(struct cli *c, char **target);

#endif
