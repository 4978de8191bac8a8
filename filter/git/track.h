/*
 * track.h - lore-am.track: the tracking file `b4 ty` reads to thank the
 * authors of applied series ($XDG_DATA_HOME/b4, else ~/.local/share/b4,
 * SLUG.am, b4's JSON). After --apply it holds the commits applied; on
 * a run that only writes the series (`lore-am > s.mbx && git am s.mbx`,
 * as b4 am does) it holds each patch's patchwork hash, which `b4 ty
 * --auto` looks for among the branch's commits. `lore-am pr` writes
 * b4 pr's TIP.pr for a pull request it fetched.
 * Off by default: nothing is written outside the output unless asked.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_TRACK_H
#define LORE_TRACK_H

#include "mail/message.h"
#include "thread/thread.h"

#include <glib.h>

/*
 * Write the tracking file of the series in @mbox (its cover letter
 * @cover, or NULL), applied as the commits @onto..@tip of the repository
 * in the current folder, or not applied yet when @onto is NULL (the
 * hashes then come from the patches' diffs); @t holds the original
 * messages (To, Cc, Date, References). The file's path on success
 * (g_free), else NULL with @err.
 */
char *track_write(struct thread *t, const GString *mbox, const GString *cover,
		  const char *onto, const char *tip, gboolean cherrypick,
		  GError **err);

/*
 * Write b4 pr's tracking file of the pull request @m, fetched from
 * @remote @ref with the tip @tip (a full commit id): TIP.pr in
 * track_dir(), b4's name and fields, which `b4 ty` and `lore-am ty`
 * read. A tip tracked already keeps its file (*@fresh FALSE), as b4
 * keeps it. The file's path (g_free), else NULL with @err.
 */
char *track_write_pr(struct message *m, const char *remote, const char *ref,
		     const char *tip, gboolean *fresh, GError **err);

/* The folder of the tracking files, b4's and lore-am's: $XDG_DATA_HOME/b4,
 * else ~/.local/share/b4 (g_free). */
char *track_dir(void);

/* patchwork's hash of a diff, as b4 computes it (its pwhash). */
char *track_pwhash(const char *diff, gsize len);

#endif
