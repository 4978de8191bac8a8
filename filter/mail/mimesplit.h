/*
 * mimesplit.h - MIME structure read by hand where it is plain: a
 * Content-Type value in its common forms, and one level of multipart whose
 * boundary lines and part headers are clean. Anything odder is left to
 * GMime's parser (msgbody.c), which these never second-guess: they only
 * say "plain, and here it is" or "not plain".
 *
 * Ownership: spans point into the caller's buffers; the strings a struct
 * mime_ctype holds are its own (mime_ctype_clear).
 */
#ifndef LORE_MIMESPLIT_H
#define LORE_MIMESPLIT_H

#include <glib.h>
#include "mail/gmimelib.h" /* GMime, loaded on first use */

struct mime_ctype {
	const char *type, *sub; /* spans into the value read */
	size_t tlen, slen;
	char *charset;	      /* the charset parameter, or NULL */
	char *boundary;	      /* the boundary parameter, or NULL */
	gboolean flowed_word; /* "format=" is somewhere in the value */
};

/*
 * Read @v, a Content-Type value, in the common forms: "type/subtype" and
 * simple parameters ("; name=token" or "; name=\"plain text\""). FALSE,
 * with nothing held, for anything else (comments, RFC 2231 or RFC 2047
 * parameters, escapes, a repeated charset or boundary).
 */
gboolean mime_ctype_simple(const char *v, struct mime_ctype *ct);
void mime_ctype_clear(struct mime_ctype *ct);

/* The first @w in @s, in any ASCII case (strcasestr() follows the
 * locale's case rules); NULL when there is none. @w is not empty. */
const char *mime_find_ci(const char *s, const char *w);

/* Is [p, p+n) @name (in lower case), ignoring case? */
gboolean mime_word_is(const char *p, size_t n, const char *name);

/* One leaf of a multipart split by hand. */
struct mime_leaf {
	char *ctype;	  /* its Content-Type value, one line (g_free) */
	const char *data; /* its content, still transfer-encoded */
	size_t len;
	GMimeContentEncoding enc;
};

/*
 * Split the multipart body [@body, @body+@n) (LF line ends) at the lines
 * "--@boundary" into its parts, as GMime's parser would give them, when
 * it is plain: @boundary is 1 to 70 of RFC 2046's characters without its
 * space, every line that starts with "--@boundary" is exactly that
 * or the closing "--@boundary--", which comes once and last; each part
 * has header lines "Name: value" without folding or NUL, one Content-Type
 * (not multipart or message/), at most one Content-Transfer-Encoding of
 * 7bit, 8bit, binary, base64 or quoted-printable, and a blank line after
 * them.
 * Returns the leaves (struct mime_leaf, freed with the array), or NULL
 * when anything is not plain.
 */
GArray *mime_split_simple(const char *body, size_t n, const char *boundary);

/* Does [@raw, @raw+@len) nest more multiparts than a patch mail ever
 * does? (message_mime_too_deep(), message.h) */
gboolean mime_too_deep(const char *raw, size_t len);

#endif
