/*
 * mailinfo.h - what `git mailinfo --scissors` takes from a patch mail:
 * author (git's own From: rules), date and subject (the in-body "From:",
 * "Date:" and "Subject:" lines at the top of the body override the header
 * when the mail has a patch), and the body without those lines and without
 * anything above a "-- >8 --" scissors line.
 *
 * Ownership: struct mailinfo owns its strings; mailinfo_clear() frees them.
 */
#ifndef LORE_MAILINFO_H
#define LORE_MAILINFO_H

#include <glib.h>

struct message;

struct mailinfo {
	char *author_name; /* "" when none */
	char *author_email;
	char *date;    /* as written, may be "" */
	char *subject; /* cleaned: no "Re:", no [PATCH ...] */
	char *body;    /* the commit message and patch */
};

void mailinfo_run(const struct message *m, const char *body,
		  struct mailinfo *out);
void mailinfo_clear(struct mailinfo *mi);

/* git's is_scissors_line() rule for "-- >8 --" and its variants. */
gboolean mailinfo_is_scissors(const char *line, size_t len);

/* git's patchbreak(): "---" (alone or before a file name), "diff -" or
 * "Index: " starts the patch. @line excludes its '\n'. */
gboolean mailinfo_is_patch_break(const char *line, size_t len);

/*
 * The author from a decoded From: value, by git's handle_from(): the word
 * around '@' (or inside <>) is the address, the rest the name, with quotes
 * removed and comments kept; the address stands in for a name that is
 * empty, longer than 60 bytes or holds '@', '<' or '>'. Both results are
 * one clean line (g_free), "" when there is none.
 */
void mailinfo_author(const char *from, char **name, char **email);

/* Would git take the first line of the commit message @body for an in-body
 * header ("From: ...", "[PATCH] ...", a format-patch "From <sha>" line)? */
gboolean mailinfo_looks_inbody(const char *body);

#endif
