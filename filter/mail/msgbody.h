/*
 * msgbody.h - what msgbody.c (a message's body, read as git mailinfo
 * reads it) lends attsplit.c, which reads the same MIME parts to split a
 * mail of several attached patches. message_body() itself is in message.h.
 */
#ifndef LORE_MSGBODY_H
#define LORE_MSGBODY_H

#include "mail/gmimelib.h" /* GMime, loaded on first use */

/*
 * The decoded content of a leaf part, transfer encoding undone, or NULL
 * when it has none. The caller owns the array (g_byte_array_unref).
 */
GByteArray *msgbody_part_bytes(GMimePart *part);

/* For tests: every multipart body through GMime's parser, none split by
 * hand (mimesplit.h), to hold the two to the same bytes. */
extern gboolean msgbody_gmime_only;
/* The hand split on (TRUE by default; FALSE sends every multipart to
 * GMime, to compare the two). */
extern gboolean msgbody_by_hand;

#endif
