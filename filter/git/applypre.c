/*
 * applypre.c - what --apply checks in the user's repository before it
 * does anything (see applypre.h): no operation in progress and a commit
 * to apply on (apply_precheck(), before the mail is read), then nothing
 * uncommitted that the series would meet (applypre_clean(), once the
 * series' files are known). The second looks at the work tree's copies of
 * those files only: `git status` of the whole tree stats every file, 80
 * 000 in a kernel tree, for changes the fast-forward or the merge never
 * touch (git read-tree -m -u keeps them, as git merge does).
 */
#include "git/applypre.h"
#include "git/apply.h"
#include "core/gitenv.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/* past this many bytes of paths, the whole tree's status is asked */
#define APPLYPRE_MAX_PATHSPEC (64 * 1024)

/* a script's GIT_DIR and GIT_WORK_TREE name a repository with a work
 * tree, which git's commands use from any folder, that one outside too */
static gboolean
named_work_tree(void)
{
	const struct gitenv_repo *r;

	return gitenv_says_where() && (r = gitenv_repo()) && r->top;
}

int
apply_precheck(GError **err)
{
	static const char *const busy[] = {
	    "rebase-apply",	"rebase-merge", "MERGE_HEAD",
	    "CHERRY_PICK_HEAD", "REVERT_HEAD",	"BISECT_LOG",
	};
	const char *const paths[] = {"rev-parse",  "--is-inside-work-tree",
				     "--git-path", busy[0],
				     "--git-path", busy[1],
				     "--git-path", busy[2],
				     "--git-path", busy[3],
				     "--git-path", busy[4],
				     "--git-path", busy[5],
				     NULL};
	const char *const head[] = {"rev-parse", "-q", "--verify",
				    "HEAD^{commit}", NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	int rc = LORE_OK;
	guint i;

	if (gitrun(NULL, paths, NULL, 0, out, e, NULL) != 0 ||
	    !(g_str_has_prefix(out->str, "true\n") || named_work_tree())) {
		rc = LORE_EUSAGE;
		g_set_error(
		    err, LORE_ERROR, LORE_EUSAGE,
		    "--apply: not inside a git work tree; nothing applied");
		goto out;
	}
	lines = g_strsplit(out->str, "\n", -1);
	for (i = 0; i < G_N_ELEMENTS(busy) && lines[i] && lines[i + 1]; i++) {
		if (g_file_test(lines[i + 1], G_FILE_TEST_EXISTS)) {
			rc = LORE_EUSAGE;
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "--apply: an operation is in progress in "
				    "this repository (%s); nothing applied",
				    busy[i]);
			goto out;
		}
	}
	g_string_truncate(out, 0);
	if (gitrun(NULL, head, NULL, 0, out, e, NULL) != 0) {
		rc = LORE_EUSAGE;
		g_set_error(
		    err, LORE_ERROR, LORE_EUSAGE,
		    "--apply: the repository has no commit to apply on; "
		    "nothing applied");
		goto out;
	}
out:
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

/* `git status` of the work tree, limited to @paths (all when NULL or too
 * many); TRUE when it says nothing */
static gboolean
status_clean(const GPtrArray *paths)
{
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	gsize bytes = 0;
	gboolean clean;
	guint i;

	g_ptr_array_add(argv, g_strdup("status"));
	g_ptr_array_add(argv, g_strdup("--porcelain"));
	g_ptr_array_add(argv, g_strdup("--untracked-files=no"));
	for (i = 0; paths && i < paths->len; i++)
		bytes += strlen(paths->pdata[i]) + 16;
	if (paths && paths->len && bytes <= APPLYPRE_MAX_PATHSPEC) {
		g_ptr_array_add(argv, g_strdup("--"));
		/* from the top, each name as it is (no glob) */
		for (i = 0; i < paths->len; i++)
			g_ptr_array_add(
			    argv, g_strdup_printf(":(top,literal)%s",
						  (char *)paths->pdata[i]));
	}
	g_ptr_array_add(argv, NULL);
	clean = gitrun(NULL, (const char *const *)argv->pdata, NULL, 0, out, e,
		       NULL) == 0 &&
		!out->len;
	g_ptr_array_free(argv, TRUE);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return clean;
}

int
applypre_clean(const GPtrArray *paths, GError **err)
{
	const char *const staged[] = {"diff-index", "--cached", "--quiet",
				      "HEAD",	    "--",	NULL};
	GString *e = g_string_new(NULL);
	gboolean clean = gitrun(NULL, staged, NULL, 0, NULL, e, NULL) == 0 &&
			 status_clean(paths);

	g_string_free(e, TRUE);
	if (clean)
		return LORE_OK;
	g_set_error(err, LORE_ERROR, LORE_EUSAGE,
		    "--apply: the work tree has uncommitted changes; nothing "
		    "applied");
	return LORE_EUSAGE;
}
