/*
 * tymail.h - the thank-you mail b4 ty writes for an applied series, made
 * the same way: b4's default template (or b4.thanks-am-template /
 * lore-am.thanks-am-template), its variables (${fromname}, ${sentdate},
 * ${quote}, ${summary}, ${branch}, ${treename}, ${signature}, ${myname},
 * ${myemail} and every text field of the tracking file), filled as
 * Python's Template.safe_substitute fills them; the author in To after
 * the original To, the original Cc, less the maintainer, the author's
 * other copies and b4.email-exclude's globs, each through the tree's
 * mailmap; a reply to the series' first message.
 *
 * Ownership: struct ty_setup owns its strings (tymail_setup_free); the
 * rest return new strings or GStrings the caller frees.
 */
#ifndef LORE_TYMAIL_H
#define LORE_TYMAIL_H

#include "core/config.h"
#include "git/tyfile.h"

#include <glib.h>

/* what every thanks of one run shares */
struct ty_setup {
	char *myname, *myemail, *signature;
	char *branch;	     /* the branch as the thanks name it */
	char *treename;	     /* b4.thanks-treename, else the remote's path */
	char *template;	     /* the am template's text */
	char *prtemplate;    /* the pull request template's, read when one
			      * is thanked (tymail_build) */
	char *prpath;	     /* the configured one's path, or NULL */
	char *cidmask;	     /* "commit: %s" or b4.thanks-commit-url-mask */
	char *mergemask;     /* "merge commit: %s", or the same mask */
	GPtrArray *excludes; /* b4.email-exclude's globs */
	GHashTable *mailmap; /* address -> "Name\nemail" or "" (cache) */
};

/*
 * The setup for thanks from the repository in the current folder for
 * @branch (its remote and url give ${branch} and ${treename}, as in b4):
 * NULL with @err when user.email is not set or a configured template
 * cannot be read.
 */
struct ty_setup *tymail_setup(struct config *cfg, const char *branch,
			      GError **err);
void tymail_setup_free(struct ty_setup *t);

/*
 * b4's ${summary}: for each patch "[NN/MM] title" and under it the commit
 * (the mask filled) or "(no commit info)"; @commits holds s->npatches
 * ids or NULLs.
 */
char *tymail_summary(const struct ty_setup *t, const struct ty_series *s,
		     char *const *commits);

/*
 * The whole mail (headers and body, "\n" line ends, no From_ line) for
 * @s with @summary; a pull request's (s->pr) with its template, and its
 * ${pr_commit_id} and ${merge_commit_id} (@merge, or NULL) as b4 sets
 * them. NULL with @err when the record's Message-ID is not one, or the
 * pull request template cannot be read.
 */
GString *tymail_build(struct ty_setup *t, const struct ty_series *s,
		      const char *summary, const char *merge, GError **err);

/* b4's name for the .thanks file, without the suffix: the author's
 * address and the subject, \W+ as '_', lower case (at most 200 bytes). */
char *tymail_slug(const struct ty_series *s);

/* The pull request template's text (b4's default, or the configured
 * file, read once): borrowed from @t; NULL with @err when unreadable. */
const char *tymail_pr_template(struct ty_setup *t, GError **err);

/* Python's string.Template.safe_substitute(@vars) of @tpl. */
char *tymail_fill(const char *tpl, GHashTable *vars);

#endif
