/*
 * rfc2047.h - RFC 2047 encoded words ("=?utf-8?B?...?=") in header text,
 * decoded to UTF-8 by our own code: GMime 3.2 cuts a run of adjacent base64
 * words when the first ends in '=' padding ("Hello world" becomes "Hello").
 *
 * Ownership: both functions return a new string (g_free).
 */
#ifndef LORE_RFC2047_H
#define LORE_RFC2047_H

#include <glib.h>

/*
 * Decode the encoded words of @text (NUL-terminated). White space between
 * two encoded words is dropped (RFC 2047 6.2); the bytes of adjacent words
 * in one charset are joined before conversion, so a character split
 * across words survives. A malformed word is kept as written. Text outside
 * the words is copied unchanged: the result is UTF-8 only where the words
 * were; callers clean it further (lore_one_line).
 */
char *rfc2047_decode(const char *text);

/*
 * @text (UTF-8) as base64 encoded words of at most 60 characters, split
 * only between characters and separated by spaces (a header folds there).
 */
char *rfc2047_encode(const char *text);

#endif
