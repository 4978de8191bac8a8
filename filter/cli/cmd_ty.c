/*
 * cmd_ty.c - `lore-am ty` (b4 ty): thank the authors of applied series.
 * The tracking files (git/tyfile.h: b4's and lore-am's, in one folder) are
 * listed (-l, the default), discarded (-d), or thanked (-t N, or -a for
 * every series the branch holds, matched as b4 ty --auto matches): the
 * mail b4 ty writes (git/tymail.h) goes to DIR/NAME.thanks (-o DIR, the
 * current folder by default), a maildir (--maildir) or out now (--send,
 * git send-email), or to stdout with --dry-run, which changes nothing.
 * Only once the thanks is written or sent does its tracking file move to
 * NAME.am.sent, as b4 ty moves it.
 */
#include "cli/cmd.h"
#include "core/config.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/track.h"
#include "git/tyfile.h"
#include "git/tymail.h"
#include "git/tymatch.h"
#include "git/tyout.h"
#include "git/typr.h"
#include "mail/message.h"
#include "queue/queue.h"
#include "write/deliver.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define TY_DEFAULT_SINCE "1.week"
#define TY_DEFAULT_LINKMASK "https://lore.kernel.org/r/%s"

/* one run's state: what every thanks shares */
struct ty_run {
	struct cli *c;
	struct config *cfg;
	char *branch;		 /* the branch matched against */
	struct ty_setup *setup;	 /* made on the first thanks */
	struct ty_branch *found; /* its commits, loaded once */
	guint written;
	int rc; /* the worst status met, reported as met */
};

static int
ty_check(struct cli *c)
{
	guint modes =
	    !!c->ty_list + !!c->ty_thank + !!c->ty_discard + !!c->ty_auto;
	guint outs = !!c->outdir + !!c->maildir + !!c->ty_send;

	if (c->args && c->args[0]) {
		g_autofree char *s = lore_term_safe(c->args[0], -1);

		lore_err("ty takes no MSGID ('%s'): it thanks for the series "
			 "the tracking files name (lore-am ty -l)",
			 s);
		return LORE_EUSAGE;
	}
	if (c->mboxes || c->apply || c->range_diff || c->thread || c->append ||
	    c->passthrough) {
		lore_err(
		    "ty thanks for tracked series: it does not go with -m, "
		    "--apply, --range-diff, --thread or --append");
		return LORE_EUSAGE;
	}
	if (modes > 1) {
		lore_err("give one of -l, -t, -d and -a");
		return LORE_EUSAGE;
	}
	if (outs > 1) {
		lore_err("give one of -o DIR, --maildir DIR and --send");
		return LORE_EUSAGE;
	}
	if (c->outdir && !strcmp(c->outdir, "-")) {
		lore_err("ty writes NAME.thanks files: give -o DIR (or "
			 "--dry-run to see the mails on stdout)");
		return LORE_EUSAGE;
	}
	if (c->ty_pw_state) {
		lore_err("--pw-set-state is not built: lore-am talks to no "
			 "patchwork; run b4 ty for that");
		return LORE_EUSAGE;
	}
	if (!c->ty_since)
		c->ty_since = g_strdup(TY_DEFAULT_SINCE);
	return LORE_OK;
}

/* b4's get_wanted_branch(): -b's (it must exist), else the current one */
static char *
wanted_branch(const struct cli *c, GError **err)
{
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	char *b = NULL;

	if (c->ty_branch) {
		const char *const argv[] = {"branch",	  "--format=%(refname)",
					    "--list",	  "--all",
					    c->ty_branch, NULL};

		if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0 && out->len)
			b = g_strdup(c->ty_branch);
		else
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "no branch '%s' in git branch --list --all",
				    c->ty_branch);
	} else {
		const char *const argv[] = {"symbolic-ref", "-q", "HEAD", NULL};

		if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0) {
			g_strchomp(out->str);
			b = g_strdup(g_str_has_prefix(out->str, "refs/heads/")
					 ? out->str + strlen("refs/heads/")
					 : out->str);
		} else {
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "no current branch (git symbolic-ref "
				    "HEAD): give -b BRANCH");
		}
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return b;
}

/* the branch's commits, once: NULL (reported) when git cannot list them */
static struct ty_branch *
branch_commits(struct ty_run *r)
{
	GError *e = NULL;

	if (r->found)
		return r->found;
	r->found =
	    ty_branch_load(r->branch, r->c->ty_since, r->setup->myemail, &e);
	if (!r->found)
		lore_err_take(e);
	return r->found;
}

static void
worst(struct ty_run *r, int rc)
{
	if (rc > r->rc)
		r->rc = rc;
}

/* "'SUBJECT'" fit for the terminal */
static char *
said(const struct ty_series *s)
{
	return lore_term_safe(s->error ? s->name : s->subject, -1);
}

/* the thanks where -o, --maildir, --send or --dry-run put it */
static gboolean
deliver(struct ty_run *r, const struct ty_series *s, const GString *msg)
{
	g_autofree char *what = said(s);
	GError *e = NULL;
	gboolean ok;

	if (r->c->dry_run) {
		struct message *m = message_parse(msg->str, msg->len, &e);
		GString *o = g_string_new(NULL);

		if ((ok = m != NULL)) {
			deliver_mboxrd_add(o, m);
			ok = fwrite(o->str, 1, o->len, stdout) == o->len;
			message_free(m);
		}
		g_string_free(o, TRUE);
		if (!ok && !e)
			g_set_error(&e, LORE_ERROR, LORE_EIO,
				    "cannot write to stdout");
	} else if (r->c->ty_send) {
		g_autofree char *from = g_strdup_printf(
		    "%s <%s>", r->setup->myname, r->setup->myemail);

		if ((ok = tyout_send(msg, from,
				     config_get(r->cfg, "sendemail-identity",
						"sendemail-identity"),
				     &e)))
			lore_info("  Sent: Re: %s", what);
	} else if (r->c->maildir) {
		if ((ok = tyout_maildir(r->c->maildir, msg, r->c->seen, &e)))
			lore_info("  Delivered into %s: Re: %s", r->c->maildir,
				  what);
	} else {
		g_autofree char *slug = tymail_slug(s);
		g_autofree char *path = tyout_file(r->c->outdir, slug, msg, &e);

		if ((ok = path != NULL))
			lore_info("  Writing: %s", path);
	}
	if (!ok) {
		lore_err("the thanks for '%s' is not written: %s", what,
			 e->message);
		g_error_free(e);
	}
	return ok;
}

/* say how much of @s the branch holds (b4's warnings) */
static void
say_partial(struct ty_run *r, const struct ty_series *s, char *const *ids)
{
	g_autofree char *what = said(s);
	guint i, none = 0;

	for (i = 0; i < s->npatches; i++)
		none += ids[i] == NULL;
	if (none == s->npatches && s->npatches)
		lore_err("'%s': none of the patches is in %s; review the "
			 "thanks",
			 what, r->branch);
	else if (none)
		lore_err("'%s': %u of %u patches applied in %s, the thanks "
			 "says which; review it",
			 what, s->npatches - none, s->npatches, r->branch);
}

/*
 * The queue's "thanked" (queue/queue.h), unless lore-am.queue is off. The
 * .sent file is b4's record and the queue reads it too: a series the
 * queue never saw (tracked by b4 shazam) is no error.
 */
static void
ty_queue_mark(const struct ty_run *r, const char *msgid)
{
	const char *on = config_get(r->cfg, "queue", NULL);
	GError *e = NULL;

	if (!msgid || (on && !config_bool(on)))
		return;
	if (queue_mark(msgid, "thanked", &e) && e->code != LORE_ENOTFOUND)
		lore_err("warning: the queue does not say it thanked: %s",
			 e->message);
	g_clear_error(&e);
}

/* write or send the thanks for @s (${summary} @summary, a pull's merge
 * commit @merge or NULL), then retire its tracking file; FALSE
 * (reported) when either failed */
static gboolean
thank_with(struct ty_run *r, const struct ty_series *s, const char *summary,
	   const char *merge)
{
	g_autofree char *what = said(s);
	GString *msg;
	GError *e = NULL;
	gboolean ok;

	if (!(msg = tymail_build(r->setup, s, summary, merge, &e))) {
		lore_err("cannot thank for '%s': %s", what, e->message);
		g_error_free(e);
		worst(r, LORE_EUSAGE);
		return FALSE;
	}
	ok = deliver(r, s, msg);
	g_string_free(msg, TRUE);
	if (!ok) {
		worst(r, LORE_EIO);
		return FALSE;
	}
	r->written++;
	if (r->c->dry_run)
		return TRUE;
	if (!tyfile_retire(s, "sent", &e)) {
		lore_err("the thanks for '%s' is out, but %s", what,
			 e->message);
		g_error_free(e);
		worst(r, LORE_EIO);
		return FALSE;
	}
	ty_queue_mark(r, s->msgid);
	return TRUE;
}

static gboolean
thank(struct ty_run *r, const struct ty_series *s, char *const *ids)
{
	g_autofree char *summary = tymail_summary(r->setup, s, ids);

	say_partial(r, s, ids);
	return thank_with(r, s, summary, NULL);
}

/* where the pull request @s went in the branch; FALSE (reported) when
 * git could not tell */
static gboolean
locate_pr(struct ty_run *r, const struct ty_series *s, gboolean auto_only,
	  struct ty_pr *p)
{
	GError *e = NULL;

	if (typr_locate(s, r->branch, r->setup->myemail, auto_only,
			branch_commits(r), p, &e))
		return TRUE;
	lore_err("%s", e ? e->message : "git cannot read the branch");
	g_clear_error(&e);
	typr_clear(p);
	worst(r, LORE_EUSAGE);
	return FALSE;
}

/* a pull request thanked once the branch has it (-a: if it has it) */
static void
thank_pr(struct ty_run *r, const struct ty_series *s, gboolean auto_only)
{
	g_autofree char *what = said(s), *summary = NULL;
	struct ty_pr p;

	if (!locate_pr(r, s, auto_only, &p))
		return;
	if (p.how == TY_PR_NOT && auto_only) {
		lore_info("  Not merged in %s: %s (%s)", r->branch, what,
			  p.why);
	} else if (p.how == TY_PR_NOT) {
		lore_err("cannot thank for '%s': %s", what, p.why);
		worst(r, LORE_ENOTFOUND);
	} else {
		if (auto_only)
			lore_info("  Located: %s", what);
		if (p.how == TY_PR_PICKED)
			say_partial(r, &p.picked, p.ids);
		summary = typr_summary(r->setup, &p);
		thank_with(r, s, summary, p.merge);
	}
	typr_clear(&p);
}

/* b4 ty -l's lines for a pull request: where the branch has it */
static void
list_pr(struct ty_run *r, const struct ty_series *s)
{
	struct ty_pr p;

	if (!r->setup || !locate_pr(r, s, FALSE, &p))
		return;
	if (p.how == TY_PR_MERGED)
		lore_info("       Merged: merge commit %.12s in %s", p.merge,
			  r->branch);
	else if (p.how == TY_PR_FORWARD)
		lore_info("       Merged: fast-forward to %.12s in %s", p.tip,
			  r->branch);
	else if (p.how == TY_PR_PICKED)
		lore_info("       Applied: %u of %u commits in %s", p.found,
			  p.picked.npatches, r->branch);
	else
		lore_info("       Not merged: %s", p.why);
	typr_clear(&p);
}

/* a series' commits: the file's own (--apply recorded them), else as
 * matched in the branch; NULL (reported) when the branch cannot be read */
static char **
commits_of(struct ty_run *r, const struct ty_series *s, gboolean use_file)
{
	struct ty_branch *b;
	GPtrArray *m;
	guint found;

	if (use_file && s->commits)
		return g_memdup2(s->commits, s->npatches * sizeof(char *));
	if (!(b = branch_commits(r)))
		return NULL;
	m = ty_match(b, s, &found);
	return (char **)g_ptr_array_free(m, FALSE);
}

/* a record that cannot be thanked: one that cannot be read */
static gboolean
refused(struct ty_run *r, const struct ty_series *s)
{
	g_autofree char *path = NULL;

	if (!s->error)
		return FALSE;
	path = lore_term_safe(s->path, -1);
	lore_err("cannot read '%s': %s", path, s->error);
	worst(r, LORE_EUSAGE);
	return TRUE;
}

/* b4 ty -l's lines, and how much of each series the branch holds */
static void
list(struct ty_run *r, GPtrArray *all)
{
	const char *mask = config_get(r->cfg, "linkmask", "linkmask");
	guint i, k, found;

	lore_info("Currently tracking:");
	for (i = 0; i < all->len; i++) {
		const struct ty_series *s = all->pdata[i];
		g_autofree char *subj = said(s), *name = NULL, *email = NULL;
		g_autofree char *date = NULL, *link = NULL;
		g_autofree char **ids = NULL;

		if (s->error) {
			lore_info("%3u: %s: cannot be read: %s", i + 1, subj,
				  s->error);
			continue;
		}
		name = lore_term_safe(s->fromname, -1);
		email = lore_term_safe(s->fromemail, -1);
		date = lore_term_safe(s->sentdate, -1);
		{
			g_autofree char *l = lore_mask_fill(
			    mask ? mask : TY_DEFAULT_LINKMASK, s->msgid);

			link = lore_term_safe(l, -1);
		}
		lore_info("%3u: %s\n       From: %s <%s>\n       Date: %s\n"
			  "       Link: %s",
			  i + 1, subj, name, email, date, link);
		if (s->pr)
			list_pr(r, s);
		if (s->pr || !r->setup || !(ids = commits_of(r, s, FALSE)))
			continue;
		for (k = found = 0; k < s->npatches; k++)
			found += ids[k] != NULL;
		lore_info("       Applied: %s%u of %u patches in %s",
			  found == s->npatches ? "all, " : "", found,
			  s->npatches, r->branch);
	}
}

static void
discard(struct ty_run *r, GPtrArray *all, GArray *picks)
{
	guint i;

	lore_info("Discarding %u messages", picks->len);
	for (i = 0; i < picks->len; i++) {
		const struct ty_series *s =
		    all->pdata[g_array_index(picks, guint, i) - 1];
		g_autofree char *what = said(s);
		GError *e = NULL;

		if (tyfile_retire(s, "discarded", &e)) {
			lore_info("  Discarded: %s", what);
			continue;
		}
		lore_err_take(e);
		worst(r, LORE_EIO);
	}
}

/* -a: every series the branch holds a patch of; -t: the ones picked */
static void
thank_all(struct ty_run *r, GPtrArray *all, GArray *picks)
{
	guint i, k, n = picks ? picks->len : all->len;

	for (i = 0; i < n; i++) {
		const struct ty_series *s =
		    all->pdata[picks ? g_array_index(picks, guint, i) - 1 : i];
		g_autofree char *what = said(s);
		g_autofree char **ids = NULL;
		guint found = 0;

		if (refused(r, s))
			continue;
		if (s->pr) {
			thank_pr(r, s, !picks);
			continue;
		}
		if (!(ids = commits_of(r, s, picks != NULL))) {
			worst(r, LORE_EUSAGE);
			return;
		}
		for (k = 0; k < s->npatches; k++)
			found += ids[k] != NULL;
		if (!picks && !found) {
			lore_info("  Not applied in %s: %s", r->branch, what);
			continue;
		}
		if (!picks)
			lore_info("  Located: %s", what);
		thank(r, s, ids);
	}
}

/* the run's branch and thanks setup; a lore_status, reported */
static int
setup(struct ty_run *r, gboolean need)
{
	GError *e = NULL;

	if (!(r->branch = wanted_branch(r->c, &e)) ||
	    !(r->setup = tymail_setup(r->cfg, r->branch, &e))) {
		if (!need) {
			g_clear_error(&e);
			return LORE_OK;
		}
		lore_err_take(e);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

static int
ty_work(struct ty_run *r)
{
	struct cli *c = r->c;
	g_autofree char *dir = track_dir();
	g_autoptr(GPtrArray) all = NULL;
	GArray *picks = NULL;
	GError *e = NULL;
	const char *spec = c->ty_thank ? c->ty_thank : c->ty_discard;
	int rc = LORE_OK;

	if (!(all = tyfile_list(dir, &e))) {
		lore_err_take(e);
		return LORE_EUSAGE;
	}
	if (!all->len) {
		lore_info("No thanks necessary: no series tracked in %s", dir);
		return LORE_OK;
	}
	if (spec && !(picks = tyfile_pick(spec, all->len, &e))) {
		lore_err("%s %s", c->ty_thank ? "-t" : "-d", e->message);
		g_error_free(e);
		return LORE_EUSAGE;
	}
	if (c->ty_discard) {
		discard(r, all, picks);
	} else if (!c->ty_auto && !c->ty_thank) {
		setup(r, FALSE);
		list(r, all);
	} else if (!(rc = setup(r, TRUE))) {
		if (c->outdir && !c->dry_run && tyout_stale(c->outdir)) {
			lore_err(
			    "'%s' holds .thanks files: send them (or delete "
			    "them) first, as b4 ty asks",
			    c->outdir);
			rc = LORE_EIO;
		} else {
			lore_info("%s in %s",
				  c->ty_auto ? "Finding the applied "
					       "series"
					     : "Thanking",
				  r->branch);
			thank_all(r, all, picks);
		}
	}
	if (picks)
		g_array_free(picks, TRUE);
	worst(r, rc);
	if (r->written && c->outdir && !c->dry_run)
		lore_info("You can now run:\n  git send-email %s/*.thanks",
			  c->outdir);
	if (r->written &&
	    config_get(r->cfg, "pw-accept-state", "pw-accept-state"))
		lore_err("warning: pw-accept-state is not built: patchwork "
			 "keeps its states (b4 ty sets them)");
	return r->rc;
}

static int
ty_main(struct cli *c)
{
	struct ty_run r = {.c = c};
	int rc;

	if (c->ty_gitdir && g_chdir(c->ty_gitdir) != 0) {
		g_autofree char *s = lore_term_safe(c->ty_gitdir, -1);

		lore_err("cannot enter '%s': %s", s, g_strerror(errno));
		return LORE_EUSAGE;
	}
	r.cfg = config_load();
	/* nowhere asked: b4's ty-send-email sends, else NAME.thanks here */
	if (!c->outdir && !c->maildir && !c->ty_send)
		c->ty_send = config_bool(
		    config_get(r.cfg, "ty-send-email", "ty-send-email"));
	if (!c->outdir && !c->maildir && !c->ty_send)
		c->outdir = g_strdup(".");
	rc = ty_work(&r);
	ty_branch_free(r.found);
	tymail_setup_free(r.setup);
	g_free(r.branch);
	config_free(r.cfg);
	return rc;
}

const struct cmd cmd_ty = {"ty", ty_check, ty_main};
