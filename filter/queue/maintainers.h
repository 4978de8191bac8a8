/*
 * maintainers.h - a tree's MAINTAINERS file (the Linux kernel's format:
 * sections of "X:\tvalue" lines between blank lines) read for one
 * address: the F: patterns of every section whose M: lines name it, and
 * whether a file is one of them (get_maintainer.pl's rules: a pattern
 * ending in "/" takes everything below it, a directory without the "/"
 * too, and * and ? are globs).
 *
 * Ownership: struct maintainers owns its patterns (maintainers_free()).
 */
#ifndef LORE_MAINTAINERS_H
#define LORE_MAINTAINERS_H

#include <glib.h>

/* MAINTAINERS larger than this is not read (the kernel's is ~800 KiB) */
#define MAINTAINERS_MAX ((gsize)16 << 20)

struct maintainers {
	GPtrArray *patterns; /* char *, the F: values */
};

/* The patterns @path gives to @email (case ignored); NULL with @err when
 * the file cannot be read or is too large. */
struct maintainers *maintainers_read(const char *path, const char *email,
				     GError **err);
/* The same, from the text @text. */
struct maintainers *maintainers_parse(const char *text, gsize len,
				      const char *email);
void maintainers_free(struct maintainers *m);

/* Is @file (a path in the tree) given by one of @m's patterns? */
gboolean maintainers_match(const struct maintainers *m, const char *file);

#endif
