/*
 * dkimv.h - DKIM verification (RFC 6376) of one message's bytes as they
 * came from the source, with libopendkim (loaded on first use, like
 * libcurl: a run that checks nothing never maps it or OpenSSL) and the
 * keys looked up through dnstxt.h.
 *
 * Ownership: struct dkimv owns the library handle and borrows the dnstxt;
 * the results array dkimv_check() fills is the caller's (g_array_unref,
 * which frees each entry's strings).
 */
#ifndef LORE_DKIMV_H
#define LORE_DKIMV_H

#include <glib.h>
#include <stddef.h>

#include "attest/dnstxt.h"

enum dkimv_verdict {
	DKIMV_PASS,   /* the signature holds over the whole body */
	DKIMV_BADSIG, /* it does not (or l= leaves text unsigned) */
	DKIMV_NOKEY,  /* no key in DNS, or DNS gave no answer */
};

struct dkimv_sig {
	enum dkimv_verdict verdict;
	char *domain; /* d= as signed, terminal-safe */
	char *why;    /* a short reason for a failure, terminal-safe */
	char *hdrs;   /* h= as signed (the fields it covers), or NULL */
};

struct dkimv;

/* NULL and @err set when libopendkim cannot be loaded or set up. */
struct dkimv *dkimv_new(struct dnstxt *dns, GError **err);
void dkimv_free(struct dkimv *v);

/*
 * Check every DKIM-Signature of the @len bytes at @raw (LF or CRLF line
 * ends). A signature that holds but whose t= lies more than @max_days
 * from @date (the mail's Date, seconds since the epoch; 0 when unknown)
 * is bad: an old signature replayed, or a Date made up (b4's
 * attestation-staleness-days; @max_days 0 checks nothing). Returns an
 * array of struct dkimv_sig, empty when the message is not signed.
 */
GArray *dkimv_check(struct dkimv *v, const char *raw, size_t len, gint64 date,
		    guint max_days);

/*
 * The key record @txt with only the tags a verifier reads (v, g, h, k, p,
 * s, t; RFC 6376 3.6.1 has the others ignored, n= holds notes for
 * people), each without the white space around it, joined by ';' (g_free).
 * A record padded with notes past what libopendkim takes is given to it
 * so. Exported for the fuzz harness.
 */
char *dkimv_key_record(const char *txt);

#endif
