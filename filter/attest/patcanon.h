/*
 * patcanon.h - the text a patatt signature covers, as patatt's
 * DevsigHeader makes it: the fields split as patatt's reader splits them;
 * a reading of the mail (lore-am's mailinfo, else git mailinfo
 * --no-scissors): the body as mailinfo's message and patch, each line
 * ending in CRLF, and the fields with From and Subject replaced by
 * mailinfo's author and subject; the SHA-256 of the body (bh=) and of
 * the fields h= names with the signature field up to its b= (b= signs
 * that). patatt.c checks signatures on it.
 *
 * Ownership: struct pmsg is its caller's; patcanon_build() fills its body
 * and canon, patcanon_unbuild() frees them; the checksum
 * patcanon_header_hash() returns is the caller's (g_checksum_free).
 */
#ifndef LORE_PATCANON_H
#define LORE_PATCANON_H

#include <glib.h>
#include <stddef.h>

struct mailinfo;

/* One message as patatt sees it. */
struct pmsg {
	GString *text;	  /* the mail with LF line ends */
	GArray *hdrs;	  /* struct span: each field with its folded lines */
	GString *body;	  /* canonical: mailinfo's message and patch, CRLF */
	GPtrArray *canon; /* "name" "value" pairs after mailinfo's From/Subj */
	int state; /* 0 not canonicalized, 1 by git, 2 by mi, -1 git failed */
	const struct mailinfo *mi; /* lore-am's own reading, or NULL */
};

struct span {
	size_t off, len;
};

/* Split @m's header section into @m->hdrs as patatt's reader does: a line
 * blank but for white space ends it, a line starting with a space or tab
 * continues the field before. FALSE when patatt would not read the mail. */
gboolean patcanon_split_header(struct pmsg *m);

/* The reading `git mailinfo --no-scissors` makes (its files in the folder
 * @dir, NULL: none to run it in); asked once (@m->state). */
gboolean patcanon_git(const char *dir, struct pmsg *m);

/* The canonical body and fields from a reading of the mail: its author,
 * address, subject and message-and-patch text @mp (changed). */
void patcanon_build(struct pmsg *m, const char *author, const char *email,
		    const char *subject, GString *mp);
/* Drop a reading, to make another. */
void patcanon_unbuild(struct pmsg *m);

/* SHA-256 of the fields @h names (each taken once, from the bottom up, as
 * DKIM does) and of the signature field @sigval (@siglen bytes) up to its
 * "b=". NULL when @h leaves out From or Subject, which patatt requires. */
GChecksum *patcanon_header_hash(struct pmsg *m, const char *h,
				const char *sigval, size_t siglen);

/* Is the base64 SHA-256 of the first @len bytes of @body @bh? */
gboolean patcanon_body_hash_is(const GString *body, size_t len, const char *bh);

/*
 * patatt's header canonicalization (DKIM "relaxed" for one value): line
 * breaks removed, each run of white space one space, none at either end,
 * then CRLF. Appended to @to. For the unit test too.
 */
void patatt_canon_value(GString *to, const char *v, size_t len);

#endif
