/*
 * after.c - wires the am job to what follows it (b4 am's base checks,
 * b4 shazam): the summary's Base: lines told from the repository
 * (treecheck.h), then --apply (apply.h). Outside a git work tree and
 * without those options it is the am job alone, with no git process.
 */
#include "cli/after.h"
#include "git/amflags.h"
#include "git/apply.h"
#include "git/check.h"
#include "core/gitrun.h"
#include "git/linkcheck.h"
#include "git/mergemsg.h"
#include "git/prep3way.h"
#include "git/rangediff.h"
#include "git/stable.h"
#include "git/track.h"
#include "git/treecheck.h"
#include "queue/queue.h"
#include "cli/queuetag.h"
#include "core/util.h"
#include "write/amsave.h"
#include "write/writer.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_LOOKBACK 14

int
after_precheck(const struct cli *c)
{
	GError *err = NULL;
	int rc;

	/* the option values were checked by the commands (cmd_apply.c) */
	if (!c->apply)
		return LORE_OK;
	rc = apply_precheck(&err);
	if (rc)
		lore_err_take(err);
	return rc;
}

/* --guess-lookback, else lore-am.guess-lookback, else 14 days */
static int
lookback(const struct cli *cl, struct config *cfg)
{
	const char *v = config_get(cfg, "guess-lookback", "guess-lookback");
	guint64 n;

	if (cl->guess_lookback)
		return cl->guess_lookback;
	if (v && g_ascii_string_to_unsigned(v, 10, 1, 3650, &n, NULL))
		return (int)n;
	return DEFAULT_LOOKBACK;
}

/* -g's answer, said as b4 says it; the commit (g_free) or NULL */
static char *
guess(const struct treecheck *tc, const struct cli *cl, struct config *cfg)
{
	guint need = treecheck_needed(tc);
	int matched = 0;
	char *c =
	    treecheck_guess(tc, lookback(cl, cfg),
			    (const char *const *)cl->guess_branch, &matched);

	if (!c) {
		lore_info(" Base: failed to guess base (no commit of the last "
			  "%d days %sholds the files the series starts from)",
			  lookback(cl, cfg),
			  cl->guess_branch ? "on the -b branches " : "");
		return NULL;
	}
	if ((guint)matched == need)
		lore_info(" Base: %s (guessed, exact match: all %u files)", c,
			  need);
	else
		lore_info(" Base: %s (best guess, %d of %u files matched)", c,
			  matched, need);
	return c;
}

/*
 * The Base: lines: the base-commit when this repository has it, else
 * why not, and whether the series applies clean to HEAD; with -g (or
 * for --apply=head/merge) the guessed base. Returns the base to use;
 * *@differ is how many of the files the series starts from differ in
 * HEAD (--apply says it once it knows what git am made of them).
 */
static char *
report_base(const struct treecheck *tc, const struct amjob_result *r,
	    const struct cli *c, struct config *cfg, gboolean want_guess,
	    gboolean with_deps, int *differ)
{
	/* the mbox's files are counted: with --with-deps or --apply, the
	 * prerequisites' patches are in it, before the series' */
	const char *incl =
	    with_deps ? " (the prerequisites' patches included)" : "";
	g_autofree char *b =
	    r->base_commit ? lore_term_safe(r->base_commit, -1) : NULL;
	char *base = NULL;
	guint need = treecheck_needed(tc);
	int known = -1, clean = -1;

	/* git could not be asked (a repository git refuses to read): the
	 * base-commit is taken on trust, as outside a repository */
	if (!treecheck_look(tc, r->base_commit, &known, &clean))
		known = r->base_commit ? 1 : 0;
	if (known > 0) {
		lore_info(" Base: using specified base-commit %s", b);
		base = g_strdup(r->base_commit);
	} else if (b) {
		lore_info(" Base: base-commit %s not known here", b);
	} else {
		lore_info(" Base: not specified");
	}
	if (need && clean >= 0 && (guint)clean == need)
		lore_info("       applies clean to the current tree (HEAD)%s",
			  with_deps ? ", the prerequisites' patches included"
				    : "");
	else if (need && clean >= 0)
		*differ = (int)need - clean;
	/* blob ids compared, not a dry run: git am applies with offsets */
	if (*differ && !c->apply)
		lore_info("       pre-image blobs differ in %d of %u files%s; "
			  "git am may still apply",
			  *differ, need, incl);
	if (!base && (c->guess_base || want_guess))
		base = guess(tc, c, cfg);
	if (base && c->apply == NULL)
		lore_info("       git checkout -b %s %s", r->branch, base);
	if (r->file && c->apply == NULL) {
		g_autofree char *f = lore_term_safe(r->file, -1);

		lore_info("       git am %s", f);
	}
	return base;
}

static char **
merge_flags(struct config *cfg)
{
	const char *v =
	    config_get(cfg, "shazam-merge-flags", "shazam-merge-flags");
	char **argv = NULL;

	/* b4's default: the merge is signed off */
	if (!v)
		v = "--signoff";
	if (!*v || !g_shell_parse_argv(v, NULL, &argv, NULL))
		return g_new0(char *, 1);
	return argv;
}

/* shazam-merge-template (lore-am. or b4.): its text in *@tpl, or NULL
 * for b4's default; a file that cannot be read stops the run (as b4) */
static int
merge_template(struct config *cfg, char **tpl)
{
	const char *v =
	    config_get(cfg, "shazam-merge-template", "shazam-merge-template");
	GError *err = NULL;

	*tpl = NULL;
	if (!v || !*v)
		return LORE_OK;
	if (!(*tpl = mergemsg_template(v, &err))) {
		g_autofree char *s = lore_term_safe(v, -1);
		g_autofree char *why = lore_term_safe(err->message, -1);

		lore_err("shazam-merge-template '%s' cannot be used: %s", s,
			 why);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/* lore-am.track: the file b4 ty reads, once the series is applied
 * (@onto..@tip) or written for the user's git am (@onto NULL) */
static void
track(struct thread *t, const struct amjob_result *r, const struct cli *c,
      const char *onto, const char *tip)
{
	GError *err = NULL;
	g_autofree char *path = track_write(t, r->mbox, r->cover, onto, tip,
					    c->cherry_pick != NULL, &err);

	if (path) {
		g_autofree char *p = lore_term_safe(path, -1);

		lore_info("Tracked for b4 ty: %s", p);
	} else {
		lore_err("warning: no b4 ty tracking file: %s", err->message);
		g_error_free(err);
	}
}

/* The queue's "applied" (queue.h), with the commits it became. */
static void
queue_applied(struct config *cfg, const char *target, const char *onto,
	      const char *tip)
{
	const char *on = config_get(cfg, "queue", NULL);
	g_autofree char *note = g_strdup_printf("%.12s..%.12s", onto, tip);
	GError *err = NULL;

	if (on && !config_bool(on))
		return;
	if (queue_mark_note(target, "applied", note, &err)) {
		lore_err("warning: the queue does not say it applied: %s",
			 err->message);
		g_error_free(err);
	} else {
		/* the notmuch tags move now, not on the next mail */
		g_autoptr(GPtrArray) ids = g_ptr_array_new();

		g_ptr_array_add(ids, (gpointer)target);
		queuetag_move(cfg, ids);
	}
}

/* After --apply onto HEAD: what git am made of the files that differ. */
static void
report_differ(int rc, int differ, guint need)
{
	if (!differ)
		return;
	if (!rc)
		lore_info("       pre-image blobs differed in %d of %u files; "
			  "git am applied the series all the same",
			  differ, need);
	else
		lore_info("       pre-image blobs differ in %d of %u files in "
			  "HEAD",
			  differ, need);
}

static int
do_apply(struct thread *t, const struct treecheck *tc,
	 const struct amjob_result *r, const struct cli *c, struct config *cfg,
	 const char *base, int differ, const char *target)
{
	struct apply_job j = {0};
	g_autofree char *tpl = NULL;
	GError *err = NULL;
	int rc;

	apply_parse_mode(c->apply, &j.mode);
	/* shazam-am-flags (lore-am. or b4.): checked before anything runs */
	j.am_flags = amflags_parse(
	    config_get(cfg, "shazam-am-flags", "shazam-am-flags"), &err);
	if (!j.am_flags) {
		lore_err("%s; nothing applied", err->message);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	if (j.mode == APPLY_MERGE &&
	    (rc = merge_template(cfg, &tpl)) != LORE_OK) {
		g_strfreev(j.am_flags);
		return rc;
	}
	j.merge_template = tpl;
	j.mbox = r->mbox;
	j.cover = r->cover;
	j.base = base;
	j.link = r->link;
	j.patches = tc->patches;
	j.threeway = c->prep_3way;
	j.merge_flags = merge_flags(cfg);
	if (j.mode != APPLY_BRANCH && !base)
		lore_info(" Base: applying on HEAD");
	/* a Ctrl-C from here on is noted, not acted on at once (gitrun.h):
	 * either apply_run() stops before the branch moves, or the branch
	 * has moved and the run ends saying so, with exit 0 */
	gitrun_guard();
	rc = apply_run(&j, &err);
	if (rc) {
		lore_err_take(err);
	} else if (j.mode == APPLY_BRANCH) {
		lore_info(
		    "Applied %u patch%s onto the current branch: %.12s..%.12s",
		    tc->patches, tc->patches == 1 ? "" : "es", j.onto, j.tip);
	} else if (j.mode == APPLY_HEAD) {
		lore_info("Applied %u patch%s on %.12s, left as FETCH_HEAD "
			  "(%.12s); merge or check it out",
			  tc->patches, tc->patches == 1 ? "" : "es", j.onto,
			  j.tip);
	} else {
		lore_info("Applied %u patch%s on %.12s and merged them into "
			  "the current branch",
			  tc->patches, tc->patches == 1 ? "" : "es", j.onto);
	}
	if (j.mode == APPLY_BRANCH || !base)
		report_differ(rc, differ, treecheck_needed(tc));
	if (!rc && gitrun_interrupted())
		lore_err("note: interrupted once the series was applied: it "
			 "stays applied");
	if (!rc && config_bool(config_get(cfg, "track", NULL)))
		track(t, r, c, j.onto, j.tip);
	if (!rc && target)
		queue_applied(cfg, target, j.onto, j.tip);
	/* once applied, the guard stays to the end of the run: a signal
	 * now must not turn the exit status into a failure */
	if (rc)
		gitrun_unguard();
	g_strfreev(j.merge_flags);
	g_strfreev(j.am_flags);
	apply_job_clear(&j);
	return rc;
}

/* b4 am's -M and -Q: the series as a maildir or a quilt folder in -o DIR
 * (amsave.h), named as the mbox would be; -M's cover letter beside it */
static int
save_forms(const struct amjob_result *r, const struct cli *c)
{
	const char *name = c->mbox_name ? c->mbox_name : r->stem;
	g_autofree char *dir =
	    g_strdup_printf("%s/%s.%s", c->outdir, name,
			    c->save_maildir ? "maildir" : "patches");
	g_autofree char *safe = lore_term_safe(dir, -1);
	GError *err = NULL;
	gboolean ok;

	ok = c->save_maildir ? amsave_maildir(r->mbox, dir, &err)
			     : amsave_quilt(r->mbox, dir, &err);
	if (ok && c->save_maildir && r->cover && r->cover->len &&
	    !c->no_cover) {
		g_autofree char *cov =
		    g_strdup_printf("%s/%s.cover", c->outdir, name);

		if (writer_file(cov, r->cover, &err)) {
			g_autofree char *s = lore_term_safe(cov, -1);

			lore_info(" Cover: %s", s);
		} else {
			ok = FALSE;
		}
	}
	if (!ok) {
		int rc = err->code;

		lore_err_take(err);
		return rc;
	}
	lore_info(" %s: %s", c->save_maildir ? "Maildir" : "Quilt", safe);
	return LORE_OK;
}

int
after_am(struct series_set *s, struct amjob_opts *o, const struct cli *c,
	 struct config *cfg)
{
	struct amjob_result r = {0};
	struct treecheck tc = {0};
	g_autofree char *base = NULL, *top = NULL;
	g_autoptr(GPtrArray) stable = NULL;
	gboolean plain;
	int rc;

	if (c->passthrough || o->result)
		return amjob_run(s, o);
	if (c->range_diff) {
		/* a comparison applies nothing: the gate is for what is */
		o->gate.policy = GATE_OFF;
		g_auto(GStrv) extra = rangediff_opts(c->range_diff_opts, NULL);

		return rangediff_run(s, o, c->range_diff,
				     (const char *const *)extra, cfg);
	}
	if (!stable_branches(c->stable, cfg, &stable))
		return LORE_EUSAGE;
	/* --check's verdicts and the branches join the gate's lines: it
	 * says them once they are known (and the JSON says everything) */
	o->gate.later = c->check || stable->len || o->gate.json;
	/* with -q no Base: line is read: no git process for it */
	plain = lore_quiet && !c->apply && !c->check && !c->prep_3way &&
		!stable->len;
	if (!plain) {
		top = treecheck_toplevel();
		/* the gate need not ask git again */
		o->gate.tree_known = TRUE;
		o->gate.in_tree = top != NULL;
	}
	/* outside a work tree, and without those options: the am job's
	 * own Base: lines, no git process */
	plain = plain || (!top && !c->apply && !c->check);
	o->result = &r;
	o->hold = c->apply != NULL;
	if (c->save_maildir) {
		/* -M: a maildir in the mbox file's place */
		o->outdir = NULL;
		o->hold = TRUE;
	}
	o->base_later = !plain && top != NULL;
	rc = amjob_run(s, o);
	o->result = NULL;
	o->outdir = c->outdir;
	if (!rc && r.mbox && (c->save_maildir || c->quilt))
		rc = save_forms(&r, c);
	if (rc || !r.mbox)
		goto out;
	/* what git am would apply without a word */
	linkcheck_report(r.mbox);
	if (stable->len && !top)
		lore_err("--stable: not in a git tree; no branch tried");
	if (plain)
		goto out;
	treecheck_parse(&tc, r.mbox);
	{
		enum apply_mode mode = APPLY_NONE;
		int differ = 0;

		if (c->apply)
			apply_parse_mode(c->apply, &mode);
		if (top)
			base = report_base(
			    &tc, &r, c, cfg,
			    mode == APPLY_HEAD || mode == APPLY_MERGE,
			    o->deps_mbox && o->deps_mbox->len, &differ);
		if (c->merge_base) {
			g_autofree char *m = lore_term_safe(c->merge_base, -1);

			/* b4 shazam's --merge-base: the user's word wins */
			lore_info(" Base: %s (--merge-base)", m);
			g_free(base);
			base = g_strdup(c->merge_base);
		}
		if (c->check)
			check_run(r.mbox, top, cfg, r.gate_held);
		if (stable->len)
			stable_run(r.gate_held, r.mbox, stable);
		if (c->prep_3way && top)
			prep3way_run(r.mbox);
		if (mode != APPLY_NONE)
			rc = do_apply(s->thread, &tc, &r, c, cfg, base, differ,
				      o->target);
	}
out:
	/* as b4 am does, but never for a part of a series (the notmuch
	 * hook writes those with --allow-incomplete to tag the thread) */
	if (!rc && r.mbox && !c->apply && r.present == r.expected &&
	    config_bool(config_get(cfg, "track", NULL)))
		track(s->thread, &r, c, NULL, NULL);
	gate_report(r.gate_held, rc);
	treecheck_clear(&tc);
	amjob_result_clear(&r);
	return rc;
}
