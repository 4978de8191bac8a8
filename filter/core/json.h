/*
 * json.h - JSON text (RFC 8259) built in a GString from strings that come
 * from mail: whatever bytes a string holds (quotes, backslashes, control
 * characters, invalid UTF-8, U+2028/U+2029), the result is valid JSON
 * and valid UTF-8, so that a bot's parser never stops on a hostile
 * subject.
 *
 * Ownership: the GString is the caller's; nothing is kept.
 */
#ifndef LORE_JSON_H
#define LORE_JSON_H

#include <glib.h>

/* @s (NULL: null) as a JSON string, quotes included: '"' and '\' escaped,
 * the C0 controls, DEL and U+2028/U+2029 as \uXXXX, each byte that is no
 * part of valid UTF-8 as U+FFFD. At most @len bytes, -1: up to its NUL. */
void json_str(GString *j, const char *s, gssize len);

/* "KEY": @s, with a ',' before it unless @j ends in '{' or '['. */
void json_kv(GString *j, const char *key, const char *s);
/* "KEY": N */
void json_kv_int(GString *j, const char *key, gint64 n);
/* "KEY": true or false */
void json_kv_bool(GString *j, const char *key, gboolean b);
/* "KEY": followed by '{' or '[' (@open), the caller closes it. */
void json_kv_open(GString *j, const char *key, char open);
/* '{' or '[' as an array's element, with its ',' when one came before. */
void json_open(GString *j, char open);

#endif
