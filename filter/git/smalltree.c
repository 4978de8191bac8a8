/*
 * smalltree.c - a series tried on a tree of only the files it touches,
 * then made again on the full tree (see smalltree.h). The small tree is
 * b4's "fake am" idea: `git ls-tree` of the base for the touched paths
 * into the worktree's own index (`update-index --index-info`),
 * `write-tree`, `commit-tree`. The replay is one `git fast-import`
 * stream built from `git log --raw` (modes and blob ids, nothing copied)
 * and `git cat-file --batch` (each commit's header and message, as bytes).
 */
#include "git/smalltree.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <glib/gstdio.h>
#include <string.h>

/* pathspecs past this many bytes would strain the command line: the
 * series is done on the whole tree */
#define ARGV_BYTES_MAX ((gsize)256 << 10)

static int
fail_git(GError **err, const char *what, const GString *e)
{
	g_autofree char *l = gitrun_first_line(e && e->len ? e->str : "");
	g_autofree char *why = lore_term_safe(*l ? l : "no reason given", -1);

	g_set_error(err, LORE_ERROR, LORE_ENOTFOUND, "%s: %s", what, why);
	return LORE_ENOTFOUND;
}

/* One git command for its output; on failure @err says "@what: why". */
static int
run(const char *wt, const char *const *argv, const GString *in, GString *out,
    const char *what, GError **err)
{
	GString *e = g_string_new(NULL);
	int st, rc = LORE_OK;

	st = gitrun(wt, argv, in ? in->str : NULL, in ? in->len : 0, out, e,
		    err);
	if (st > 0)
		rc = fail_git(err, what, e);
	else if (st < 0)
		rc = LORE_ENOTFOUND;
	g_string_free(e, TRUE);
	return rc;
}

static void
add_once(GPtrArray *a, GHashTable *seen, const char *s, gsize n)
{
	char *p = g_strndup(s, n);

	if (g_hash_table_contains(seen, p)) {
		g_free(p);
		return;
	}
	g_hash_table_add(seen, p);
	g_ptr_array_add(a, p);
}

/* The names `git apply --numstat -z` (@reverse: -R) gives for @mbox
 * into @paths; FALSE when git cannot read it. */
static gboolean
numstat(const char *wt, const GString *mbox, gboolean reverse, GPtrArray *paths,
	GHashTable *seen)
{
	/* the names only: apply.whitespace=error must not refuse them */
	const char *const fwd[] = {"apply", "--numstat", "-z",
				   "--whitespace=nowarn", NULL};
	const char *const rev[] = {
	    "apply", "--numstat", "-z", "--whitespace=nowarn", "-R", NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	const char *p, *end, *tab;
	gboolean ok = FALSE;

	/* in the worktree's top folder: from a subfolder git apply would
	 * leave out the paths outside it */
	if (gitrun(wt, reverse ? rev : fwd, mbox->str, mbox->len, out, e,
		   NULL) != 0)
		goto out;
	/* "ADDED\tDELETED\tPATH\0", one name a file: the new one (the
	 * old one of a rename comes with -R) */
	for (p = out->str, end = out->str + out->len; p < end;
	     p += strlen(p) + 1) {
		if (!(tab = memchr(p, '\t', end - p)) ||
		    !(tab = memchr(tab + 1, '\t', end - tab - 1)) || !tab[1])
			goto out;
		add_once(paths, seen, tab + 1, strlen(tab + 1));
	}
	ok = TRUE;
out:
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return ok;
}

GPtrArray *
smalltree_paths(const char *wt, const GString *mbox)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);

	if (!numstat(wt, mbox, FALSE, paths, seen) ||
	    !numstat(wt, mbox, TRUE, paths, seen) || !paths->len)
		g_clear_pointer(&paths, g_ptr_array_unref);
	g_hash_table_destroy(seen);
	return paths;
}

/*
 * `git ls-tree` arguments for @paths: each path, each of its leading
 * folders (a file or link there makes git apply fail as in the full
 * tree), and the .gitattributes that apply to it (eol, filters and
 * whitespace rules change what git apply does). NULL: too many.
 */
static GPtrArray *
lstree_argv(const char *base, const GPtrArray *paths)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	gsize bytes = 0;
	guint i, first;

	g_ptr_array_add(a, g_strdup("--literal-pathspecs"));
	g_ptr_array_add(a, g_strdup("ls-tree"));
	g_ptr_array_add(a, g_strdup("-z"));
	g_ptr_array_add(a, g_strdup("--full-tree"));
	g_ptr_array_add(a, g_strdup(base));
	g_ptr_array_add(a, g_strdup("--"));
	first = a->len;
	add_once(a, seen, ".gitattributes", 14);
	for (i = 0; i < paths->len; i++) {
		const char *p = paths->pdata[i], *s;

		for (s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
			g_autofree char *attr = g_strdup_printf(
			    "%.*s/.gitattributes", (int)(s - p), p);

			add_once(a, seen, p, s - p);
			add_once(a, seen, attr, strlen(attr));
		}
		add_once(a, seen, p, strlen(p));
	}
	g_hash_table_destroy(seen);
	for (i = first; i < a->len; i++)
		bytes += strlen(a->pdata[i]) + 1 + sizeof(char *);
	if (bytes > ARGV_BYTES_MAX) {
		g_ptr_array_unref(a);
		return NULL;
	}
	g_ptr_array_add(a, NULL);
	return a;
}

/* Whether @path, or a folder it is in, is one the series touches. */
static gboolean
under_touched(GHashTable *touched, const char *path, gboolean is_tree)
{
	g_autofree char *p = g_strdup(path);
	char *s;

	if (is_tree && g_hash_table_contains(touched, p))
		return TRUE;
	while ((s = strrchr(p, '/'))) {
		*s = '\0';
		if (g_hash_table_contains(touched, p))
			return TRUE;
	}
	return FALSE;
}

/*
 * ls-tree's "MODE TYPE OID\tPATH\0" entries as update-index's
 * "MODE OID\tPATH\0" in @info, folders left out. SMALLTREE_FULL when a
 * touched path is a folder in the base.
 */
static int
index_info(const GString *ls, const GPtrArray *paths, GString *info)
{
	GHashTable *touched = g_hash_table_new(g_str_hash, g_str_equal);
	const char *p = ls->str, *end = ls->str + ls->len;
	int rc = LORE_OK;
	guint i;

	for (i = 0; i < paths->len; i++)
		g_hash_table_add(touched, paths->pdata[i]);
	for (; p < end; p += strlen(p) + 1) {
		const char *sp1 = strchr(p, ' '), *sp2, *tab;

		if (!sp1 || !(sp2 = strchr(sp1 + 1, ' ')) ||
		    !(tab = strchr(sp2, '\t'))) {
			rc = SMALLTREE_FULL;
			break;
		}
		if (under_touched(touched, tab + 1,
				  !strncmp(sp1 + 1, "tree ", 5))) {
			rc = SMALLTREE_FULL;
			break;
		}
		if (!strncmp(sp1 + 1, "tree ", 5))
			continue;
		g_string_append_len(info, p, sp1 - p + 1);
		g_string_append(info, sp2 + 1);
		g_string_append_c(info, '\0');
	}
	g_hash_table_destroy(touched);
	return rc;
}

int
smalltree_index_commit(const char *wt, const GString *info, char **start,
		       GError **err)
{
	const char *const upd[] = {"update-index", "-z", "--index-info", NULL};
	const char *const wtree[] = {"write-tree", NULL};
	GString *out = g_string_new(NULL);
	g_autofree char *tree = NULL;
	int rc;

	*start = NULL;
	if ((rc = run(wt, upd, info, NULL, "cannot fill a temporary index",
		      err)) ||
	    (rc = run(wt, wtree, NULL, out, "cannot write a temporary tree",
		      err)))
		goto out;
	tree = gitrun_first_line(out->str);
	{
		/* the name on it is never seen: it is not in any result */
		const char *const ct[] = {"-c",
					  "user.name=lore-am",
					  "-c",
					  "user.email=lore-am@localhost",
					  "commit-tree",
					  "-m",
					  "the files the series touches",
					  tree,
					  NULL};

		g_string_truncate(out, 0);
		if ((rc = run(wt, ct, NULL, out,
			      "cannot make a temporary commit", err)))
			goto out;
	}
	*start = gitrun_first_line(out->str);
out:
	g_string_free(out, TRUE);
	return rc;
}

int
smalltree_commit(const char *wt, const char *base, const GPtrArray *paths,
		 char **start, GError **err)
{
	g_autoptr(GPtrArray) ls = lstree_argv(base, paths);
	GString *out = g_string_new(NULL), *info = g_string_new(NULL);
	int rc;

	*start = NULL;
	if (!ls) {
		rc = SMALLTREE_FULL;
		goto out;
	}
	if ((rc = run(wt, (const char *const *)ls->pdata, NULL, out,
		      "cannot list the base's files", err)) ||
	    (rc = index_info(out, paths, info)))
		goto out;
	rc = smalltree_index_commit(wt, info, start, err);
out:
	g_string_free(out, TRUE);
	g_string_free(info, TRUE);
	return rc;
}

int
smalltree_prepare(const char *wt, const char *base, const GPtrArray *paths,
		  char **start, GError **err)
{
	const char *const co[] = {"checkout-index", "-a", "-u", NULL};
	int rc;

	if ((rc = smalltree_commit(wt, base, paths, start, err)))
		return rc;
	{
		const char *const head[] = {"update-ref", "--no-deref", "HEAD",
					    *start, NULL};

		if ((rc = run(wt, head, NULL, NULL,
			      "cannot set a temporary worktree's HEAD", err)) ||
		    (rc = run(wt, co, NULL, NULL,
			      "cannot check out a temporary worktree", err)))
			g_clear_pointer(start, g_free);
	}
	return rc;
}
