/*
 * attest.h - trust in what is applied: for each message written (patches
 * and cover letter), its DKIM signatures (dkimv.h) and developer
 * signatures (patatt.h) checked on the bytes as they came from the source,
 * shown in the summary the way b4 shows them ("✓ Signed: DKIM/example.org",
 * "✓ Signed: ed25519/dev@example.org", "✗ BADSIG: ...", "✗ No key: ..."),
 * and the policy applied: lore-am.attestation-policy, else
 * b4.attestation-policy. A signature that holds fails all the same when
 * the message has a second From, Subject or other field RFC 5322 allows
 * once that its h= does not cover (message_once_fields, RFC 6376 8.15).
 *
 * Ownership: struct attest is made by attest_new() and freed with
 * attest_free(); it owns its DNS cache, the DKIM library handle and the
 * patatt checker.
 */
#ifndef LORE_ATTEST_H
#define LORE_ATTEST_H

#include <glib.h>

#include "core/config.h"
#include "mail/message.h"

enum attest_policy {
	ATTEST_OFF,	 /* nothing checked, nothing shown */
	ATTEST_CHECK,	 /* shown in the summary only (-q hides it all) */
	ATTEST_SOFTFAIL, /* failures shown even with -q; the run goes on */
	ATTEST_HARDFAIL, /* a failure writes nothing: exit 1 */
};

struct attest;

/* lore-am.attestation-policy (b4.attestation-policy), softfail when
 * unset; a word that is none of the four: one line, LORE_EUSAGE. */
int attest_policy_read(struct config *cfg, enum attest_policy *out);

/*
 * Read the policy and the nameservers (LORE_AM_NAMESERVER, else
 * lore-am.nameserver, else the list lore-am.attestation-dns-resolvers or
 * b4.attestation-dns-resolvers) from @cfg; @off (--no-attestation) makes the
 * policy off, @offline means no DNS. Returns a lore_status and reports a bad
 * setting itself; *@out is NULL unless it returns LORE_OK.
 */
int attest_new(struct config *cfg, gboolean off, gboolean offline,
	       struct attest **out);
void attest_free(struct attest *a);

/*
 * Check @msg, print its lines in the summary (under @label's line, which
 * names it: the subject; printed first when @say_label, for the cover
 * letter the summary does not list), and return LORE_OK, or
 * LORE_ENOTFOUND when the policy is hardfail and a signature failed (the
 * error line is printed). @a may be NULL (off).
 */
int attest_message(struct attest *a, const struct message *msg,
		   const char *label, gboolean say_label);

/*
 * The signatures of the reply @msg that sent an added @trailer, as b4
 * marks the trailer's line: *@mark is "✓ DKIM/example.org", "✗ ed25519/
 * dev@example.org" (failures only under softfail and hardfail) or NULL
 * when nothing was signed or checked (g_free). A failure counts as a
 * patch's does: under hardfail LORE_ENOTFOUND, the error line naming
 * @trailer. A reply is checked once a run; @a may be NULL.
 */
int attest_followup(struct attest *a, const struct message *msg,
		    const char *trailer, char **mark);

/*
 * Does a signature of @msg hold (DKIM or patatt), none failing? Checked
 * as attest_message() checks, but nothing is shown and the run's outcome
 * is left as it is: for choosing among copies of one message
 * (copypick.h). FALSE when @a is NULL or off, or @msg is not signed.
 */
gboolean attest_holds(struct attest *a, const struct message *msg);

/* "pass" (some signature held, none failed), "fail" or "none". */
const char *attest_outcome(const struct attest *a);

/* Is nothing checked (NULL, or the policy off)? */
gboolean attest_off(const struct attest *a);

#endif
