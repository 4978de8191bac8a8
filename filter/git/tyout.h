/*
 * tyout.h - where a thank-you mail goes: a NAME.thanks file in a folder
 * (b4 ty's default, for git send-email to send them all), a maildir (to
 * edit and send from the mail client), or out now through `git
 * send-email`, which reads the sendemail.* configuration (an SMTP server,
 * or a sendmail-like program as sendemail.smtpServer, else sendmail).
 * Each is whole or not there: a file is written to a temporary name and
 * renamed, a maildir message linked from tmp/.
 *
 * Ownership: every function borrows its arguments; a path returned is
 * the caller's (g_free).
 */
#ifndef LORE_TYOUT_H
#define LORE_TYOUT_H

#include <glib.h>

/*
 * Write @msg as @dir/@slug.thanks (@dir made when missing), or as
 * @slug.N.thanks when that name is taken: an earlier thanks is never
 * replaced. The path written, or NULL with @err.
 */
char *tyout_file(const char *dir, const char *slug, const GString *msg,
		 GError **err);

/* TRUE when @dir holds a .thanks file (b4 then refuses to write more). */
gboolean tyout_stale(const char *dir);

/* Deliver @msg into the maildir @dir (made when missing), flagged seen
 * with @seen. FALSE with @err. */
gboolean tyout_maildir(const char *dir, const GString *msg, gboolean seen,
		       GError **err);

/*
 * Send @msg with `git send-email` from the repository in the current
 * folder, as @from, with the sendemail identity @identity (or NULL):
 * FALSE with @err (git send-email's last line) when it did not send.
 */
gboolean tyout_send(const GString *msg, const char *from, const char *identity,
		    GError **err);

#endif
