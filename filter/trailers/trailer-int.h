/*
 * trailer-int.h - what trailer.c (one trailer) and trailerfind.c (trailer
 * lines in text) share.
 */
#ifndef LORE_TRAILER_INT_H
#define LORE_TRAILER_INT_H

#include "trailers/trailer.h"

/* Is @s one of the NULL-ended @set? */
gboolean trailer_in_set(const char *const *set, const char *s);

/* b4's test for an address in a value: \S+@\S+\.\S+ */
gboolean trailer_looks_like_person(const char *v);

/* trailer_new() of the @nlen bytes of @name and the @vlen of @value, its
 * raw text @raw (or NULL) kept as well. */
struct trailer *trailer_make(const char *name, size_t nlen, const char *value,
			     size_t vlen, const char *extinfo, const char *raw);

/* A copy of @t with @extinfo (or NULL) in place of its own. */
struct trailer *trailer_copy_with(const struct trailer *t, const char *extinfo);

#endif
