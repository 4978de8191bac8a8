/*
 * trailer.h - git trailers ("Reviewed-by: Name <addr>", "Fixes: ...") read
 * from commit messages and from review replies, compared, and written back.
 * The rules follow git-interpret-trailers as b4 applies them: a trailer is
 * "Token: value" with no space in the token, quoted (">") lines never match,
 * nothing after a "-- " signature counts, and a "[...]" line or a "# ..."
 * tail attaches to the trailer before it.
 *
 * Ownership: a struct trailer and its strings are one allocation (a
 * thread's replies send thousands): its fields are never freed or
 * replaced, trailer_free() frees it all. GPtrArrays returned here own
 * their trailers (free function set) unless said otherwise.
 */
#ifndef LORE_TRAILER_H
#define LORE_TRAILER_H

#include <glib.h>

struct message;

enum trailer_type {
	TRAILER_PERSON,	 /* carries an address: Reviewed-by, Acked-by, ... */
	TRAILER_UTILITY, /* Fixes, Link, Closes, ... or any URL */
	TRAILER_UNKNOWN,
};

struct trailer {
	char *name;    /* as written */
	char *lname;   /* lower case, for comparisons */
	char *value;   /* persons normalised to "Name <addr>" */
	char *extinfo; /* "  # note" tail or "[note]" line, or NULL */
	enum trailer_type type;
	char *addr_name; /* persons only, else NULL */
	char *addr_email;
	char *raw; /* a commit message's own trailer: its line(s) as written
		      (with a "# note" tail), written back as they are; NULL
		      for what a reply sends or lore-am makes */
	const struct message *src; /* the reply that sent it, or NULL */
};

struct trailer *trailer_new(const char *name, const char *value,
			    const char *extinfo);
struct trailer *trailer_copy(const struct trailer *t);
void trailer_free(struct trailer *t);
GPtrArray *trailer_array_new(void);

/* Same token and same value, case ignored; a person's name is the same
 * in quotes or not. */
gboolean trailer_eq(const struct trailer *a, const struct trailer *b);
/* Is an equal trailer in @list? */
gboolean trailer_in(GPtrArray *list, const struct trailer *t);

/*
 * "Name: value" plus extinfo when @with_extinfo; g_free the result. With
 * @with_extinfo, a trailer of the commit message itself is its raw text:
 * the patch's own trailers are committed as they were sent, only those
 * added are formatted.
 */
char *trailer_string(const struct trailer *t, gboolean with_extinfo);

/*
 * Does the trailer's address name the same mailbox as @email? Ignores case,
 * "+detail" local parts, and one extra domain level (foo@intel.com and
 * foo@linux.intel.com).
 */
gboolean trailer_email_eq(const struct trailer *t, const char *email);

/*
 * Find trailer lines in @text. With @followup, only what reviewers send
 * counts: person trailers with an address, and the known utility ones
 * (Fixes, Link, Closes, ...); links only in link trailers. Without it
 * (@text is a commit message), each trailer keeps its raw text. Trailers are
 * appended to @trailers; with @others, the remaining lines are appended
 * there (char *, owned by @others).
 */
void trailer_find(const char *text, gboolean followup, GPtrArray *trailers,
		  GPtrArray *others);

/*
 * The trailers a reply sends for the patch it answers (its own text, not
 * quotes, not metadata such as From:/Cc:). @src is recorded in each.
 */
GPtrArray *trailer_from_reply(const struct message *src, const char *body);

/*
 * Does @src (its text @body) send any trailer trailer_from_reply() would
 * take? The series stage's question about a mail that answers another
 * without "Re:" (series_sends_fn).
 */
gboolean trailer_reply_sends(const struct message *src, const char *body);

/*
 * Was @t sent by the person it names? The address must match the sender's
 * (trailer_email_eq), or the names must be equal.
 */
gboolean trailer_sender_ok(const struct trailer *t, const struct message *src);

#endif
