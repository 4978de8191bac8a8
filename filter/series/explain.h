/*
 * explain.h - --explain: why the series stage chose this revision and
 * these patches, said from what it decided (series.h), with the other
 * candidates and the option that takes each. For a user to whom the tool
 * "silently picked something else".
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_EXPLAIN_H
#define LORE_EXPLAIN_H

#include "series/series.h"

/*
 * Print on stderr the choice of @ser among the revisions of @s (@asked:
 * the -v the user gave, 0 for none), how its revision and slots were
 * told, the other revisions and the option for each, and the mails with
 * a diff that are in no revision.
 */
void explain_series(struct series_set *s, struct series *ser, int asked);

#endif
