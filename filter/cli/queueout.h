/*
 * queueout.h - `lore-am queue`'s output: one line a series, the same as
 * JSON, or one series in full for a pager (the mail clients' key). Text
 * from mail (subjects, addresses) is made terminal-safe.
 *
 * Ownership: everything is borrowed.
 */
#ifndef LORE_QUEUEOUT_H
#define LORE_QUEUEOUT_H

#include "queue/queue.h"

#include <stdio.h>

/* @rows: struct queue_series *; @now: seconds since the epoch, for ages */
void queueout_text(GPtrArray *rows, gint64 now, FILE *out);
void queueout_json(GPtrArray *rows, gint64 now, FILE *out);
void queueout_show(const struct queue_series *s, FILE *out);

#endif
