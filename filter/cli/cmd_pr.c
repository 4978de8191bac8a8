/*
 * cmd_pr.c - lore-am pr (b4 pr): the pull request mail (piped in, or its
 * Message-ID or URL, its thread gathered from the sources as the am job
 * gathers one) read by pullreq.h, fetched and weighed by git/pull.h; with
 * --explode the pulled commits go through the series, trailers and
 * writer stages as a series whose cover letter is the pull request (and
 * into the queue, where lore-am ty marks it thanked).
 */
#include "cli/cmd.h"
#include "attest/attest.h"
#include "cli/runopts.h"
#include "core/config.h"
#include "core/util.h"
#include "git/pull.h"
#include "git/pullsig.h"
#include "git/track.h"
#include "mail/pullreq.h"
#include "queue/queue.h"
#include "series/series.h"
#include "source/gather.h"
#include "source/lore.h"
#include "trailers/followup.h"
#include "trailers/trailer.h"
#include "write/amjob.h"

#include <string.h>

static int
pr_check(struct cli *c)
{
	const char *o = c->apply			       ? "--apply"
			: c->range_diff			       ? "--range-diff"
			: c->thread || c->maildir || c->append ? "--thread"
			: c->save_maildir || c->quilt	       ? "-M and -Q"
							       : NULL;

	if (o) {
		lore_err("pr does not take %s: it fetches the pull request, "
			 "and --explode writes its commits",
			 o);
		return LORE_EUSAGE;
	}
	/* -b is b4 pr's --branch here, one name */
	if (c->guess_branch && (c->guess_branch[1] || c->explode)) {
		lore_err("pr takes one -b BRANCH, and not with --explode (-b "
			 "checks the pull out, -e writes its commits)");
		return LORE_EUSAGE;
	}
	if (c->guess_branch &&
	    (!*c->guess_branch[0] || *c->guess_branch[0] == '-')) {
		g_autofree char *b = lore_term_safe(c->guess_branch[0], -1);

		lore_err("pr -b: '%s' cannot be a branch name; nothing fetched",
			 b);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/* git's text (a fetched repository's names and titles) line by line,
 * each made terminal-safe */
static void
say_lines(const GString *s)
{
	g_auto(GStrv) lines = g_strsplit(s->str, "\n", -1);
	guint i;

	for (i = 0; lines[i]; i++) {
		g_autofree char *l = lore_term_safe(lines[i], -1);

		if (lines[i + 1] || *l)
			lore_info("%s", l);
	}
}

/* Does what was fetched match what the mail's request-pull text says? */
static void
compare(const struct pullreq *pr, const struct pull *p)
{
	if (pr->commits && pr->commits != p->commits)
		lore_info("NOTE: the mail's shortlog counts %u commits, the "
			  "fetched range holds %u",
			  pr->commits, p->commits);
	if (!pr->stat)
		return;
	if (p->stat && pr->files == p->files &&
	    pr->insertions == p->insertions && pr->deletions == p->deletions) {
		lore_info("The mail's diffstat matches the fetched commits.");
		return;
	}
	lore_info("NOTE: the mail's diffstat (%u files, +%u -%u) differs from "
		  "the fetched commits' (%u files, +%u -%u)",
		  pr->files, pr->insertions, pr->deletions, p->files,
		  p->insertions, p->deletions);
}

static void
report(struct message *m, const struct pullreq *pr, const struct pull *p)
{
	g_autofree char *subj =
	    lore_term_safe(m->subject ? m->subject : "", -1);
	g_autofree char *url = lore_term_safe(pr->url, -1);

	lore_info("Pull request: %s", subj);
	lore_info("  from %s%s%s", url, pr->ref ? " " : "",
		  pr->ref ? pr->ref : "");
	lore_info("Fetched into FETCH_HEAD: %.12s%s", p->tip,
		  pr->tip ? " (the tip the mail names)"
			  : " (the mail names no tip to check)");
	if (pr->base && !p->base_known)
		lore_info("NOTE: the mail's base commit %s is not in this "
			  "repository",
			  pr->base);
	if (p->merged)
		lore_info("Already merged into HEAD.");
	else
		lore_info("Not merged into HEAD: %u commit(s) since the "
			  "merge base %.12s",
			  p->commits, p->base ? p->base : "(none)");
	if (!p->base)
		return;
	lore_info("---");
	say_lines(p->shortlog);
	say_lines(p->diffstat);
	lore_info("---");
	compare(pr, p);
}

/* What the signature check found, in one line (g_free); NULL when good. */
static char *
sig_problem(const struct pullsig *s)
{
	const char *what = s->tag ? "tag" : "commit";

	switch (s->state) {
	case PULLSIG_GOOD:
		return NULL;
	case PULLSIG_UNSIGNED:
		return g_strdup_printf("the fetched %s is not signed", what);
	case PULLSIG_BAD:
		return g_strdup_printf("the fetched %s's signature does not "
				       "hold (%s, key %s)",
				       what, s->why ? s->why : "badsig",
				       s->keyid ? s->keyid : "unknown");
	case PULLSIG_NOKEY:
		return g_strdup_printf("the fetched %s is signed by key %s, "
				       "which your GnuPG keyring does not "
				       "have (gpg --recv-keys %s, then git "
				       "verify-%s FETCH_HEAD)",
				       what, s->keyid ? s->keyid : "(unnamed)",
				       s->keyid ? s->keyid : "KEY", what);
	default:
		return g_strdup_printf("the fetched %s's signature could not "
				       "be checked: %s",
				       what, s->why ? s->why : "no reason");
	}
}

/*
 * The signature on what was fetched, as b4 pr checks it, weighed by
 * lore-am.attestation-policy: `check` says it, `softfail` says a failure
 * even with -q, `hardfail` stops there (LORE_EPULL: nothing tracked,
 * nothing exploded; FETCH_HEAD holds what was fetched, as with b4).
 */
static int
pr_signature(struct config *cfg)
{
	enum attest_policy pol;
	struct pullsig s;
	g_autofree char *bad = NULL;
	int rc = attest_policy_read(cfg, &pol);

	if (rc || pol == ATTEST_OFF)
		return rc;
	pullsig_check("FETCH_HEAD", &s);
	bad = sig_problem(&s);
	if (!bad)
		lore_info("  ✓ Signed: %s (the fetched %s, key %s)",
			  s.signer ? s.signer : "(no user id)",
			  s.tag ? "tag" : "commit", s.keyid ? s.keyid : "ssh");
	else if (pol == ATTEST_CHECK)
		lore_info("  ✗ %s", bad);
	else if (pol == ATTEST_SOFTFAIL)
		lore_err("%s (attestation-policy softfail: fetched all the "
			 "same)",
			 bad);
	else {
		lore_err("%s: not tracked, nothing written (attestation-policy "
			 "hardfail)",
			 bad);
		rc = LORE_EPULL;
	}
	pullsig_clear(&s);
	return rc;
}

/*
 * lore-am.track: b4 pr's TIP.pr, for `lore-am ty` and `b4 ty` to thank
 * once it is merged. As b4 pr, not for a pull HEAD already has (its
 * thanks are past) nor for --explode (the commits go out as patches).
 */
static void
track_pr(struct message *m, const struct pullreq *pr, const struct pull *p)
{
	GError *e = NULL;
	gboolean fresh;
	g_autofree char *path = track_write_pr(
	    m, pr->url, pr->ref ? pr->ref : "HEAD", p->tip, &fresh, &e);

	if (!path) {
		lore_err("warning: no b4 ty tracking file: %s", e->message);
		g_error_free(e);
	} else {
		lore_info("%s for the thanks: %s",
			  fresh ? "Tracked" : "Already tracked", path);
	}
}

/* --explode: the pulled commits as an am-ready series, the pull request
 * its cover letter, the thread's trailers applied. */
static int
explode(struct cli *c, struct config *cfg, struct message *m, struct thread *t,
	const struct pull *p)
{
	struct thread *x = NULL;
	struct series_set *s;
	struct amjob_opts o = {0};
	struct followups *f = NULL;
	GError *err = NULL;
	int rc = pull_explode(p, m, t, &x, &err);

	if (rc) {
		lore_err_take(err);
		return rc;
	}
	s = series_analyse_for(x, m->msgid, trailer_reply_sends);
	/* the queue knows the pull as the series it writes: ty marks it */
	if (queue_enabled(cfg))
		f = followup_collect(s, FALSE);
	queue_note(cfg, s, f, m->msgid, NULL);
	runopts_am(&o, c, cfg);
	o.followups = f;
	o.target = m->msgid;
	rc = runopts_gate(&o, c, cfg);
	if (!rc)
		rc = amjob_run(s, &o);
	runopts_am_clear(&o);
	followup_free(f);
	series_set_free(s);
	thread_free(x);
	return rc;
}

/* Every source is asked, for the replies' trailers; but the pull
 * request piped in is enough alone when the archive cannot be reached. */
static gboolean
pr_enough(struct thread *t, const char *msgid, gboolean alone, void *data)
{
	return alone;
}

static int
pr_work(struct cli *c, struct config *cfg, struct message *piped,
	const char *target)
{
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct thread *t = NULL;
	struct pullreq pr = {0};
	struct pull p = {0};
	struct message *m;
	GError *err = NULL;
	const struct gather_need need = {pr_enough, NULL};
	int rc = run_sources(c, cfg, target, &lo, &g);

	if (rc)
		message_free(piped);
	else
		rc = run_gather(g, target, piped, &need, &t);
	if (rc)
		goto out;
	m = thread_get(t, target);
	if (!pullreq_parse(message_body(m), &pr)) {
		g_autofree char *id = lore_term_safe(target, -1);

		lore_err("<%s> is not a pull request: it names no git://, "
			 "https:// or ssh:// repository",
			 id);
		rc = LORE_ENOTFOUND;
		goto out;
	}
	rc = pull_fetch(&pr, &p, &err);
	if (rc) {
		lore_err_take(err);
		goto out;
	}
	report(m, &pr, &p);
	if ((rc = pr_signature(cfg)))
		goto out;
	if (c->guess_branch) {
		if ((rc = pull_checkout(c->guess_branch[0], &err))) {
			lore_err_take(err);
			goto out;
		}
		lore_info("Checked out as the new branch %s",
			  c->guess_branch[0]);
	}
	if (c->explode)
		rc = explode(c, cfg, m, t, &p);
	else if (!p.merged && config_bool(config_get(cfg, "track", NULL)))
		track_pr(m, &pr, &p);
out:
	pull_clear(&p);
	pullreq_clear(&pr);
	gather_free(g);
	lore_opts_clear(&lo);
	thread_free(t);
	return rc;
}

static int
pr_run(struct cli *c)
{
	struct message *piped = NULL;
	g_autofree char *target = NULL;
	struct config *cfg;
	int rc = run_target(c, &piped, &target);

	if (rc)
		return rc;
	if (!target) {
		message_free(piped);
		lore_err("pr needs the pull request: pipe the mail in or give "
			 "its Message-ID");
		return LORE_EUSAGE;
	}
	cfg = config_load();
	rc = pr_work(c, cfg, piped, target);
	config_free(cfg);
	return rc;
}

const struct cmd cmd_pr = {"pr", pr_check, pr_run};
