/*
 * apply.c - git is the engine (b4 shazam's way): a temporary worktree at
 * the base (tmpwt.h: `git worktree add --no-checkout --detach`, locked),
 * `git am` there on a tree of only the files the series touches
 * (smalltree.h: an index of a few entries, not the kernel's 8 MB written
 * twice a patch), the commits made again on the base's full tree by one
 * fast-import (replay.h), then a fast-forward (fastfwd.h),
 * FETCH_HEAD or a merge in the user's tree (by plumbing, mergeplumb.h,
 * when `git merge --no-ff` would make the same commit, else by it), with
 * signals held (gitrun_hold()) so that it happens whole or not at all. When the
 * small tree cannot stand for the full one (a touched path is a folder there,
 * a signed commit) or am fails there, the series is applied again in a
 * sparse checkout of the full index, whose verdict is the one given. The user's
 * work tree is touched only once the series has applied in full; a failed merge
 * is aborted.
 */
#include "git/apply.h"
#include "core/gitrun.h"
#include "core/gitwait.h"
#include "git/applypre.h"
#include "git/fastfwd.h"
#include "git/mergemsg.h"
#include "git/mergeplumb.h"
#include "git/replay.h"
#include "git/smalltree.h"
#include "git/tmpwt.h"
#include "core/util.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

gboolean
apply_parse_mode(const char *s, enum apply_mode *mode)
{
	if (!s || !*s || !strcmp(s, "branch"))
		*mode = APPLY_BRANCH;
	else if (!strcmp(s, "head"))
		*mode = APPLY_HEAD;
	else if (!strcmp(s, "merge"))
		*mode = APPLY_MERGE;
	else
		return FALSE;
	return TRUE;
}

static int fail(GError **err, int code, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static int
fail(GError **err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_set_error_literal(err, LORE_ERROR, code, "");
	g_free((*err)->message);
	(*err)->message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return code;
}

/* "Patch failed at 0002 subject" (on git am's stdout) names the patch;
 * git's reason is on its stderr */
static int
am_failed(const GString *out, const GString *am_err, GError **err)
{
	GString *e = tmpwt_am_errors(am_err);
	g_autofree char *reason = gitrun_reason(e->len ? e : out);
	const char *at = strstr(out->str, "Patch failed at ");
	g_autofree char *line = NULL, *which = NULL;

	if (!at)
		at = strstr(e->str, "Patch failed at ");
	if (at) {
		char *sp;

		line = gitrun_first_line(at + 16);
		if ((sp = strchr(line, ' ')))
			*sp++ = '\0';
		which = sp ? lore_term_safe(sp, -1) : NULL;
		if (which) {
			char *n = g_strdup_printf("%s \"%s\"", line, which);

			g_free(which);
			which = n;
		} else {
			which = lore_term_safe(line, -1);
		}
	}
	g_string_free(e, TRUE);
	return fail(err, LORE_ENOTFOUND,
		    "git am failed at patch %s: %s; nothing applied",
		    which ? which : "?", reason);
}

/* git's settings for a worktree of only the series' files (see sparse()) */
#define SPARSE_ON                                                              \
	"-c", "core.sparseCheckout=true", "-c",                                \
	    "core.sparseCheckoutCone=false", "-c",                             \
	    "sparse.expectFilesOutsideOfPatterns=true"

static int
in_worktree(struct apply_job *j, const char *wt, gboolean sparse, GError **err)
{
	static const char *const sparse_on[] = {SPARSE_ON};
	static const char *const am_config[] = {TMPWT_AM_CONFIG};
	const char *const tip[] = {"rev-parse", "HEAD", NULL};
	GPtrArray *am = g_ptr_array_new();
	guint i;
	GString *e = g_string_new(NULL), *out = g_string_new(NULL);
	int rc = LORE_OK, st;

	for (i = 0; sparse && i < G_N_ELEMENTS(sparse_on); i++)
		g_ptr_array_add(am, (char *)sparse_on[i]);
	for (i = 0; i < G_N_ELEMENTS(am_config); i++)
		g_ptr_array_add(am, (char *)am_config[i]);
	g_ptr_array_add(am, "am");
	if (j->threeway)
		g_ptr_array_add(am, "-3");
	g_ptr_array_add(am, "--quiet");
	for (i = 0; j->am_flags && j->am_flags[i]; i++)
		g_ptr_array_add(am, j->am_flags[i]);
	g_ptr_array_add(am, NULL);
	st = gitrun(wt, (const char *const *)am->pdata, j->mbox->str,
		    j->mbox->len, out, e, err);
	g_ptr_array_free(am, TRUE);
	if (gitrun_interrupted()) {
		g_clear_error(err);
		rc = fail(err, LORE_ENOTFOUND, "interrupted; nothing applied");
	} else if (st < 0)
		rc = LORE_ENOTFOUND;
	else if (st)
		rc = am_failed(out, e, err);
	else if (!(j->tip = gitrun_line(wt, tip)))
		rc = fail(err, LORE_ENOTFOUND,
			  "git am left no commit; nothing applied");
	g_string_free(e, TRUE);
	g_string_free(out, TRUE);
	return rc;
}

/*
 * The files the series touches (smalltree_paths()) as sparse-checkout
 * patterns (non-cone: one anchored, escaped path a line). NULL, for a
 * whole checkout, when a path holds a control character no pattern line
 * can carry.
 */
static GString *
sparse_patterns(const GPtrArray *paths)
{
	GString *pat = g_string_new(NULL);
	const char *p;
	guint i;

	for (i = 0; i < paths->len; i++) {
		g_string_append_c(pat, '/');
		for (p = paths->pdata[i]; *p; p++) {
			if ((guchar)*p < 0x20 || *p == 0x7f) {
				g_string_free(pat, TRUE);
				return NULL;
			}
			if (strchr("\\*?[ ", *p))
				g_string_append_c(pat, '\\');
			g_string_append_c(pat, *p);
		}
		g_string_append_c(pat, '\n');
	}
	return pat;
}

/*
 * A worktree of only the series' files (b4 checks out a sparse one too):
 * the patterns go into the worktree's own info/sparse-checkout, and the
 * sparse settings are given to each git command, never written into the
 * repository's config (`git sparse-checkout` would turn on
 * extensions.worktreeConfig there). FALSE: check out the whole tree.
 */
static gboolean
sparse(const char *wt, const GString *pat)
{
	const char *const where[] = {"rev-parse", "--git-path",
				     "info/sparse-checkout", NULL};
	const char *const fill[] = {SPARSE_ON, "read-tree", "-mu", "HEAD",
				    NULL};
	g_autofree char *file = gitrun_line(wt, where), *path = NULL,
			*dir = NULL;
	GString *e;
	int st;

	if (!file)
		return FALSE;
	path = g_path_is_absolute(file) ? g_strdup(file)
					: g_build_filename(wt, file, NULL);
	dir = g_path_get_dirname(path);
	if (g_mkdir_with_parents(dir, 0777) != 0 ||
	    !g_file_set_contents(path, pat->str, pat->len, NULL))
		return FALSE;
	e = g_string_new(NULL);
	st = gitrun(wt, fill, NULL, 0, NULL, e, NULL);
	g_string_free(e, TRUE);
	return st == 0;
}

/* FETCH_HEAD as b4 leaves it: the tip and where the patches came from */
static int
write_fetch_head(struct apply_job *j, GError **err)
{
	const char *const where[] = {"rev-parse", "--git-path", "FETCH_HEAD",
				     NULL};
	g_autofree char *path = gitrun_line(NULL, where), *text = NULL;
	GError *e = NULL;

	if (!path)
		return fail(err, LORE_EIO, "cannot find FETCH_HEAD's file");
	text = g_strdup_printf("%s\t\t%s from %s\n", j->tip,
			       j->patches > 1 ? "patches" : "patch",
			       j->link ? j->link : "lore-am");
	if (!g_file_set_contents(path, text, -1, &e)) {
		fail(err, LORE_EIO, "cannot write FETCH_HEAD: %s", e->message);
		g_error_free(e);
		return LORE_EIO;
	}
	return LORE_OK;
}

static int
merge(struct apply_job *j, const struct tmpwt *w, GError **err)
{
	const char *const abort_[] = {"merge", "--abort", NULL};
	g_autofree char *msg = mergemsg_build(j->cover, j->mbox, j->patches,
					      j->link, j->merge_template);
	g_autofree char *file = g_build_filename(w->dir, "merge-msg", NULL);
	gboolean edit = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
	GPtrArray *argv = g_ptr_array_new();
	GString *e = g_string_new(NULL), *out = g_string_new(NULL);
	GError *we = NULL;
	int rc = LORE_OK, st;
	guint i;

	/* without an editor, by plumbing when git merge would do no more */
	if (msg && !edit &&
	    (rc = mergeplumb_run(j->onto, j->tip, msg, j->merge_flags, w->path,
				 err)) != MERGEPLUMB_GIT)
		goto out;
	rc = LORE_OK;
	if (!msg || !g_file_set_contents(file, msg, -1, &we)) {
		rc = fail(err, LORE_EIO, "cannot write the merge message%s%s",
			  we ? ": " : "", we ? we->message : "");
		g_clear_error(&we);
		goto out;
	}
	g_ptr_array_add(argv, "merge");
	g_ptr_array_add(argv, "--no-ff");
	g_ptr_array_add(argv, "-F");
	g_ptr_array_add(argv, file);
	g_ptr_array_add(argv, edit ? "--edit" : "--no-edit");
	for (i = 0; j->merge_flags && j->merge_flags[i]; i++)
		g_ptr_array_add(argv, j->merge_flags[i]);
	g_ptr_array_add(argv, j->tip);
	g_ptr_array_add(argv, NULL);
	if (edit)
		st = gitrun_tty(NULL, (const char *const *)argv->pdata, err);
	else
		st = gitrun(NULL, (const char *const *)argv->pdata, NULL, 0,
			    out, e, err);
	if (st == 0)
		goto out;
	/* a conflict or a refused message: the tree goes back as it was */
	gitrun(NULL, abort_, NULL, 0, NULL, e, NULL);
	if (st > 0) {
		g_autofree char *why = gitrun_reason(e->len ? e : out);

		rc = fail(
		    err, LORE_ENOTFOUND,
		    "git merge failed: %s; the current branch is unchanged",
		    edit ? "see above" : why);
	} else {
		rc = LORE_ENOTFOUND;
	}
out:
	g_ptr_array_free(argv, TRUE);
	g_string_free(e, TRUE);
	g_string_free(out, TRUE);
	return rc;
}

/* FETCH_HEAD and ORIG_HEAD as they were, for a merge that fails */
struct saved_refs {
	char *path[2];
	char *data[2]; /* NULL: the file did not exist */
	gsize len[2];
};

static void
refs_save(struct saved_refs *sr)
{
	const char *const where[] = {"rev-parse",  "--git-path", "FETCH_HEAD",
				     "--git-path", "ORIG_HEAD",	 NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	guint i;

	memset(sr, 0, sizeof(*sr));
	if (gitrun(NULL, where, NULL, 0, out, e, NULL) == 0) {
		lines = g_strsplit(out->str, "\n", -1);
		for (i = 0; i < 2 && lines[0] && lines[i]; i++) {
			sr->path[i] = g_strdup(lines[i]);
			g_file_get_contents(sr->path[i], &sr->data[i],
					    &sr->len[i], NULL);
		}
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
}

static void
refs_restore(struct saved_refs *sr, gboolean put_back)
{
	guint i;

	for (i = 0; i < 2; i++) {
		if (put_back && sr->path[i] && *sr->path[i]) {
			if (sr->data[i])
				g_file_set_contents(sr->path[i], sr->data[i],
						    sr->len[i], NULL);
			else
				g_unlink(sr->path[i]);
		}
		g_free(sr->path[i]);
		g_free(sr->data[i]);
	}
}

static int
bring_home(struct apply_job *j, const struct tmpwt *w,
	   const struct applypre_seen *seen, GError **err)
{
	struct saved_refs sr;
	int rc;

	if (j->mode == APPLY_NONE)
		return LORE_OK;
	if (j->mode == APPLY_HEAD)
		return write_fetch_head(j, err);
	/* what another process did meanwhile is not built on */
	if ((rc = applypre_same(seen, err)))
		return rc;
	if (j->mode == APPLY_MERGE) {
		refs_save(&sr);
		rc = write_fetch_head(j, err);
		if (!rc)
			rc = merge(j, w, err);
		refs_restore(&sr, rc != 0);
		return rc;
	}
	return fastfwd_run(j->onto, j->tip, w->path, err);
}

/* The sparse worktree of the full index: the series' files checked out
 * (all of them when git cannot name them); *@sparse_ok says which. */
static int
prepare_sparse(const char *wt, const GPtrArray *paths, gboolean *sparse_ok,
	       GError **err)
{
	const char *const full[] = {"read-tree", "-mu", "HEAD", NULL};
	GString *pat = paths ? sparse_patterns(paths) : NULL, *e;
	int rc = LORE_OK;

	*sparse_ok = pat && sparse(wt, pat);
	if (pat)
		g_string_free(pat, TRUE);
	if (*sparse_ok)
		return LORE_OK;
	e = g_string_new(NULL);
	if (gitrun(wt, full, NULL, 0, NULL, e, NULL) != 0) {
		g_autofree char *why = gitrun_reason(e);

		rc = fail(err, LORE_ENOTFOUND,
			  "cannot check out a temporary worktree: %s", why);
	}
	g_string_free(e, TRUE);
	return rc;
}

/*
 * The series made into j->tip from j->onto: with @try_small on a small
 * tree (the commits made again on the full one, but for APPLY_NONE,
 * whose j->from is the small tree's commit), else in the sparse worktree.
 * SMALLTREE_FULL when the small tree could not stand for the full one:
 * the caller tries again without it.
 */
static int
trial(struct apply_job *j, struct tmpwt *w, gboolean try_small,
      struct applypre_seen *seen, GError **err)
{
	g_autoptr(GPtrArray) paths = NULL;
	g_autofree char *start = NULL, *full_tip = NULL;
	gboolean sparse_ok = FALSE;
	int rc;

	if ((rc = tmpwt_add(w, j->onto, err)))
		return rc;
	paths = smalltree_paths(w->path, j->mbox);
	/* once: what the series would meet in the user's tree (nothing of
	 * it is touched for FETCH_HEAD alone) */
	if (try_small && (j->mode == APPLY_BRANCH || j->mode == APPLY_MERGE) &&
	    (rc = applypre_clean(paths, seen, err)))
		return rc;
	if (try_small && paths) {
		rc = smalltree_prepare(w->path, j->onto, paths, &start, err);
		if (rc && rc != SMALLTREE_FULL)
			return rc;
		if (rc)
			g_clear_error(err);
	}
	if (!start && (rc = prepare_sparse(w->path, paths, &sparse_ok, err)))
		return rc;
	if (gitrun_interrupted())
		return fail(err, LORE_ENOTFOUND,
			    "interrupted; nothing applied");
	rc = in_worktree(j, w->path, sparse_ok, err);
	if (!start)
		return rc;
	/* what fails on the small tree is tried on the full one, which
	 * says git's own reason: -3 (or am.threeWay) may find a rename
	 * among the files the small tree lacks */
	if (rc && !gitrun_interrupted()) {
		g_clear_error(err);
		return SMALLTREE_FULL;
	}
	if (rc || j->mode == APPLY_NONE) {
		j->from = g_steal_pointer(&start);
		return rc;
	}
	rc = replay_run(w->path, j->onto, start, j->tip, &full_tip, err);
	if (!rc) {
		g_free(j->tip);
		j->tip = g_steal_pointer(&full_tip);
	}
	return rc;
}

int
apply_run(struct apply_job *j, GError **err)
{
	const char *base =
	    j->mode == APPLY_BRANCH || !j->base ? "HEAD" : j->base;
	g_autofree char *spec = g_strdup_printf("%s^{commit}", base);
	const char *const resolve[] = {"rev-parse", "--verify", "-q", spec,
				       NULL};
	const char *const head[] = {"rev-parse", "--verify", "-q",
				    "HEAD^{commit}", NULL};
	struct applypre_seen seen = {0};
	struct tmpwt w = {0};
	int rc;

	gitrun_guard();
	/* what killed runs left: their worktrees and folders */
	tmpwt_sweep(TRUE);
	if (!(j->onto = gitrun_line(NULL, resolve))) {
		g_autofree char *b = lore_term_safe(base, -1);

		rc = fail(err, LORE_ENOTFOUND,
			  "base %s is not a commit here; nothing applied", b);
		goto out;
	}
	/* the commit the precheck compares the index with */
	seen.head = j->mode == APPLY_BRANCH  ? g_strdup(j->onto)
		    : j->mode == APPLY_MERGE ? gitrun_line(NULL, head)
					     : NULL;
	rc = trial(j, &w, !j->full_tree, &seen, err);
	if (rc == SMALLTREE_FULL && !gitwait_lost()) {
		g_clear_pointer(&j->tip, g_free);
		tmpwt_remove(&w);
		rc = trial(j, &w, FALSE, &seen, err);
	}
	/* whichever git it stopped, and whatever that git said */
	if (rc && gitwait_lost()) {
		g_clear_error(err);
		rc = fail(err, LORE_ENOTFOUND, "%s; nothing applied",
			  gitwait_lost());
	}
	if (!j->from && j->onto)
		j->from = g_strdup(j->onto);
out:
	/* from here on no signal cuts a step in half: moving the branch
	 * happens whole or not at all, and the clean-up runs to its end */
	gitrun_hold();
	/* whatever failed then failed for the Ctrl-C: a git it killed, read
	 * as "uncommitted changes" or "git ... was killed by signal 2" */
	if (gitrun_interrupted()) {
		g_clear_error(err);
		rc = fail(err, LORE_ENOTFOUND, "interrupted; nothing applied");
	}
	if (!rc)
		rc = bring_home(j, &w, &seen, err);
	tmpwt_remove(&w);
	applypre_seen_clear(&seen);
	gitrun_release();
	gitrun_unguard();
	return rc;
}

void
apply_job_clear(struct apply_job *j)
{
	g_free(j->tip);
	g_free(j->onto);
	g_free(j->from);
	j->tip = j->onto = j->from = NULL;
}
