/*
 * amsave.h - b4 am's other forms of the am-ready series, made from the
 * mbox the am job built: -M, a maildir (NAME.maildir/new/NNNN_title.eml,
 * each message as the mbox holds it), and -Q, a quilt-ready folder
 * (NAME.patches/NNNN_title.patch, each as git mailinfo reads it: From,
 * Subject and Date lines, the message and the patch, and a "series" file
 * naming them in order). Each folder is built under a temporary name and
 * renamed into place; one that exists is not replaced.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_AMSAVE_H
#define LORE_AMSAVE_H

#include <glib.h>

/* The messages of @mbox into the new maildir @dir. FALSE and @err
 * (LORE_EOUTPUT, or LORE_EUSAGE when @dir exists) on failure. */
gboolean amsave_maildir(const GString *mbox, const char *dir, GError **err);

/* The patches of @mbox into the new quilt folder @dir, with its series
 * file. FALSE and @err as amsave_maildir(). */
gboolean amsave_quilt(const GString *mbox, const char *dir, GError **err);

#endif
