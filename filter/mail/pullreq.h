/*
 * pullreq.h - what a "[GIT PULL]" mail asks for, read from its text: the
 * lines `git request-pull` writes ("The following changes since commit
 * X:", "are available in the Git repository at:" with the URL and ref,
 * "for you to fetch changes up to Y:", the shortlog and the diffstat),
 * and the forms people write by hand (the URL and ref on one line
 * anywhere, or the ref alone on the line under the URL). Pure: nothing is
 * fetched here (git/pull.h does that).
 *
 * The text is hostile: only git://, http://, https:// and ssh:// URLs
 * are taken (never ext::, a local path or an option), a ref only when
 * git could name it, every field bounded.
 *
 * Ownership: struct pullreq owns its strings; pullreq_clear() frees them.
 */
#ifndef LORE_PULLREQ_H
#define LORE_PULLREQ_H

#include <glib.h>

/* Bounds on what a mail may name. */
#define PULLREQ_MAX_URL 1024
#define PULLREQ_MAX_REF 255

struct pullreq {
	char *url;     /* the repository, or NULL: not a pull request */
	char *ref;     /* the branch or tag as written, NULL: its HEAD */
	char *base;    /* "changes since commit" id (lower case hex), or NULL */
	char *tip;     /* "fetch changes up to" id (lower case hex), or NULL */
	guint commits; /* the shortlog's "Name (N):" counts summed */
	gboolean stat; /* a diffstat's summary line was found: */
	guint files;   /* its "N files changed" */
	guint insertions, deletions;
};

/*
 * Read @text (a mail's decoded text body). TRUE when it names a
 * repository to fetch (p->url set); the other fields are filled as far as
 * the text has them, FALSE leaves them all empty.
 */
gboolean pullreq_parse(const char *text, struct pullreq *p);

void pullreq_clear(struct pullreq *p);

/* Is @url one pullreq_parse() takes (scheme, length, characters)? */
gboolean pullreq_url_ok(const char *url);

/* Is @ref a ref name git could fetch (check-ref-format's rules, bounded,
 * no leading '-')? */
gboolean pullreq_ref_ok(const char *ref);

/*
 * A diffstat summary line (" 3 files changed, 10 insertions(+), 2
 * deletions(-)"), as git diff --stat ends: TRUE and its numbers, each
 * absent part 0.
 */
gboolean pullreq_stat_line(const char *line, guint *files, guint *ins,
			   guint *del);

#endif
