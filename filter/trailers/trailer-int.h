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

#endif
