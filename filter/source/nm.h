/*
 * nm.h - the local notmuch database as a thread source: opened read-only
 * through libnotmuch (NOTMUCH_CONFIG, NOTMUCH_DATABASE and NOTMUCH_PROFILE
 * honoured as notmuch itself does), the target's thread looked up by id,
 * and each message read from one of its files (gzip-compressed ones too).
 *
 * Ownership: source_notmuch_new() returns a struct source (source.h) that
 * owns its database handle; source_free() closes it. Messages go to the
 * thread, which owns them.
 */
#ifndef LORE_NM_H
#define LORE_NM_H

#include <glib.h>

#include "source/source.h"

/* Was lore-am built with libnotmuch? */
gboolean nm_compiled_in(void);

/*
 * A source that asks the notmuch database. Nothing is opened until the
 * first fetch. The fetch adds every message of the thread holding @msgid;
 * when @msgid itself is unknown to notmuch but the thread already holds it
 * (piped on stdin), the threads of the ids it replies to are used instead.
 * A Xapian error while opening or reading (the database being rewritten by
 * a writer) is retried for @retry_ms milliseconds before SOURCE_ERROR_BUSY;
 * no notmuch set-up to ask is SOURCE_ERROR_UNAVAILABLE.
 */
struct source *source_notmuch_new(guint retry_ms);

/* Where the database was found, once a fetch opened it (else NULL). */
const char *nm_database_path(struct source *src);

#endif
