/*
 * treecheck.c - the series against the repository. A patch's
 * "index abc123..def456" line names the blob the file had before it (git's
 * diff format); when that blob sits at that path in a commit, the patch
 * applies there as it was made. All lookups go through one
 * `git cat-file --batch-check` call each ("REV:PATH" lines), not one git
 * per file.
 */
#include "git/treecheck.h"
#include "core/gitenv.h"
#include "core/gitrun.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>
#include <unistd.h>

char *
treecheck_toplevel(void)
{
	const struct gitenv_repo *r;
	g_autofree char *dir = NULL;

	/* git's variables say where: git found it honouring them (the
	 * walk up from here below would find the folder's own .git, or
	 * none from outside the work tree they name; no slower way, the
	 * rev-parse is gitenv's once a run) */
	if (gitenv_says_where())
		return (r = gitenv_repo()) && r->top ? g_strdup(r->top) : NULL;
	/* the usual case needs no git process, in a repository or not */
	dir = g_get_current_dir();
	for (;;) {
		g_autofree char *dotgit = g_build_filename(dir, ".git", NULL);
		char *up;

		if (g_file_test(dotgit, G_FILE_TEST_EXISTS))
			return g_steal_pointer(&dir);
		up = g_path_get_dirname(dir);
		if (!strcmp(up, dir)) {
			g_free(up);
			return NULL;
		}
		g_free(dir);
		dir = up;
	}
}

static void
file_free(gpointer p)
{
	struct treecheck_file *f = p;

	g_free(f->path);
	g_free(f->pre);
	g_free(f);
}

struct parse_state {
	struct treecheck *tc;
	GHashTable *seen; /* path -> TRUE */
};

static gboolean
all_zero(const char *s, size_t n)
{
	return n && strspn(s, "0") >= n;
}

/* "--- a/PATH" (git may end it with a tab when the name has blanks) */
static char *
old_path(const char *l, size_t n)
{
	const char *p = l + 6;
	const char *end = l + n;
	const char *tab = memchr(p, '\t', end - p);

	if (tab)
		end = tab;
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	return g_strndup(p, end - p);
}

static void
one_message(const char *msg, size_t len, void *data)
{
	struct parse_state *st = data;
	struct message *m = message_parse(msg, len, NULL);
	g_autofree char *pre = NULL;
	gboolean in_diff = FALSE, new_file = FALSE, added = FALSE;
	const char *body, *l;
	size_t pos = 0, blen, ll;

	if (!m)
		return;
	st->tc->patches++;
	if (m->date > st->tc->date)
		st->tc->date = m->date;
	body = message_body(m);
	blen = strlen(body);
	while (lore_next_line(body, blen, &pos, &l, &ll)) {
		if (ll > 11 && !strncmp(l, "diff --git ", 11)) {
			in_diff = TRUE;
			new_file = added = FALSE;
			g_clear_pointer(&pre, g_free);
		} else if (in_diff && ll > 6 && !strncmp(l, "index ", 6)) {
			size_t n = strspn(l + 6, "0123456789abcdef");

			if (n >= 7 && l[6 + n] == '.')
				pre = g_strndup(l + 6, n);
			new_file = all_zero(l + 6, n);
		} else if (in_diff && ll >= 13 &&
			   !strncmp(l, "--- /dev/null", 13)) {
			in_diff = FALSE;
			added = TRUE;
		} else if (added && ll > 6 && !strncmp(l, "+++ b/", 6)) {
			/* made by the mbox: a later change of it needs
			 * nothing from HEAD */
			added = FALSE;
			g_hash_table_add(st->seen, old_path(l, ll));
		} else if (in_diff && ll > 6 && !strncmp(l, "--- a/", 6)) {
			char *path = old_path(l, ll);
			struct treecheck_file *f;

			in_diff = FALSE;
			/* a lookup is one line: such a name cannot be asked */
			if (strchr(path, '\r') ||
			    g_hash_table_contains(st->seen, path)) {
				g_free(path);
				continue;
			}
			g_hash_table_add(st->seen, path);
			f = g_new0(struct treecheck_file, 1);
			f->path = g_strdup(path);
			if (!new_file)
				f->pre = g_steal_pointer(&pre);
			g_ptr_array_add(st->tc->files, f);
		}
	}
	message_free(m);
}

void
treecheck_parse(struct treecheck *tc, const GString *mbox)
{
	struct parse_state st = {tc, NULL};

	memset(tc, 0, sizeof(*tc));
	tc->files = g_ptr_array_new_with_free_func(file_free);
	st.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	mbox_split(mbox->str, mbox->len, one_message, &st);
	g_hash_table_destroy(st.seen);
}

void
treecheck_clear(struct treecheck *tc)
{
	if (tc->files)
		g_ptr_array_free(tc->files, TRUE);
	memset(tc, 0, sizeof(*tc));
}

guint
treecheck_needed(const struct treecheck *tc)
{
	guint i, n = 0;

	for (i = 0; i < tc->files->len; i++)
		if (((struct treecheck_file *)tc->files->pdata[i])->pre)
			n++;
	return n;
}

/*
 * Ask cat-file --batch-check about @in (one object name a line); the
 * object id of each answer, NULL where it is missing, in order.
 */
static GPtrArray *
batch_check(const GString *in, guint lines)
{
	const char *const argv[] = {"cat-file", "--batch-check", NULL};
	GString *out = g_string_new(NULL), *err = g_string_new(NULL);
	GPtrArray *ids = NULL;
	const char *l;
	size_t pos = 0, ll;

	if (gitrun(NULL, argv, in->str, in->len, out, err, NULL) != 0)
		goto out;
	ids = g_ptr_array_new_with_free_func(g_free);
	while (lore_next_line(out->str, out->len, &pos, &l, &ll)) {
		size_t n = strspn(l, "0123456789abcdef");

		/* "ID TYPE SIZE", or "NAME missing" / "NAME ambiguous" */
		if ((n == 40 || n == 64) && n < ll && l[n] == ' ')
			g_ptr_array_add(ids, g_strndup(l, n));
		else
			g_ptr_array_add(ids, NULL);
	}
	if (ids->len != lines)
		g_clear_pointer(&ids, g_ptr_array_unref);
out:
	g_string_free(out, TRUE);
	g_string_free(err, TRUE);
	return ids;
}

int
treecheck_commit_known(const char *commitish)
{
	GString *in = g_string_new(NULL);
	GPtrArray *ids;
	int known;

	/* an object name is one line: no newline may smuggle in another */
	if (strpbrk(commitish, "\n\r")) {
		g_string_free(in, TRUE);
		return 0;
	}
	g_string_printf(in, "%s^{commit}\n", commitish);
	ids = batch_check(in, 1);
	g_string_free(in, TRUE);
	if (!ids)
		return -1;
	known = ids->pdata[0] != NULL;
	g_ptr_array_unref(ids);
	return known;
}

GPtrArray *
treecheck_commit_ids(const char *const *names, guint n)
{
	GString *in = g_string_new(NULL);
	GPtrArray *ids;
	guint i;

	/* an object name is one line: one with a line break asks nothing */
	for (i = 0; i < n; i++)
		g_string_append_printf(in, "%s^{commit}\n",
				       strpbrk(names[i], "\n\r") ? ""
								 : names[i]);
	ids = batch_check(in, n);
	g_string_free(in, TRUE);
	return ids;
}

/* "REV:PATH\n" for every needed file of every revision in @revs. */
static guint
add_lookups(GString *in, const struct treecheck *tc, const char *const *revs,
	    guint nrevs)
{
	guint r, i, lines = 0;

	for (r = 0; r < nrevs; r++) {
		for (i = 0; i < tc->files->len; i++) {
			const struct treecheck_file *f = tc->files->pdata[i];

			if (!f->pre)
				continue;
			g_string_append_printf(in, "%s:%s\n", revs[r], f->path);
			lines++;
		}
	}
	return lines;
}

/* How many of the @per needed blobs starting at @ids[@from] match. */
static int
count_matches(const struct treecheck *tc, GPtrArray *ids, guint from)
{
	guint i, k = from;
	int n = 0;

	for (i = 0; i < tc->files->len; i++) {
		const struct treecheck_file *f = tc->files->pdata[i];
		const char *id;

		if (!f->pre)
			continue;
		id = ids->pdata[k++];
		if (id && g_str_has_prefix(id, f->pre))
			n++;
	}
	return n;
}

gboolean
treecheck_look(const struct treecheck *tc, const char *base, int *known,
	       int *clean)
{
	GString *in = g_string_new(NULL);
	const char *revs[] = {"HEAD"};
	GPtrArray *ids;
	guint lines = 0, asked = 0;

	*known = *clean = -1;
	/* an object name is one line: no newline may smuggle in another */
	if (base && strpbrk(base, "\n\r"))
		*known = 0;
	else if (base) {
		g_string_printf(in, "%s^{commit}\n", base);
		lines = asked = 1;
	}
	lines += add_lookups(in, tc, revs, 1);
	if (!lines) {
		g_string_free(in, TRUE);
		return TRUE;
	}
	ids = batch_check(in, lines);
	g_string_free(in, TRUE);
	if (!ids)
		return FALSE;
	if (asked)
		*known = ids->pdata[0] != NULL;
	*clean = count_matches(tc, ids, asked);
	g_ptr_array_unref(ids);
	return TRUE;
}

char *
treecheck_guess(const struct treecheck *tc, int days,
		const char *const *branches, int *matched)
{
	g_autofree char *min = NULL, *max = NULL;
	GString *out = g_string_new(NULL), *in = g_string_new(NULL);
	g_auto(GStrv) revs = NULL;
	GPtrArray *ids = NULL;
	char *best = NULL;
	guint nrevs, lines, per = treecheck_needed(tc), r;
	int best_n = 0;

	*matched = 0;
	if (!per || !tc->date)
		goto out;
	/* the base was committed before the mail went out, and not long
	 * before (a day's slack for clocks and time zones) */
	min = g_strdup_printf("--max-age=%" G_GINT64_FORMAT,
			      tc->date - (gint64)days * 86400);
	max = g_strdup_printf("--min-age=%" G_GINT64_FORMAT, tc->date + 86400);
	{
		const char *const all[] = {"--branches", "--tags", "--remotes",
					   NULL};
		g_autoptr(GPtrArray) argv = g_ptr_array_new();
		const char *const *w = branches ? branches : all;

		g_ptr_array_add(argv, "rev-list");
		g_ptr_array_add(argv, "--date-order");
		g_ptr_array_add(argv, min);
		g_ptr_array_add(argv, max);
		if (branches)
			g_ptr_array_add(argv, "--end-of-options");
		for (; *w; w++)
			g_ptr_array_add(argv, (gpointer)*w);
		g_ptr_array_add(argv, NULL);
		if (gitrun(NULL, (const char *const *)argv->pdata, NULL, 0, out,
			   NULL, NULL) != 0)
			goto out;
	}
	revs = g_strsplit(g_strchomp(out->str), "\n", -1);
	nrevs = g_strv_length(revs);
	if (!nrevs || !*revs[0])
		goto out;
	lines = add_lookups(in, tc, (const char *const *)revs, nrevs);
	if (!(ids = batch_check(in, lines)))
		goto out;
	/* newest first: the first with the most matches wins */
	for (r = 0; r < nrevs; r++) {
		int n = count_matches(tc, ids, r * per);

		if (n > best_n) {
			best_n = n;
			g_free(best);
			best = g_strdup(revs[r]);
			if ((guint)n == per)
				break;
		}
	}
	*matched = best_n;
out:
	if (ids)
		g_ptr_array_unref(ids);
	g_string_free(out, TRUE);
	g_string_free(in, TRUE);
	return best;
}
