/*
 * passthrough.h - lore-am as a mail filter (--passthrough): the incoming
 * message is copied from stdin to stdout byte for byte, optionally with one
 * "X-Lore-Am:" header put first in its header block, while the series work
 * writes the am-ready mbox into a folder. Whatever the series work does, the
 * mail comes out as it went in; only a failure to copy it is an error.
 *
 * The X-Lore-Am value is a list of "key=value" items joined by "; ":
 *   status=complete|incomplete|none|error  (always first)
 *   revision=N; patches=HAVE/TOTAL         (when a series was found)
 *   missing=I,J,...                        (when patches are missing)
 *   series=STEM                            (the NAME of NAME.mbx)
 *   code=N                                 (with status=error: the exit
 *                                           status lore-am would have given)
 *   state=STATE; reviews=N,N,...           (the queue's state of the mail's
 *                                           own revision, queue.h, and the
 *                                           Reviewed/Acked/Tested-by count
 *                                           of each of its patches)
 *   attestation=...                        (attest_outcome(); always last)
 *
 * Ownership: struct passthrough owns what it read; passthrough_clear()
 * frees it. Strings returned are the caller's (g_free).
 */
#ifndef LORE_PASSTHROUGH_H
#define LORE_PASSTHROUGH_H

#include <glib.h>
#include <stddef.h>

#include "queue/queue.h"
#include "write/amjob.h"

/* Messages larger than this are copied through without the series work. */
#define PASSTHROUGH_MAX ((size_t)64 << 20)

struct passthrough {
	GByteArray *buf;  /* the first bytes of stdin (all of it when eof) */
	gboolean eof;	  /* buf holds the whole input */
	int in_fd;	  /* where the rest comes from when !eof */
	gboolean is_mail; /* the input starts with a header field */
	size_t hdr_off;	  /* where a header goes: after a From_ line, or 0 */
	gboolean crlf;	  /* the first header line ends in CRLF */
};

/*
 * Read from @fd until end of input or @max bytes. FALSE and @err when a
 * read fails (what was read stays in @pt and is still written out).
 */
gboolean passthrough_read(struct passthrough *pt, int fd, size_t max,
			  GError **err);

/*
 * The X-Lore-Am value for a series job that returned @rc (a lore_status)
 * with result @r (may be NULL when the job did not run), and what the
 * queue recorded of the mail @q (may be NULL).
 */
char *passthrough_status(const struct amjob_result *r, int rc,
			 const struct queue_seen *q);

/*
 * Write the input to @out_fd unchanged, with "X-Lore-Am: @status" first in
 * its header block when @status is not NULL and the input is mail; the
 * part not read yet is copied from the input as it comes. FALSE and @err
 * when a read or a write fails.
 */
gboolean passthrough_write(struct passthrough *pt, int out_fd,
			   const char *status, GError **err);

void passthrough_clear(struct passthrough *pt);

#endif
