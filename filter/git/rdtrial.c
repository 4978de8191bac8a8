/*
 * rdtrial.c - --range-diff's trial runs in git folders of our own making
 * (see rdtrial.h). Per revision: a "lore-am-apply-PID-XXXXXX" folder
 * (tmpwt_make_dir(), so that a killed run's is swept) holding git/ (HEAD,
 * commondir, then the index) and worktree/ (its ".git" file). The git
 * processes for both revisions: two `git apply --numstat` (both mboxes
 * at once: the new names, then the old ones), the small tree's ls-tree,
 * update-index, write-tree and commit-tree once per base, and each
 * revision's `git am` (with its mailsplit; no auto maintenance: a
 * comparison is no reason to repack the user's repository).
 */
#include "git/rdtrial.h"
#include "core/gitenv.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/applypair.h"
#include "git/rdfake.h"
#include "git/smalltree.h"
#include "git/tmpwt.h"

#include <glib/gstdio.h>
#include <string.h>

/* One revision's git folder and work tree. */
struct place {
	struct tmpwt w; /* w.dir: the folder, removed whole (no w.path) */
	char *gitdir;	/* w.dir/git */
	char *wt;	/* w.dir/worktree */
};

/* a full object id, as git writes one: 40 or 64 lower-case hex digits */
static gboolean
object_id(const char *s, gsize n)
{
	return s && (n == 40 || n == 64) && strspn(s, "0123456789abcdef") >= n;
}

/* a path git reads back whole from a one-line file: absolute, no
 * control character, no trailing blank (git strips those) */
static gboolean
one_line_path(const char *p)
{
	const char *c;

	if (!p || !g_path_is_absolute(p) || g_ascii_isspace(p[strlen(p) - 1]))
		return FALSE;
	for (c = p; *c; c++)
		if ((guchar)*c < 0x20 || *c == 0x7f)
			return FALSE;
	return TRUE;
}

/* The repository's shared folder (git's "common dir"): as git found it
 * honouring git's variables when one is set (GIT_DIR or GIT_COMMON_DIR
 * may name another than @top/.git), else @top/.git when that is a folder
 * of its own (no git process), else git says. */
static char *
common_dir(const char *top)
{
	const char *const argv[] = {"rev-parse", "--path-format=absolute",
				    "--git-common-dir", NULL};
	g_autofree char *dotgit = g_build_filename(top, ".git", NULL);
	g_autofree char *cd = g_build_filename(dotgit, "commondir", NULL);
	const struct gitenv_repo *r = gitenv_repo();

	if (r)
		return g_strdup(r->common);
	if (g_file_test(dotgit, G_FILE_TEST_IS_DIR) &&
	    !g_file_test(dotgit, G_FILE_TEST_IS_SYMLINK) &&
	    !g_file_test(cd, G_FILE_TEST_EXISTS))
		return g_steal_pointer(&dotgit);
	return gitrun_line(top, argv);
}

static gboolean
put(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	return g_file_set_contents(path, text, -1, NULL);
}

/* @p made: its folders, HEAD at @head, the common dir @common */
static gboolean
place_make(struct place *p, const char *common, const char *head)
{
	g_autofree char *gitfile = NULL, *headline = NULL, *cdline = NULL;

	if (!(p->w.dir = tmpwt_make_dir("apply", NULL)))
		return FALSE;
	p->gitdir = g_build_filename(p->w.dir, "git", NULL);
	p->wt = g_build_filename(p->w.dir, "worktree", NULL);
	gitfile = g_strdup_printf("gitdir: %s\n", p->gitdir);
	headline = g_strdup_printf("%s\n", head);
	cdline = g_strdup_printf("%s\n", common);
	return one_line_path(p->gitdir) && g_mkdir(p->gitdir, 0700) == 0 &&
	       g_mkdir(p->wt, 0700) == 0 &&
	       put(p->gitdir, "commondir", cdline) &&
	       put(p->gitdir, "HEAD", headline) && tmpwt_fence(p->gitdir) &&
	       put(p->wt, ".git", gitfile);
}

static void
place_free(struct place *p)
{
	tmpwt_remove(&p->w);
	g_clear_pointer(&p->gitdir, g_free);
	g_clear_pointer(&p->wt, g_free);
}

/* @p's HEAD, as git left it (a detached HEAD is its id and a newline),
 * else as git says it; NULL when neither tells */
static char *
head_of(const struct place *p)
{
	const char *const argv[] = {"rev-parse", "--verify", "-q", "HEAD",
				    NULL};
	g_autofree char *file = g_build_filename(p->gitdir, "HEAD", NULL);
	g_autofree char *text = NULL;
	GString *out, *e;
	char *id = NULL;
	gsize n = 0;

	if (g_file_get_contents(file, &text, &n, NULL) && n > 1 &&
	    text[n - 1] == '\n' && object_id(text, n - 1))
		return g_strndup(text, n - 1);
	out = g_string_new(NULL);
	e = g_string_new(NULL);
	if (gitrun(p->wt, argv, NULL, 0, out, e, NULL) == 0 && out->len)
		id = gitrun_first_line(out->str);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	if (id && !object_id(id, strlen(id)))
		g_clear_pointer(&id, g_free);
	return id;
}

/* One revision's git am in its place (an applypair_fn). */
static int
am(struct apply_job *j, gpointer data, GError **err)
{
	const struct place *p = data;
	const char *const argv[] = {TMPWT_AM_CONFIG, "am", "--quiet", NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	int st, rc = LORE_OK;

	st = gitrun(p->wt, argv, j->mbox->str, j->mbox->len, out, e, err);
	g_clear_error(err);
	if (gitrun_interrupted()) {
		g_set_error_literal(err, LORE_ERROR, LORE_ENOTFOUND,
				    "interrupted; nothing applied");
		rc = LORE_ENOTFOUND;
	} else if (st) {
		rc = RDTRIAL_FULL;
	} else if (!(j->tip = head_of(p))) {
		rc = RDTRIAL_SLOW;
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

/* The paths either revision touches, read by git from both at once. */
static GPtrArray *
touched(const char *top, const GString *a, const GString *b)
{
	GString *both = g_string_sized_new(a->len + b->len + 1);
	GPtrArray *paths;

	g_string_append_len(both, a->str, a->len);
	if (a->len && a->str[a->len - 1] != '\n')
		g_string_append_c(both, '\n');
	g_string_append_len(both, b->str, b->len);
	paths = smalltree_paths(top, both);
	g_string_free(both, TRUE);
	return paths;
}

/* @j's small tree, made in @p (HEAD moved there, the index filled) */
static gboolean
small_tree(struct place *p, struct apply_job *j, const GPtrArray *paths)
{
	g_autofree char *line = NULL;
	GError *e = NULL;

	if (smalltree_commit(p->wt, j->base, paths, &j->from, &e)) {
		g_clear_error(&e);
		return FALSE;
	}
	line = g_strdup_printf("%s\n", j->from);
	return object_id(j->from, strlen(j->from)) &&
	       put(p->gitdir, "HEAD", line);
}

/* @b on the small tree made for @a in @pa (the same base): its HEAD and
 * a copy of its index */
static gboolean
share_tree(const struct place *pa, const struct apply_job *a, struct place *pb,
	   struct apply_job *b)
{
	g_autofree char *from = g_build_filename(pa->gitdir, "index", NULL);
	g_autofree char *to = g_build_filename(pb->gitdir, "index", NULL);
	g_autofree char *line = g_strdup_printf("%s\n", a->from);
	g_autofree char *data = NULL;
	gsize n = 0;

	b->from = g_strdup(a->from);
	return g_file_get_contents(from, &data, &n, NULL) &&
	       g_file_set_contents(to, data, n, NULL) &&
	       put(pb->gitdir, "HEAD", line);
}

/* Both places made and their small trees in them; FALSE: the slow way */
static gboolean
prepare(const char *top, struct place *pa, struct apply_job *a,
	struct place *pb, struct apply_job *b)
{
	g_autofree char *common = common_dir(top);
	g_autoptr(GPtrArray) paths = NULL;

	if (!one_line_path(common) || !place_make(pa, common, a->base) ||
	    !place_make(pb, common, b->base) ||
	    !(paths = touched(top, a->mbox, b->mbox)) ||
	    !small_tree(pa, a, paths) || gitrun_interrupted())
		return FALSE;
	a->onto = g_strdup(a->base);
	b->onto = g_strdup(b->base);
	if (!strcmp(a->base, b->base))
		return share_tree(pa, a, pb, b);
	return small_tree(pb, b, paths);
}

/* One revision again, on the tree of the blobs its patches' index lines
 * name (an applypair_fn; @data a fresh place): b4 diff's way, for a
 * revision that fits no commit here. onto stays NULL: no commit of the
 * repository is under it. */
static int
fake_am(struct apply_job *j, gpointer data, GError **err)
{
	const struct place *p = data;
	g_autofree char *line = NULL;
	int rc = rdfake_commit(p->wt, j->mbox, &j->from, err);

	if (rc == RDFAKE_REFUSED)
		return RDTRIAL_NOBASE;
	if (rc != LORE_OK || gitrun_interrupted()) {
		/* no index lines, or git failed: the full tree says why */
		g_clear_error(err);
		return gitrun_interrupted() ? LORE_ENOTFOUND : RDTRIAL_FULL;
	}
	line = g_strdup_printf("%s\n", j->from);
	if (!object_id(j->from, strlen(j->from)) ||
	    !put(p->gitdir, "HEAD", line))
		return RDTRIAL_FULL;
	return am(j, (gpointer)p, err);
}

/* The revisions git am refused on their base tried on their patches'
 * pre-images, in places of their own (the refused run's is mid-am) */
static void
retry_fake(const char *top, struct apply_job *a, int *ra, GError **ea,
	   struct apply_job *b, int *rb, GError **eb)
{
	struct place fa = {{NULL, NULL}, NULL, NULL}, fb = fa;
	g_autofree char *common = NULL;
	gboolean again_a = *ra == RDTRIAL_FULL, again_b = *rb == RDTRIAL_FULL;

	if ((!again_a && !again_b) || gitrun_interrupted())
		return;
	common = common_dir(top);
	if (one_line_path(common) &&
	    (!again_a || place_make(&fa, common, a->base)) &&
	    (!again_b || place_make(&fb, common, b->base))) {
		/* the refused run's words (the child's "git am failed") */
		if (again_a) {
			apply_job_clear(a);
			g_clear_error(ea);
		}
		if (again_b) {
			apply_job_clear(b);
			g_clear_error(eb);
		}
		if (again_a && again_b)
			applypair_run(fake_am, a, &fa, ra, ea, b, &fb, rb, eb);
		else if (again_a)
			*ra = fake_am(a, &fa, ea);
		else
			*rb = fake_am(b, &fb, eb);
	}
	place_free(&fa);
	place_free(&fb);
}

void
rdtrial_run(const char *top, struct apply_job *a, int *ra, GError **ea,
	    struct apply_job *b, int *rb, GError **eb)
{
	struct place pa = {{NULL, NULL}, NULL, NULL}, pb = pa;

	*ra = *rb = RDTRIAL_SLOW;
	/* git's variables naming the user's repository, index or work tree
	 * need no other way: the places are gitenv's, whose git runs get
	 * none of them, and share the objects (GIT_OBJECT_DIRECTORY made
	 * absolute) */
	if (!top || !object_id(a->base, strlen(a->base)) ||
	    !object_id(b->base, strlen(b->base)))
		return;
	gitrun_guard();
	/* what killed runs left in the temporary folder */
	tmpwt_sweep(FALSE);
	if (prepare(top, &pa, a, &pb, b)) {
		applypair_run(am, a, &pa, ra, ea, b, &pb, rb, eb);
		retry_fake(top, a, ra, ea, b, rb, eb);
	} else if (gitrun_interrupted())
		*ra = *rb = LORE_ENOTFOUND;
	gitrun_hold();
	place_free(&pa);
	place_free(&pb);
	gitrun_release();
	gitrun_unguard();
	if (*ra != LORE_OK)
		apply_job_clear(a);
	if (*rb != LORE_OK)
		apply_job_clear(b);
	if (*ra == LORE_ENOTFOUND && !*ea)
		g_set_error_literal(ea, LORE_ERROR, LORE_ENOTFOUND,
				    "interrupted; nothing applied");
	if (*rb == LORE_ENOTFOUND && !*eb)
		g_set_error_literal(eb, LORE_ERROR, LORE_ENOTFOUND,
				    "interrupted; nothing applied");
}
