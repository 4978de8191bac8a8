/*
 * msgid.h - Message-ID normalisation, done once at the edge: every id inside
 * lore-am is stored without angle brackets, without white space, as the
 * sender wrote it otherwise (RFC 5322 msg-id, public-inbox URL rules).
 *
 * All functions return newly allocated strings (g_free) or NULL when the
 * input holds no usable id.
 */
#ifndef LORE_MSGID_H
#define LORE_MSGID_H

#include <glib.h>

/*
 * A user's argument: a bare id, "<id>", "id:ID" (notmuch), or a URL of a
 * public-inbox archive ("https://lore.kernel.org/LIST/ID/", ".../r/ID",
 * "https://patch.msgid.link/ID", with or without trailing "/T/#u" and the
 * like). Percent-escapes in URLs are decoded.
 */
char *msgid_from_arg(const char *arg);

/* The first <id> of a Message-ID or In-Reply-To header value. */
char *msgid_from_header(const char *value);
/* The same of the @n bytes at @value (a field in a raw header, unfolded
 * or not: white space around an id is no part of it). */
char *msgid_from_header_len(const char *value, size_t n);

/* Every <id> of a References header value, in order (array of char *). */
GPtrArray *msgid_list(const char *value);
GPtrArray *msgid_list_len(const char *value, size_t n);

/*
 * The same two with the ids copied into @buf, the caller's, which has
 * room for @n + 1 bytes (the ids lie between brackets in @value): the id
 * in @buf or NULL; each id added to @ids (borrowed from @buf, which the
 * array must not free) and the bytes of @buf used returned. For a
 * message's one allocation (message.c).
 */
char *msgid_from_header_to(const char *value, size_t n, char *buf);
size_t msgid_list_to(const char *value, size_t n, GPtrArray *ids, char *buf);

/*
 * A GHashFunc for ids (or any string), with g_str_equal: eight bytes a
 * step where g_str_hash() takes one, as a thread's tables look up every
 * id of every References field. No more open to chosen collisions than
 * g_str_hash().
 */
guint msgid_hash(gconstpointer key);

/* TRUE when @id is acceptable: non-empty, valid UTF-8, no white space,
 * no C0/C1 control characters, no angle brackets. */
gboolean msgid_valid(const char *id);

#endif
