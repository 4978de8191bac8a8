/*
 * copypick.h - which copy of a message the writer writes, decided where
 * the signatures are checked (rule 2 of copyrank.h): when the copy the
 * thread kept has no signature that holds and another copy of the same
 * standing (thread_alternates()) has one and tells the same patch (the
 * same i/N and revision, a diff when it has one), that copy is written
 * and attested instead. The thread and series stages never check
 * signatures; this is the stage that does, and it only picks among the
 * copies the thread kept.
 *
 * Ownership: everything is borrowed; @alt_e and @alt_p are the caller's
 * storage, valid while @e is.
 */
#ifndef LORE_COPYPICK_H
#define LORE_COPYPICK_H

#include "attest/attest.h"
#include "series/series.h"
#include "thread/thread.h"

/*
 * The entry to write for @e: @e itself, or @alt_e, a copy of it whose
 * patch is @alt_p, a copy of @e->p with the other copy's message. A NOTE
 * in the summary says when another copy is written. @a NULL or off: @e.
 */
const struct series_entry *
copypick_entry(struct thread *t, const struct series_entry *e, struct attest *a,
	       struct series_entry *alt_e, struct spatch *alt_p);

#endif
