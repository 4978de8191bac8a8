/*
 * cte.h - the two transfer encodings a text body comes in, RFC 2045's
 * quoted-printable (6.7) and base64 (6.8), undone without GMime, byte for
 * byte as GMime 3 undoes them in one step (g_mime_encoding_flush() on the
 * whole body), broken input included: a base64 body ends at its first
 * '=' and an unfinished last quartet is dropped; a quoted-printable '='
 * not followed by two hex digits or a line end is kept with the two bytes
 * after it, and one at the very end is dropped. Most encoded mail is one
 * text part: undone here, it needs no GMime at all (mail/gmimelib.h).
 * tests/unit/test-cte.c holds the two decoders equal.
 */
#ifndef LORE_CTE_H
#define LORE_CTE_H

#include <glib.h>

/* @n bytes at @s, base64 (@qp FALSE) or quoted-printable (@qp TRUE),
 * decoded into a new NUL-terminated buffer (the caller's, g_free()), its
 * length in *@len. */
char *cte_decode(gboolean qp, const char *s, size_t n, size_t *len);

#endif
