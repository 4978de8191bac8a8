/*
 * json.h - JSON text written by hand, for the few files lore-am writes in
 * JSON (b4's tracking file, `lore-am queue --format=json`): a string
 * escaped as RFC 8259 says. GLib has no JSON writer of its own.
 *
 * Ownership: the GString is the caller's.
 */
#ifndef LORE_JSON_H
#define LORE_JSON_H

#include <glib.h>

/* @s (NULL: "") as a JSON string, quotes included, appended to @j:
 * '"', '\\' and every control character escaped; other bytes (UTF-8)
 * as they are. */
void json_str(GString *j, const char *s);

#endif
