/*
 * gitalt.h - GIT_ALTERNATE_OBJECT_DIRECTORIES read as git reads it, its
 * relative entries made absolute (gitenv.c hands the result to every git
 * child, which may work in another folder than the one lore-am started
 * in).
 *
 * git splits the value at ':' (odb.c, parse_alt_odb_entry()): an entry
 * starting with '#' is a comment up to the next ':'; one starting with
 * '"' is C-quoted (\a \b \f \n \r \t \v \\ \" and \ooo), the byte after
 * its closing quote skipped whatever it is, and when its quoting is
 * broken it is an ordinary entry after all; empty entries are skipped. A
 * relative entry is read from git's working folder at the time.
 *
 * Ownership: the strings returned are the caller's (g_free).
 */
#ifndef LORE_GITALT_H
#define LORE_GITALT_H

#include <glib.h>

/* Whether an entry of @value is relative (NULL: none is). */
gboolean gitalt_relative(const char *value);

/*
 * @value with each relative entry made absolute against the folder
 * @base (absolute), as git would read it from there: "@base/ENTRY" (in
 * quotes when @base holds a ':' or the entry was quoted); every other
 * byte as it was (absolute entries, comments, the separators, the
 * order). NULL when no entry is relative or @base is not absolute.
 */
char *gitalt_absolute(const char *value, const char *base);

#endif
