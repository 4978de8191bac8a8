/*
 * pull.h - a pull request fetched and weighed with real git: `git fetch
 * URL REF` into FETCH_HEAD (only the git, http(s) and ssh transports, no
 * password prompt), the fetched tip held against the id the mail names,
 * whether HEAD already has it, the shortlog and diffstat against the
 * merge base; and the pulled commits made into a thread (git
 * format-patch) whose cover letter is the pull request mail, for the am
 * job (b4 pr --explode).
 *
 * Ownership: struct pull owns its strings (pull_clear()); the thread
 * pull_explode() returns is the caller's (thread_free()). Everything
 * else is borrowed for the call.
 */
#ifndef LORE_PULL_H
#define LORE_PULL_H

#include <glib.h>

#include "mail/message.h"
#include "mail/pullreq.h"
#include "thread/thread.h"

struct pull {
	char *tip;	     /* the commit fetched (FETCH_HEAD peeled) */
	char *base;	     /* where the pulled commits start, or NULL */
	gboolean merged;     /* HEAD already holds the tip */
	gboolean base_known; /* the mail's base commit is in the repository */
	guint commits;	     /* base..tip */
	gboolean stat;	     /* git diff --stat's summary, base..tip: */
	guint files, insertions, deletions;
	GString *shortlog; /* git shortlog base..tip */
	GString *diffstat; /* git diff -M --stat base tip */
};

void pull_clear(struct pull *p);

/*
 * `git checkout -b @branch FETCH_HEAD` (b4 pr -b): a new branch at the
 * fetched tip, checked out. LORE_EUSAGE with @err saying git's reason
 * (the branch exists, local changes in the way, a bad name).
 */
int pull_checkout(const char *branch, GError **err);

/*
 * Fetch what @pr names into FETCH_HEAD of the repository lore-am runs in,
 * then fill @out. LORE_EPULL when the fetched tip is not the commit the
 * mail names; LORE_ENOTFOUND when git cannot fetch it; LORE_EUSAGE
 * outside a repository. @err says why.
 */
int pull_fetch(const struct pullreq *pr, struct pull *out, GError **err);

/*
 * The commits base..tip of @p as patch mails answering @prmsg (git
 * format-patch), @prmsg itself as their cover letter "[PATCH 0/N]" with
 * a base-commit line, and every reply to @prmsg in @replies (the pull
 * request's thread): a new thread for the series and trailers stages.
 * LORE_ENOTFOUND when there are no commits to write.
 */
int pull_explode(const struct pull *p, struct message *prmsg,
		 struct thread *replies, struct thread **out, GError **err);

#endif
