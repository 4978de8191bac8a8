/*
 * tyjson.h - the JSON of b4's tracking files (SLUG.am, SLUG.pr), read
 * back: RFC 8259 values into a small tree. The files are written by
 * another program (b4, lore-am) and may be edited or cut by anyone, so
 * the reader is bounded: at most TYJSON_MAX_BYTES of text, TYJSON_MAX_DEPTH
 * levels of nesting, strings that are valid UTF-8 without NUL.
 *
 * Ownership: tyjson_parse() returns a tree the caller frees with
 * tyjson_free(); everything reached from it (strings, children) belongs
 * to the tree and is borrowed.
 */
#ifndef LORE_TYJSON_H
#define LORE_TYJSON_H

#include <glib.h>

/* A tracking file is a few KiB; a thousand-patch series some 300 KiB. */
#define TYJSON_MAX_BYTES ((gsize)4 << 20)
#define TYJSON_MAX_DEPTH 16

enum tyjson_type {
	TYJSON_NULL,
	TYJSON_BOOL,
	TYJSON_NUMBER,
	TYJSON_STRING,
	TYJSON_ARRAY,
	TYJSON_OBJECT,
};

struct tyjson {
	enum tyjson_type type;
	char *str;	 /* STRING: the text; NUMBER: the literal */
	gboolean b;	 /* BOOL */
	GPtrArray *kids; /* ARRAY, OBJECT: struct tyjson * in order */
	GPtrArray *keys; /* OBJECT: char *, one per kid */
};

/*
 * The value @text (@len bytes) holds, NULL with @err (LORE_EUSAGE,
 * "line N: what") when it is not one JSON value or passes a bound.
 */
struct tyjson *tyjson_parse(const char *text, gsize len, GError **err);
void tyjson_free(struct tyjson *j);

/* The member @key of the object @j (the last one of that name, as
 * Python's json keeps it), NULL when @j is no object or has none. */
const struct tyjson *tyjson_get(const struct tyjson *j, const char *key);

/* @j's text when it is a string, else NULL. */
const char *tyjson_str(const struct tyjson *j);

/* The number of kids of an array, 0 for anything else. */
guint tyjson_len(const struct tyjson *j);

/* Kid @i of an array (NULL past its end or for anything else). */
const struct tyjson *tyjson_at(const struct tyjson *j, guint i);

#endif
