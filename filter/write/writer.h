/*
 * writer.h - where the output goes: an mbox on stdout (git am's own mbox
 * flavour by default, mboxrd with --mboxrd), or files in an output folder
 * named as b4 names them. Files are written to a temporary name in the same
 * folder and renamed into place, so a reader never sees half a file and a
 * failed write leaves the old file as it was.
 *
 * Ownership: the caller owns every buffer passed in.
 */
#ifndef LORE_WRITER_H
#define LORE_WRITER_H

#include <glib.h>

#include "series/series.h"

/* Append one message to an mbox under construction. */
void writer_mbox_add(GString *mbox, const char *msg, gboolean mboxrd);

/* Write all of @data to stdout; FALSE and @err on failure. */
gboolean writer_stdout(const GString *data, GError **err);

/* Atomically replace @path with @data (creating @path's folder); a file
 * that already holds exactly @data is left as it is (writer_files too). */
gboolean writer_file(const char *path, const GString *data, GError **err);

/*
 * The same for @n files at once: all are written to temporary files and
 * synced before any is renamed into place, so a full disk leaves every old
 * file as it was, never a new .mbx beside an old .cover.
 */
gboolean writer_files(const char *const *paths, const GString *const *data,
		      guint n, GError **err);

/*
 * b4's file name stem: "[vN_]YYYYMMDD_<sender-localpart>_<subject-slug>",
 * reduced to letters, digits and '_', at most 100 characters.
 */
char *writer_slug(struct series *ser);

/* b4's branch name stem: "[vN_]YYYYMMDD_<sender-address-slug>". */
char *writer_branch_slug(struct series *ser);

/* Does any line of @msg look like a From_ line to git mailsplit? */
gboolean writer_has_from_line(const char *msg);

#endif
