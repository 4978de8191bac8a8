/*
 * subject.h - patch subject parsing: "[RFC PATCH net-next v2 1/3] title",
 * "[PATCHv3 1/2]", "[PATCH RESEND 2/2]", replies ("Re:", "Aw:", "Fwd:"),
 * following the rules b4 applies so that both tools see the same series.
 *
 * Ownership: struct subject owns its title; subject_clear() frees it.
 */
#ifndef LORE_SUBJECT_H
#define LORE_SUBJECT_H

#include <glib.h>

struct subject {
	char *title;	/* the subject without its [...] prefixes */
	gboolean reply; /* Re:/Aw:/Fwd: and the like */
	gboolean resend, patch, rfc;
	int revision;	       /* 1 unless given as vN */
	int counter, expected; /* 1/1 unless given as i/N */
	gboolean revision_inferred, counters_inferred;
};

/* Parse a decoded, unfolded subject. */
void subject_parse(const char *subject, struct subject *out);
void subject_clear(struct subject *s);

/*
 * git mailinfo's subject clean-up: drop leading "Re:", ':' and white space
 * and every leading [...] group. Returns a new string.
 */
char *subject_strip_prefixes(const char *subject);

#endif
