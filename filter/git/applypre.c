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
#include <sys/stat.h>

/* past this many bytes of paths, the whole tree's status is asked */
#define APPLYPRE_MAX_PATHSPEC (64 * 1024)

/* the user's index file as apply_precheck() found it (git's own path,
 * relative to the current folder or absolute), NULL before */
static char *index_file;

/* a script's GIT_DIR and GIT_WORK_TREE name a repository with a work
 * tree, which git's commands use from any folder, that one outside too
 * (where rev-parse --is-inside-work-tree says false: this lets --apply
 * run there, it sends nothing another way) */
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
				     "--git-path", "index",
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
	/* the index's file, looked at again just before the tree moves */
	if (i == G_N_ELEMENTS(busy) && lines[i] && lines[i + 1] &&
	    *lines[i + 1]) {
		g_free(index_file);
		index_file = g_strdup(lines[i + 1]);
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
	/* git status takes the user's index.lock to write the refreshed
	 * index back (what the fast-forward's read-tree -m then needs): a
	 * Ctrl-C in git's window between creating the lock and setting up
	 * the handler that removes it would leave it there, every later git
	 * refused. So the signals are held while it runs, as for the step
	 * that moves the branch; one that came is acted on after it. */
	gitrun_hold();
	clean = gitrun(NULL, (const char *const *)argv->pdata, NULL, 0, out, e,
		       NULL) == 0 &&
		!out->len;
	gitrun_release();
	g_ptr_array_free(argv, TRUE);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return clean;
}

/* the index's tree is @head's: git diff-index --cached */
static gboolean
staged_none(const char *head)
{
	const char *const argv[] = {"diff-index", "--cached", "--quiet",
				    head,	  "--",	      NULL};
	GString *e = g_string_new(NULL);
	gboolean none = gitrun(NULL, argv, NULL, 0, NULL, e, NULL) == 0;

	g_string_free(e, TRUE);
	return none;
}

int
applypre_clean(const GPtrArray *paths, struct applypre_seen *seen, GError **err)
{
	gboolean clean =
	    seen->head && staged_none(seen->head) && status_clean(paths);

	/* after the status, which may have written the index again */
	g_free(seen->index);
	seen->index = g_strdup(index_file);
	seen->stated = seen->index && stat(seen->index, &seen->st) == 0;
	if (clean)
		return LORE_OK;
	g_set_error(err, LORE_ERROR, LORE_EUSAGE,
		    "--apply: the work tree has uncommitted changes; nothing "
		    "applied");
	return LORE_EUSAGE;
}

/* the same file: git writes a new one (a lock file renamed) each time */
static gboolean
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int
applypre_same(const struct applypre_seen *seen, GError **err)
{
	const char *const argv[] = {"rev-parse", "-q", "--verify",
				    "HEAD^{commit}", NULL};
	g_autofree char *head = gitrun_line(NULL, argv);
	struct stat now;

	/* as when update-ref finds the branch moved: exit 1 */
	if (!seen->head || !head || strcmp(head, seen->head)) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "--apply: HEAD moved while the series was tried; "
			    "nothing applied");
		return LORE_ENOTFOUND;
	}
	if (seen->stated && stat(seen->index, &now) == 0 &&
	    same_file(&seen->st, &now))
		return LORE_OK;
	/* as the precheck refuses a staged change: exit 2 */
	if (staged_none(seen->head))
		return LORE_OK;
	g_set_error(err, LORE_ERROR, LORE_EUSAGE,
		    "--apply: a change was staged while the series was tried; "
		    "nothing applied");
	return LORE_EUSAGE;
}

void
applypre_seen_clear(struct applypre_seen *seen)
{
	g_free(seen->head);
	g_free(seen->index);
	memset(seen, 0, sizeof(*seen));
}
