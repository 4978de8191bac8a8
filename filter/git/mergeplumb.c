/*
 * mergeplumb.c - the merge commit of --apply=merge by plumbing (see
 * mergeplumb.h). `git merge --no-ff` refreshes the whole index several
 * times (four passes over a kernel tree's 80 000 files); when HEAD is an
 * ancestor of the tip, the merge's tree is the tip's and the commit is
 * only its message, which git merge takes from the file as it is but for
 * the sign-off and the clean-up (mergesob.c). Whatever could make git
 * merge do more (a hook that may edit the message or refuse, merge.log,
 * signing, another strategy, a branch's merge options, trailer settings,
 * a real three-way merge) is left to git merge itself.
 */
#include "git/mergeplumb.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/fastfwd.h"
#include "git/mergesob.h"

#include <string.h>

/* how git merge cleans the message up (commit.cleanup, no editor) */
enum cleanup { CLEANUP_SPACE, CLEANUP_NONE };

/* @flags are among git merge's that change nothing here; *@signoff
 * says whether the last word on it is --signoff */
static gboolean
flags_plain(char *const *flags, gboolean *signoff)
{
	static const char *const quiet[] = {
	    "--no-log", "--stat", "--no-stat", "-n",	      "-q",
	    "--quiet",	"-v",	  "--verbose", "--no-verify", NULL,
	};
	guint i;

	*signoff = FALSE;
	for (i = 0; flags && flags[i]; i++) {
		if (!strcmp(flags[i], "--signoff"))
			*signoff = TRUE;
		else if (!strcmp(flags[i], "--no-signoff"))
			*signoff = FALSE;
		else if (!g_strv_contains(quiet, flags[i]))
			return FALSE;
	}
	return TRUE;
}

/* git's boolean: a key with no value is true */
static gboolean
truth(const char *v)
{
	static const char *const no[] = {"false", "no", "off", "0", "", NULL};
	g_autofree char *low = v ? g_ascii_strdown(v, -1) : NULL;

	return !v || !g_strv_contains(no, low);
}

/* one setting's last value (@v NULL: the key alone) says this merge
 * is still git merge's; *@how from commit.cleanup */
static gboolean
setting_plain(const char *key, const char *v, enum cleanup *how)
{
	if (!strcmp(key, "commit.cleanup")) {
		if (v && !strcmp(v, "verbatim"))
			*how = CLEANUP_NONE;
		return v &&
		       (!strcmp(v, "verbatim") || !strcmp(v, "default") ||
			!strcmp(v, "whitespace") || !strcmp(v, "scissors"));
	}
	if (g_str_has_prefix(key, "merge.") || !strcmp(key, "commit.gpgsign"))
		return !truth(v);
	return FALSE;
}

/* the settings git merge reads that this merge does not do: FALSE when
 * one is set (or git cannot say); else *@how, from commit.cleanup */
static gboolean
settings_plain(enum cleanup *how)
{
	const char *const argv[] = {
	    "config", "-z", "--get-regexp",
	    "^(merge\\.(log|verifysignatures|renormalize)|commit\\.(gpgsign|"
	    "cleanup)|pull\\.twohead|core\\.(commentchar|commentstring|"
	    "hookspath)|trailer\\..*|branch\\..*\\.mergeoptions)$",
	    NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	GHashTable *last =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GHashTableIter it;
	gpointer k, v;
	gboolean plain = TRUE;
	const char *p, *end;
	int st = gitrun(NULL, argv, NULL, 0, out, e, NULL);

	*how = CLEANUP_SPACE;
	/* 1 and nothing said: none of them is set */
	if (st != 0 && (st != 1 || out->len))
		plain = FALSE;
	for (p = out->str, end = p + out->len; plain && p < end;
	     p += strlen(p) + 1) {
		const char *nl = strchr(p, '\n');

		/* later lines replace earlier ones, as in git */
		g_hash_table_replace(last,
				     nl ? g_strndup(p, nl - p) : g_strdup(p),
				     nl ? g_strdup(nl + 1) : NULL);
	}
	g_hash_table_iter_init(&it, last);
	while (plain && g_hash_table_iter_next(&it, &k, &v))
		plain = setting_plain(k, v, how);
	g_hash_table_destroy(last);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return plain;
}

/* HEAD's commit (g_free), or NULL when a hook git merge runs before it
 * commits is there (it may edit the message or refuse) */
static char *
head_unhooked(void)
{
	const char *const argv[] = {"rev-parse",
				    "--git-path",
				    "hooks/pre-merge-commit",
				    "--git-path",
				    "hooks/prepare-commit-msg",
				    "--git-path",
				    "hooks/commit-msg",
				    "--verify",
				    "HEAD^{commit}",
				    NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	char *head = NULL;
	guint i;

	if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0)
		lines = g_strsplit(out->str, "\n", -1);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	if (!lines || g_strv_length(lines) < 4)
		return NULL;
	for (i = 0; i < 3; i++)
		if (g_file_test(lines[i], G_FILE_TEST_IS_EXECUTABLE))
			return NULL;
	head = g_strdup(lines[3]);
	return head;
}

/* @head is an ancestor of @tip (and not @tip: git merge would say
 * "Already up to date") */
static gboolean
fast_forwardable(const char *onto, const char *head, const char *tip)
{
	const char *const argv[] = {"merge-base", "--is-ancestor", head, tip,
				    NULL};
	GString *e;
	int st;

	if (!strcmp(head, tip))
		return FALSE;
	if (!strcmp(head, onto))
		return TRUE;
	e = g_string_new(NULL);
	st = gitrun(NULL, argv, NULL, 0, NULL, e, NULL);
	g_string_free(e, TRUE);
	return st == 0;
}

/* "Name <email>" of the committer git would sign off as (g_free) */
static char *
committer(void)
{
	const char *const argv[] = {"var", "GIT_COMMITTER_IDENT", NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	char *who = NULL, *gt;

	if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0 &&
	    (gt = strrchr(out->str, '>')) &&
	    !memchr(out->str, '\n', gt - out->str))
		who = g_strndup(out->str, gt + 1 - out->str);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return who;
}

/* the message git merge commits, or NULL when only it can say */
static char *
final_message(const char *msg, gboolean signoff, enum cleanup how)
{
	g_autofree char *who = NULL, *signed_ = NULL;
	char *m;

	if (signoff) {
		if (!(who = committer()) ||
		    !(signed_ = mergesob_append(msg, who)))
			return NULL;
		msg = signed_;
	}
	m = how == CLEANUP_NONE ? g_strdup(msg) : mergesob_stripspace(msg);
	/* git merge refuses an empty message: let it say so */
	if (!*m)
		g_clear_pointer(&m, g_free);
	return m;
}

/* the merge commit (g_free), or NULL with @err set */
static char *
commit_tree(const char *head, const char *tip, const char *msg, GError **err)
{
	g_autofree char *tree = g_strdup_printf("%s^{tree}", tip);
	const char *const argv[] = {"commit-tree", tree, "-p", head,
				    "-p",	   tip,	 NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	char *c = NULL;
	int st = gitrun(NULL, argv, msg, strlen(msg), out, e, err);

	if (st == 0 && out->len)
		c = gitrun_first_line(out->str);
	else if (st > 0) {
		g_autofree char *why = gitrun_reason(e);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot make the merge commit: %s", why);
	}
	if (!c && st == 0)
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot make the merge commit: git said nothing");
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return c;
}

int
mergeplumb_run(const char *onto, const char *tip, const char *msg,
	       char *const *flags, const char *scratch, GError **err)
{
	g_autofree char *head = NULL, *final = NULL, *merge = NULL;
	gboolean signoff;
	enum cleanup how;

	if (!flags_plain(flags, &signoff) || !settings_plain(&how) ||
	    !(head = head_unhooked()) || !fast_forwardable(onto, head, tip) ||
	    !(final = final_message(msg, signoff, how)))
		return MERGEPLUMB_GIT;
	if (!(merge = commit_tree(head, tip, final, err)))
		return LORE_ENOTFOUND;
	return fastfwd_move(head, merge, tip,
			    "Merge made by the 'ort' strategy.", scratch, err);
}
