/*
 * rangediff.c - b4 diff's job with git as the engine: the am job run once
 * per revision (use_version), each result applied by `git am` in its own
 * temporary worktree on its base-commit (or the guessed base, else HEAD),
 * both revisions at the same time (applypair.h),
 * on a small tree of the files it touches (smalltree.h: the commits are
 * not made again on the full tree, their diffs are the same there), then
 * `git range-diff OLD_START..OLD NEW_START..NEW`. When a revision does
 * not apply, the patches' mails are compared instead, paired by title
 * (`git diff --no-index`), so a re-roll that reorders or drops patches
 * still reads right.
 */
#include "git/rangediff.h"
#include "git/apply.h"
#include "git/applypair.h"
#include "core/gitrun.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "series/series.h"
#include "mail/subject.h"
#include "git/tmpwt.h"
#include "git/treecheck.h"
#include "core/util.h"
#include "write/writer.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gboolean
parse_rev(const char *s, int *rev)
{
	guint64 n;

	if (!g_ascii_string_to_unsigned(s + (*s == 'v'), 10, 1, G_MAXINT, &n,
					NULL))
		return FALSE;
	*rev = (int)n;
	return TRUE;
}

gboolean
rangediff_parse(const char *spec, int *old_rev, int *new_rev)
{
	g_auto(GStrv) parts = NULL;

	*old_rev = *new_rev = 0;
	if (!spec || !*spec)
		return TRUE;
	parts = g_strsplit(spec, "..", 2);
	if (!parts[0] || !parts[1] || !parse_rev(parts[0], old_rev) ||
	    (*parts[1] && !parse_rev(parts[1], new_rev)) ||
	    *old_rev == *new_rev) {
		*old_rev = *new_rev = 0;
		return FALSE;
	}
	return TRUE;
}

/*
 * The default pair: the latest revision and the one before it; with only
 * @old_rev given, that one and the latest.
 */
static int
default_pair(struct series_set *s, int *old_rev, int *new_rev)
{
	GArray *revs = series_revisions(s);
	int rc = LORE_OK;

	if (*old_rev && revs->len) {
		*new_rev = g_array_index(revs, int, revs->len - 1);
		if (*new_rev == *old_rev) {
			lore_err("--range-diff: v%d is the latest revision: "
				 "nothing newer to compare it with",
				 *old_rev);
			rc = LORE_ENOTFOUND;
		}
	} else if (revs->len < 2) {
		if (revs->len)
			lore_err("--range-diff: the thread holds only revision "
				 "v%d: nothing to compare",
				 g_array_index(revs, int, 0));
		else
			lore_err(
			    "--range-diff: no patches found in the thread");
		rc = LORE_ENOTFOUND;
	} else {
		*new_rev = g_array_index(revs, int, revs->len - 1);
		*old_rev = g_array_index(revs, int, revs->len - 2);
	}
	g_array_unref(revs);
	return rc;
}

/* One revision as the am job writes it, its summary kept quiet. */
static int
build(struct series_set *s, struct amjob_opts *o, int rev,
      struct amjob_result *r)
{
	int quiet = lore_quiet, rc;

	o->use_version = rev;
	o->result = r;
	o->hold = TRUE;
	o->base_later = TRUE;
	lore_quiet = 1;
	rc = amjob_run(s, o);
	lore_quiet = quiet;
	o->result = NULL;
	if (!rc && !r->mbox)
		rc = LORE_ENOTFOUND;
	return rc;
}

/* Where revision @r goes: its base-commit, the guessed base, or HEAD. */
static char *
choose_base(const struct amjob_result *r, struct config *cfg)
{
	const char *v = config_get(cfg, "guess-lookback", "guess-lookback");
	struct treecheck tc;
	int matched, days = v ? atoi(v) : 0;
	char *base;

	if (r->base_commit && treecheck_commit_known(r->base_commit) > 0)
		return g_strdup(r->base_commit);
	treecheck_parse(&tc, r->mbox);
	base = treecheck_guess(&tc, days > 0 ? days : 14, NULL, &matched);
	treecheck_clear(&tc);
	return base ? base : g_strdup("HEAD");
}

/* Revision @r's trial run on its base (*@base, g_free) */
static void
rev_job(const struct amjob_result *r, struct config *cfg, struct apply_job *j,
	char **base)
{
	*base = choose_base(r, cfg);
	memset(j, 0, sizeof(*j));
	j->mode = APPLY_NONE;
	j->mbox = r->mbox;
	j->base = *base;
}

/* What the trial run of revision @r gave; FALSE when it did not apply. */
static gboolean
rev_said(const struct amjob_result *r, const struct apply_job *j, int rc,
	 GError *err)
{
	if (rc == LORE_OK) {
		lore_info("v%d: applied on %.12s", r->revision, j->onto);
		return TRUE;
	}
	lore_info("v%d does not apply: %s", r->revision,
		  err ? err->message : "git am failed");
	return FALSE;
}

/* b4 diff's -n, -o FILE and -c (rangediff_set_show()) */
static struct rangediff_show show;

void
rangediff_set_show(const struct rangediff_show *s)
{
	show = *s;
}

/* colored on a terminal, or asked for (-c); a file only with -c */
/* Both revisions applied at the same time (applypair.h); FALSE when
 * either does not apply (said as when the second was tried after the
 * first: nothing about the second when the first fails). */
static gboolean
apply_both(const struct amjob_result *ro, const struct amjob_result *rn,
	   struct config *cfg, struct apply_job *jo, struct apply_job *jn)
{
	g_autofree char *bo = NULL, *bn = NULL;
	GError *eo = NULL, *en = NULL;
	int rco, rcn;
	gboolean ok;

	rev_job(ro, cfg, jo, &bo);
	rev_job(rn, cfg, jn, &bn);
	applypair_run(jo, &rco, &eo, jn, &rcn, &en);
	ok = rev_said(ro, jo, rco, eo) && rev_said(rn, jn, rcn, en);
	g_clear_error(&eo);
	g_clear_error(&en);
	jo->base = jn->base = NULL;
	return ok;
}

static const char *
color_arg(void)
{
	if (show.color)
		return "--color=always";
	return !show.output && isatty(STDOUT_FILENO) ? "--color=always"
						     : "--no-color";
}

/* the comparison on stdout, or into -o FILE, replaced whole */
static gboolean
emit(const GString *out, GError **err)
{
	return show.output ? writer_file(show.output, out, err)
			   : writer_stdout(out, err);
}

/* a write's failure (@ok FALSE, *@err set) said; its status, or LORE_OK */
static int
said(gboolean ok, GError **err)
{
	int rc;

	if (ok)
		return LORE_OK;
	lore_err("%s", (*err)->message);
	rc = (*err)->code;
	g_clear_error(err);
	return rc;
}

/* What --range-diff-opts may pass: options that change what is shown. */
static const char *const shown_flags[] = {
    "--no-dual-color",
    "--left-only",
    "--right-only",
    "--no-notes",
    "--stat",
    "--no-stat",
    "--word-diff",
    "--no-color",
    "--color",
    "--minimal",
    "--patience",
    "--histogram",
    "--ignore-space-change",
    "--ignore-all-space",
    "--ignore-blank-lines",
    "--ignore-space-at-eol",
    "--ignore-cr-at-eol",
    "-w",
    "-b",
    "--no-abbrev",
    "--full-index",
    "--indent-heuristic",
    "--no-indent-heuristic",
    "--color-moved",
    "--no-color-moved",
    "--function-context",
    "-W",
};
/* ... and those with a value (after '='), a plain word */
static const char *const shown_valued[] = {
    "--creation-factor",
    "--word-diff",
    "--color",
    "--color-moved",
    "--color-moved-ws",
    "--diff-algorithm",
    "--abbrev",
    "--unified",
    "--stat",
    "--inter-hunk-context",
};

#define RANGEDIFF_MAX_OPTS 16

static gboolean
plain_word(const char *v)
{
	return *v && strlen(v) <= 64 &&
	       strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789,_-") == strlen(v);
}

static gboolean
shown_only(const char *a)
{
	const char *eq = strchr(a, '=');
	guint i;

	for (i = 0; !eq && i < G_N_ELEMENTS(shown_flags); i++)
		if (!strcmp(a, shown_flags[i]))
			return TRUE;
	for (i = 0; eq && i < G_N_ELEMENTS(shown_valued); i++)
		if (strlen(shown_valued[i]) == (gsize)(eq - a) &&
		    !strncmp(a, shown_valued[i], eq - a))
			return plain_word(eq + 1);
	/* -U<n>: the lines of context */
	return a[0] == '-' && a[1] == 'U' && a[2] && strlen(a) <= 6 &&
	       strspn(a + 2, "0123456789") == strlen(a + 2);
}

char **
rangediff_opts(const char *text, GError **err)
{
	char **argv = NULL;
	GError *e = NULL;
	int argc = 0, i;

	if (!text)
		return NULL;
	if (!*text)
		return g_new0(char *, 1);
	if (!g_shell_parse_argv(text, &argc, &argv, &e)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "--range-diff-opts: %s", e->message);
		g_error_free(e);
		return NULL;
	}
	if (argc > RANGEDIFF_MAX_OPTS) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "--range-diff-opts: %d options are more than %d",
			    argc, RANGEDIFF_MAX_OPTS);
		g_strfreev(argv);
		return NULL;
	}
	for (i = 0; i < argc; i++) {
		if (!shown_only(argv[i])) {
			g_autofree char *s = lore_term_safe(argv[i], -1);

			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "--range-diff-opts: '%s' is not an option "
				    "of what git range-diff shows",
				    s);
			g_strfreev(argv);
			return NULL;
		}
	}
	return argv;
}

static int
range_diff(struct apply_job *a, struct apply_job *b, const char *const *extra)
{
	g_autofree char *r1 = g_strdup_printf("%s..%s", a->from, a->tip);
	g_autofree char *r2 = g_strdup_printf("%s..%s", b->from, b->tip);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	GError *err = NULL;
	int rc = LORE_OK;

	if (show.no_diff) {
		/* b4 diff -n: the command, its commits kept in the repository
		 * (unreferenced, as b4 leaves them, until git gc prunes) */
		g_string_printf(out, "git range-diff %s %s\n", r1, r2);
		rc = said(writer_stdout(out, &err), &err);
		g_string_free(out, TRUE);
		g_string_free(e, TRUE);
		return rc;
	}
	g_ptr_array_add(argv, "range-diff");
	g_ptr_array_add(argv, (gpointer)color_arg());
	for (; extra && *extra; extra++)
		g_ptr_array_add(argv, (gpointer)*extra);
	g_ptr_array_add(argv, r1);
	g_ptr_array_add(argv, r2);
	g_ptr_array_add(argv, NULL);
	if (gitrun(NULL, (const char *const *)argv->pdata, NULL, 0, out, e,
		   NULL) != 0) {
		g_autofree char *why = lore_term_safe(e->str, -1);

		lore_err("git range-diff failed: %s", g_strchomp(why));
		rc = LORE_ENOTFOUND;
	} else {
		rc = said(emit(out, &err), &err);
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

/* The mails of one revision: title -> body, and the titles in order. */
struct mails {
	GPtrArray *titles;
	GHashTable *body; /* title -> message body (owned) */
};

static void
add_mail(const char *msg, size_t len, void *data)
{
	struct mails *m = data;
	struct message *p = message_parse(msg, len, NULL);
	struct subject s;

	if (!p)
		return;
	subject_parse(p->subject ? p->subject : "", &s);
	if (!g_hash_table_contains(m->body, s.title)) {
		g_ptr_array_add(m->titles, g_strdup(s.title));
		g_hash_table_insert(m->body, g_strdup(s.title),
				    g_strdup(message_body(p)));
	}
	subject_clear(&s);
	message_free(p);
}

static void
mails_load(struct mails *m, const GString *mbox)
{
	m->titles = g_ptr_array_new_with_free_func(g_free);
	m->body =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	mbox_split(mbox->str, mbox->len, add_mail, m);
}

static void
mails_clear(struct mails *m)
{
	g_ptr_array_free(m->titles, TRUE);
	g_hash_table_destroy(m->body);
}

/* git diff --no-index of two texts, labelled by their revision */
static void
diff_texts(GString *out, const char *dir, const char *a, const char *b)
{
	g_autofree char *fa = g_build_filename(dir, "old", NULL);
	g_autofree char *fb = g_build_filename(dir, "new", NULL);
	const char *const argv[] = {"diff", "--no-index", color_arg(),
				    "old",  "new",	  NULL};
	GString *e = g_string_new(NULL);

	if (g_file_set_contents(fa, a ? a : "", -1, NULL) &&
	    g_file_set_contents(fb, b ? b : "", -1, NULL))
		gitrun(dir, argv, NULL, 0, out, e, NULL);
	g_unlink(fa);
	g_unlink(fb);
	g_string_free(e, TRUE);
}

static int
interdiff(const struct amjob_result *ro, const struct amjob_result *rn)
{
	struct mails mo, mn;
	GString *out = g_string_new(NULL);
	struct tmpwt w = {NULL, NULL};
	const char *dir;
	GError *err = NULL;
	guint i;
	int rc = LORE_OK;

	tmpwt_sweep(FALSE);
	if (!(dir = w.dir = tmpwt_make_dir("interdiff", &err))) {
		lore_err("cannot make a temporary folder: %s", err->message);
		g_error_free(err);
		g_string_free(out, TRUE);
		return LORE_EIO;
	}
	mails_load(&mo, ro->mbox);
	mails_load(&mn, rn->mbox);
	g_string_append_printf(
	    out, "Patch by patch, the mails of v%d against v%d:\n",
	    ro->revision, rn->revision);
	for (i = 0; i < mn.titles->len; i++) {
		const char *t = mn.titles->pdata[i];
		const char *old = g_hash_table_lookup(mo.body, t);
		g_autofree char *st = lore_term_safe(t, -1);

		if (!old) {
			g_string_append_printf(out, "\n+++ new in v%d: %s\n",
					       rn->revision, st);
			continue;
		}
		if (!strcmp(old, g_hash_table_lookup(mn.body, t))) {
			g_string_append_printf(out, "\n=== unchanged: %s\n",
					       st);
			continue;
		}
		g_string_append_printf(out, "\n!!! changed: %s\n", st);
		diff_texts(out, dir, old, g_hash_table_lookup(mn.body, t));
	}
	for (i = 0; i < mo.titles->len; i++) {
		const char *t = mo.titles->pdata[i];
		g_autofree char *st = lore_term_safe(t, -1);

		if (!g_hash_table_contains(mn.body, t))
			g_string_append_printf(out,
					       "\n--- dropped in v%d: %s\n",
					       rn->revision, st);
	}
	rc = said(emit(out, &err), &err);
	tmpwt_remove(&w);
	mails_clear(&mo);
	mails_clear(&mn);
	g_string_free(out, TRUE);
	return rc;
}

/* Both built: range-diff when both apply here, else the mails' diff. */
static int
compare(struct amjob_result *ro, struct amjob_result *rn,
	const char *const *extra, struct config *cfg)
{
	struct apply_job jo = {0}, jn = {0};
	g_autofree char *top = treecheck_toplevel();
	int rc;

	if (!top)
		lore_info(
		    "not in a git work tree: the revisions are not applied");
	if (top && apply_both(ro, rn, cfg, &jo, &jn)) {
		rc = range_diff(&jo, &jn, extra);
	} else if (show.no_diff) {
		lore_err("--no-diff: v%d and v%d do not both apply %s: no git "
			 "range-diff to give",
			 ro->revision, rn->revision,
			 top ? "here" : "outside a git work tree");
		rc = LORE_ENOTFOUND;
	} else {
		rc = interdiff(ro, rn);
	}
	apply_job_clear(&jo);
	apply_job_clear(&jn);
	return rc;
}

int
rangediff_run(struct series_set *s, struct amjob_opts *o, const char *spec,
	      const char *const *extra, struct config *cfg)
{
	struct amjob_result ro = {0}, rn = {0};
	int old_rev, new_rev, rc;

	rangediff_parse(spec, &old_rev, &new_rev);
	if (!new_rev && (rc = default_pair(s, &old_rev, &new_rev)))
		return rc;
	if ((rc = build(s, o, old_rev, &ro)) ||
	    (rc = build(s, o, new_rev, &rn)))
		goto out;
	lore_info("Comparing v%d (%u patch%s) with v%d (%u patch%s)", old_rev,
		  (guint)ro.present, ro.present == 1 ? "" : "es", new_rev,
		  (guint)rn.present, rn.present == 1 ? "" : "es");
	rc = compare(&ro, &rn, extra, cfg);
out:
	amjob_result_clear(&ro);
	amjob_result_clear(&rn);
	return rc;
}

/* One am-ready mbox as a revision: its bytes and how many mails. */
static void
count_mail(const char *msg, size_t len, void *data)
{
	struct message *m = message_parse(msg, len, NULL);

	if (m && m->subject)
		(*(int *)data)++;
	message_free(m);
}

static int
load_mbox(const char *path, int rev, struct amjob_result *r)
{
	GError *err = NULL;
	GBytes *b = mbox_slurp(path, LORE_MAX_MESSAGE, &err);
	gsize n;
	const char *p;

	if (!b) {
		lore_err("%s", err->message);
		g_error_free(err);
		return LORE_EUSAGE;
	}
	p = g_bytes_get_data(b, &n);
	r->revision = rev;
	r->mbox = g_string_new_len(p, n);
	g_bytes_unref(b);
	mbox_split(r->mbox->str, r->mbox->len, count_mail, &r->present);
	if (!r->present) {
		g_autofree char *s = lore_term_safe(path, -1);

		lore_err("'%s' holds no mail to compare", s);
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

int
rangediff_mboxes(const char *old_path, const char *new_path,
		 const char *const *extra, struct config *cfg)
{
	struct amjob_result ro = {0}, rn = {0};
	g_autofree char *a = lore_term_safe(old_path, -1);
	g_autofree char *b = lore_term_safe(new_path, -1);
	int rc;

	if (!(rc = load_mbox(old_path, 1, &ro)) &&
	    !(rc = load_mbox(new_path, 2, &rn))) {
		lore_info("Comparing '%s' (v1 here, %d patch%s) with '%s' (v2 "
			  "here, %d patch%s)",
			  a, ro.present, ro.present == 1 ? "" : "es", b,
			  rn.present, rn.present == 1 ? "" : "es");
		rc = compare(&ro, &rn, extra, cfg);
	}
	amjob_result_clear(&ro);
	amjob_result_clear(&rn);
	return rc;
}
