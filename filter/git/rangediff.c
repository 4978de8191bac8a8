/*
 * rangediff.c - b4 diff's job with git as the engine: the am job run once
 * per revision (use_version), each result applied by `git am` on its
 * base-commit (or the guessed base, else HEAD), both revisions at the
 * same time on one small tree of the files they touch, each in a git
 * folder of its own (rdtrial.h; when that cannot tell, each in its own
 * temporary worktree, applypair.h and apply.h), then `git range-diff
 * OLD_START..OLD NEW_START..NEW` (the small tree's commits: their diffs
 * are the full tree's). A revision that fits none of those is applied on
 * the blobs its patches' index lines name, as b4 diff does (rdfake.h);
 * when one of those cannot be had, there is no range-diff to give. When
 * a revision does not apply, the patches' mails are compared instead,
 * paired by title (`git diff --no-index`), so a re-roll that reorders or
 * drops patches still reads right.
 */
#include "git/rangediff.h"
#include "git/apply.h"
#include "git/applypair.h"
#include "git/rdtrial.h"
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

/* The guessed base of revision @r (g_free), or NULL. */
static char *
guess_base(const struct amjob_result *r, struct config *cfg)
{
	const char *v = config_get(cfg, "guess-lookback", "guess-lookback");
	struct treecheck tc;
	int matched, days = v ? atoi(v) : 0;
	char *base;

	treecheck_parse(&tc, r->mbox);
	base = treecheck_guess(&tc, days > 0 ? days : 14, NULL, &matched);
	treecheck_clear(&tc);
	return base;
}

/*
 * Where each revision goes: its base-commit, the guessed base, or HEAD,
 * as full ids where git knows them (one cat-file for the base-commits and
 * HEAD), into the jobs @j[] (base: g_free).
 */
static void
choose_bases(const struct amjob_result *const r[2], struct config *cfg,
	     struct apply_job j[2])
{
	const char *names[3];
	g_autoptr(GPtrArray) ids = NULL;
	const char *head;
	guint i;

	for (i = 0; i < 2; i++)
		names[i] = r[i]->base_commit ? r[i]->base_commit : "";
	names[2] = "HEAD";
	ids = treecheck_commit_ids(names, 3);
	head = ids && ids->pdata[2] ? ids->pdata[2] : "HEAD";
	for (i = 0; i < 2; i++) {
		const char *base = *names[i] && ids ? ids->pdata[i] : NULL;

		memset(&j[i], 0, sizeof(j[i]));
		j[i].mode = APPLY_NONE;
		j[i].mbox = r[i]->mbox;
		if (!(j[i].base = g_strdup(base)) &&
		    !(j[i].base = guess_base(r[i], cfg)))
			j[i].base = g_strdup(head);
	}
}

/* a revision that does not apply here: its mails are compared instead */
#define NOT_APPLIED (-1)

/* What the trial run of revision @r gave: LORE_OK, NOT_APPLIED, or
 * LORE_ENOTFOUND when no base could be made for it (said). */
static int
rev_said(const struct amjob_result *r, const struct apply_job *j, int rc,
	 GError *err)
{
	if (rc == LORE_OK && !j->onto) {
		lore_info("v%d: applied on the blobs its patches start from "
			  "(%.12s: it fits no commit here)",
			  r->revision, j->from);
		return LORE_OK;
	}
	if (rc == LORE_OK) {
		lore_info("v%d: applied on %.12s", r->revision, j->onto);
		return LORE_OK;
	}
	if (rc == RDTRIAL_NOBASE) {
		lore_err("--range-diff: v%d fits no commit here, and %s: the "
			 "range-diff cannot be made",
			 r->revision, err ? err->message : "?");
		return LORE_ENOTFOUND;
	}
	lore_info("v%d does not apply: %s", r->revision,
		  err ? err->message : "git am failed");
	return NOT_APPLIED;
}

/* b4 diff's -n, -o FILE and -c (rangediff_set_show()) */
static struct rangediff_show show;

void
rangediff_set_show(const struct rangediff_show *s)
{
	show = *s;
}

/* After rdtrial_run(): the revisions it could not try, or that git am
 * refused on the small tree, tried by apply_run(), two at once */
static void
slow_ones(struct apply_job j[2], int rc[2], GError *e[2])
{
	gboolean slow[2];
	guint i;

	for (i = 0; i < 2; i++) {
		slow[i] = rc[i] == RDTRIAL_SLOW || rc[i] == RDTRIAL_FULL;
		j[i].full_tree = rc[i] == RDTRIAL_FULL;
		if (slow[i])
			g_clear_error(&e[i]);
	}
	if (slow[0] && slow[1])
		applypair_run(NULL, &j[0], NULL, &rc[0], &e[0], &j[1], NULL,
			      &rc[1], &e[1]);
	for (i = 0; i < 2 && !(slow[0] && slow[1]); i++)
		if (slow[i])
			rc[i] = apply_run(&j[i], &e[i]);
}

/* Both revisions applied at the same time (rdtrial.h, else applypair.h):
 * LORE_OK, NOT_APPLIED or LORE_ENOTFOUND (rev_said(); said as when the
 * second was tried after the first: nothing about the second when the
 * first fails). */
static int
apply_both(const char *top, const struct amjob_result *ro,
	   const struct amjob_result *rn, struct config *cfg,
	   struct apply_job j[2])
{
	const struct amjob_result *const r[2] = {ro, rn};
	GError *e[2] = {NULL, NULL};
	int rc[2], st;
	guint i;

	choose_bases(r, cfg, j);
	rdtrial_run(top, &j[0], &rc[0], &e[0], &j[1], &rc[1], &e[1]);
	if (rc[0] == RDTRIAL_NOBASE || rc[1] == RDTRIAL_NOBASE) {
		/* no range-diff whatever the other gives: no slow run */
		i = rc[0] == RDTRIAL_NOBASE ? 0 : 1;
		st = rev_said(r[i], &j[i], rc[i], e[i]);
	} else {
		slow_ones(j, rc, e);
		if ((st = rev_said(ro, &j[0], rc[0], e[0])) == LORE_OK)
			st = rev_said(rn, &j[1], rc[1], e[1]);
	}
	g_clear_error(&e[0]);
	g_clear_error(&e[1]);
	g_free((char *)j[0].base);
	g_free((char *)j[1].base);
	j[0].base = j[1].base = NULL;
	return st;
}

/* colored on a terminal, or asked for (-c); a file only with -c */
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
	return ok ? LORE_OK : lore_err_take(g_steal_pointer(err));
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
	struct apply_job j[2] = {{0}, {0}};
	g_autofree char *top = treecheck_toplevel();
	int rc = NOT_APPLIED;

	if (!top)
		lore_info(
		    "not in a git work tree: the revisions are not applied");
	else
		rc = apply_both(top, ro, rn, cfg, j);
	if (rc == LORE_OK) {
		rc = range_diff(&j[0], &j[1], extra);
	} else if (rc != NOT_APPLIED) {
		/* no base for a revision: said, nothing to compare */
	} else if (show.no_diff) {
		lore_err("--no-diff: v%d and v%d do not both apply %s: no git "
			 "range-diff to give",
			 ro->revision, rn->revision,
			 top ? "here" : "outside a git work tree");
		rc = LORE_ENOTFOUND;
	} else {
		rc = interdiff(ro, rn);
	}
	apply_job_clear(&j[0]);
	apply_job_clear(&j[1]);
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
		lore_err_take(err);
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
