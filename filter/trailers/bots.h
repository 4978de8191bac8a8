/*
 * bots.h - the tags a bot's report asks for, held back from the patch it
 * answers. The kernel test robot and syzbot answer a patch with "if you
 * fix the issue in a separate patch/commit, kindly add following tags":
 * the Reported-by:/Closes: they offer are for that separate fix, not for
 * a new version of the patch under test, and never for this one.
 *
 * Ownership: the list of held replies hangs off struct followups (@held),
 * made on first use; bots_clear() frees it, its entries are f->sent's.
 */
#ifndef LORE_BOTS_H
#define LORE_BOTS_H

#include "trailers/followup.h"

/* Is @e's reply such a report? Then it is noted in @f (@e is borrowed
 * from f->sent, which grows no more once replies are attached) and its
 * trailers are not to be attached (the caller skips them). */
gboolean bots_hold(struct followups *f, const struct followup_sent *e);

/* The summary's lines on what was held back and why. */
void bots_report(struct followups *f);

void bots_clear(struct followups *f);

#endif
