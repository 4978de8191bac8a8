/*
 * queuetag.h - the queue's state as notmuch tags: every message of a
 * series tagged with its revision's state (lore-am/new, lore-am/complete,
 * ..., lore-am/rejected; `notmuch config set lore-am.tag-STATE NAME`, else
 * git config lore-am.tag-STATE, renames one, "-" leaves it untagged), the
 * other states' tags taken away. The notmuch hook asks for it after each
 * `notmuch new` (`lore-am queue --tag`); --apply, `lore-am queue --set`
 * and the applied scan right after they mark a series, so that the tags
 * move at once, not on the series' next mail.
 */
#ifndef LORE_QUEUETAG_H
#define LORE_QUEUETAG_H

#include <glib.h>

#include "core/config.h"

/*
 * The series of each Message-ID of @ids (char *) as the queue has them,
 * tagged in the notmuch database notmuch's own configuration names
 * (NOTMUCH_CONFIG, NOTMUCH_PROFILE): a message notmuch does not have is
 * left out, one whose tags are right is not written. Without notmuch
 * (no library, no configuration, no database) nothing is done. FALSE
 * when the database or the queue could not be used: said in one warning
 * line, never more.
 */
gboolean queuetag_move(struct config *cfg, GPtrArray *ids);

#endif
