/*
 * replay.c - am's commits from the small tree made again on the full one
 * (see replay.h): `git log --raw` says what each commit changed (modes
 * and blob ids: no blob is read or copied), `git cat-file --batch` gives
 * each commit's header and message as bytes, one `git fast-import`
 * stream (git-fast-import(1), raw dates) makes them again, and a second
 * `cat-file --batch` checks that every commit made holds the same bytes
 * as am's but for its tree and parent.
 */
#include "git/replay.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/smalltree.h"

#include <string.h>

/* the ref fast-import writes: per worktree, so removed with it */
#define REPLAY_REF "refs/worktree/lore-am-replay"

/* One commit of am's: its id, its fast-import file changes, its bytes
 * after the tree and parent lines (author, committer, encoding,
 * message) and its parent. */
struct rcommit {
	char *oid;
	GString *changes;
	char *parent;
	const char *rest; /* into the cat-file output, not owned */
	gsize rest_len;
};

static void
rcommit_free(gpointer p)
{
	struct rcommit *c = p;

	g_free(c->oid);
	g_free(c->parent);
	if (c->changes)
		g_string_free(c->changes, TRUE);
	g_free(c);
}

static int
git_out(const char *wt, const char *const *argv, const GString *in,
	GString *out, GError **err)
{
	GString *e = g_string_new(NULL);
	int st = gitrun(wt, argv, in ? in->str : NULL, in ? in->len : 0, out, e,
			err);

	if (st > 0) {
		g_autofree char *l = gitrun_first_line(e->str);
		g_autofree char *why = lore_term_safe(*l ? l : argv[0], -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot make the applied commits on the full "
			    "tree: %s",
			    why);
	}
	g_string_free(e, TRUE);
	return st == 0 ? LORE_OK : LORE_ENOTFOUND;
}

/* A path as fast-import reads it: always C-quoted, so that no name (a
 * leading quote, a newline) is read otherwise */
static void
quote_path(GString *s, const char *p)
{
	g_string_append_c(s, '"');
	for (; *p; p++) {
		guchar c = (guchar)*p;

		if (c == '"' || c == '\\')
			g_string_append_printf(s, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			g_string_append_printf(s, "\\%03o", c);
		else
			g_string_append_c(s, c);
	}
	g_string_append_c(s, '"');
}

/*
 * `git log -z --format=%H --raw` of @start..@tip, oldest first: "OID\0"
 * then, for each file, "\n:OLDMODE NEWMODE OLD NEW STATUS\0PATH\0" (the
 * newline only before the first). FALSE when it reads otherwise.
 */
static gboolean
parse_log(const GString *log, GPtrArray *commits)
{
	const char *p = log->str, *end = log->str + log->len;
	struct rcommit *c = NULL;

	while (p < end) {
		const char *t = p;
		gsize n = strnlen(p, end - p);

		p += n + 1;
		if (*t == '\n')
			t++;
		if (*t == ':') {
			/* ":100644 100644 OLD NEW M" */
			g_auto(GStrv) f = g_strsplit(t + 1, " ", 0);

			if (!c || g_strv_length(f) != 5 || p >= end || !*p)
				return FALSE;
			if (*f[4] == 'D') {
				g_string_append(c->changes, "D ");
			} else {
				g_string_append_printf(c->changes, "M %s %s ",
						       f[1], f[3]);
			}
			quote_path(c->changes, p);
			g_string_append_c(c->changes, '\n');
			p += strnlen(p, end - p) + 1;
		} else if (*t) {
			c = g_new0(struct rcommit, 1);
			c->oid = g_strdup(t);
			c->changes = g_string_new(NULL);
			g_ptr_array_add(commits, c);
		}
	}
	return TRUE;
}

/*
 * The next object of `git cat-file --batch`'s output at *@pos: its
 * header's parent (g_free) and what follows the tree and parent lines.
 * FALSE when it is not a commit of one parent and the headers
 * fast-import makes (author, committer, encoding).
 */
static gboolean
next_commit(const GString *cat, gsize *pos, char **parent, const char **rest,
	    gsize *rest_len)
{
	const char *p = cat->str + *pos, *end = cat->str + cat->len;
	const char *nl = memchr(p, '\n', end - p), *body, *q, *sp;
	char num[24];
	guint64 size;

	*parent = NULL;
	if (!nl || !(sp = memchr(p, ' ', nl - p)) ||
	    strncmp(sp, " commit ", 8) || nl - sp - 8 >= (long)sizeof(num))
		return FALSE;
	memcpy(num, sp + 8, nl - sp - 8);
	num[nl - sp - 8] = '\0';
	if (!g_ascii_string_to_unsigned(num, 10, 0, G_MAXSIZE, &size, NULL) ||
	    (guint64)(end - nl - 1) < size + 1)
		return FALSE;
	body = nl + 1;
	*pos = body + size + 1 - cat->str;
	end = body + size;
	if (size < 46 || strncmp(body, "tree ", 5) ||
	    !(q = memchr(body, '\n', end - body)))
		return FALSE;
	q++;
	if (end - q < 8 || strncmp(q, "parent ", 7) ||
	    !(nl = memchr(q, '\n', end - q)))
		return FALSE;
	*parent = g_strndup(q + 7, nl - q - 7);
	*rest = q = nl + 1;
	*rest_len = end - q;
	/* the header, up to the blank line: only what fast-import makes */
	while (q < end && *q != '\n') {
		if (!(nl = memchr(q, '\n', end - q)) ||
		    !(g_str_has_prefix(q, "author ") ||
		      g_str_has_prefix(q, "committer ") ||
		      g_str_has_prefix(q, "encoding ")))
			return FALSE;
		q = nl + 1;
	}
	return TRUE;
}

/* The header line @key's value in @rest (up to its blank line), or NULL */
static char *
header(const char *rest, gsize len, const char *key)
{
	const char *p = rest, *end = rest + len, *nl;
	gsize k = strlen(key);

	for (; p < end && *p != '\n'; p = nl + 1) {
		if (!(nl = memchr(p, '\n', end - p)))
			return NULL;
		if ((gsize)(nl - p) > k && !strncmp(p, key, k) && p[k] == ' ')
			return g_strndup(p + k + 1, nl - p - k - 1);
	}
	return NULL;
}

static void
stream_commit(GString *fi, guint mark, const char *base,
	      const struct rcommit *c)
{
	g_autofree char *author = header(c->rest, c->rest_len, "author");
	g_autofree char *committer = header(c->rest, c->rest_len, "committer");
	g_autofree char *enc = header(c->rest, c->rest_len, "encoding");
	const char *msg = c->rest, *end = c->rest + c->rest_len;

	while (msg < end && *msg != '\n')
		msg = (const char *)memchr(msg, '\n', end - msg) + 1;
	msg = msg < end ? msg + 1 : end;
	g_string_append_printf(fi, "commit %s\nmark :%u\n", REPLAY_REF, mark);
	if (author)
		g_string_append_printf(fi, "author %s\n", author);
	g_string_append_printf(fi, "committer %s\n", committer);
	if (enc)
		g_string_append_printf(fi, "encoding %s\n", enc);
	g_string_append_printf(fi, "data %" G_GSIZE_FORMAT "\n",
			       (gsize)(end - msg));
	g_string_append_len(fi, msg, end - msg);
	g_string_append_c(fi, '\n');
	if (mark == 1)
		g_string_append_printf(fi, "from %s\n", base);
	g_string_append_len(fi, c->changes->str, c->changes->len);
	g_string_append_c(fi, '\n');
}

/* "OID\n" for each commit, for cat-file --batch */
static GString *
oid_lines(GPtrArray *oids)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < oids->len; i++)
		g_string_append_printf(s, "%s\n", (char *)oids->pdata[i]);
	return s;
}

/* Read am's commits: their changes, parents and bytes (into @cat). */
static int
read_commits(const char *wt, const char *start, const char *tip,
	     GPtrArray *commits, GString *cat, GError **err)
{
	g_autofree char *range = g_strdup_printf("%s..%s", start, tip);
	const char *const log[] = {"log",
				   "-z",
				   "--reverse",
				   "--first-parent",
				   "--no-show-signature",
				   "--format=%H",
				   "--raw",
				   "--no-renames",
				   "--no-abbrev",
				   "--ignore-submodules=none",
				   range,
				   NULL};
	const char *const batch[] = {"cat-file", "--batch", NULL};
	g_autoptr(GPtrArray) oids = g_ptr_array_new();
	GString *out = g_string_new(NULL), *in;
	const char *prev = start;
	gsize pos = 0;
	guint i;
	int rc;

	if ((rc = git_out(wt, log, NULL, out, err)))
		goto out;
	if (!parse_log(out, commits)) {
		rc = SMALLTREE_FULL;
		goto out;
	}
	for (i = 0; i < commits->len; i++)
		g_ptr_array_add(oids,
				((struct rcommit *)commits->pdata[i])->oid);
	in = oid_lines(oids);
	rc = git_out(wt, batch, in, cat, err);
	g_string_free(in, TRUE);
	for (i = 0; !rc && i < commits->len; i++) {
		struct rcommit *c = commits->pdata[i];

		if (!next_commit(cat, &pos, &c->parent, &c->rest,
				 &c->rest_len) ||
		    strcmp(c->parent, prev))
			rc = SMALLTREE_FULL;
		prev = c->oid;
	}
out:
	g_string_free(out, TRUE);
	return rc;
}

/* The commits fast-import made (its marks file) hold am's bytes on a
 * line from @base: their ids in @made, else SMALLTREE_FULL. */
static int
check_made(const char *wt, const char *marks, const char *base,
	   GPtrArray *commits, GPtrArray *made, GError **err)
{
	const char *const batch[] = {"cat-file", "--batch", NULL};
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GString *in, *cat = g_string_new(NULL);
	const char *prev = base, *rest;
	gsize pos = 0, len;
	guint i;
	int rc = LORE_OK;

	if (!g_file_get_contents(marks, &text, NULL, NULL)) {
		rc = SMALLTREE_FULL;
		goto out;
	}
	g_ptr_array_set_size(made, commits->len);
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i]; i++) {
		guint64 m;
		char *sp = strchr(lines[i], ' ');

		if (!*lines[i])
			continue;
		if (*lines[i] != ':' || !sp)
			break;
		*sp = '\0';
		if (!g_ascii_string_to_unsigned(lines[i] + 1, 10, 1,
						commits->len, &m, NULL))
			break;
		g_free(made->pdata[m - 1]);
		made->pdata[m - 1] = g_strdup(sp + 1);
	}
	for (i = 0; i < made->len; i++)
		if (!made->pdata[i])
			rc = SMALLTREE_FULL;
	if (rc)
		goto out;
	in = oid_lines(made);
	rc = git_out(wt, batch, in, cat, err);
	g_string_free(in, TRUE);
	for (i = 0; !rc && i < commits->len; i++) {
		const struct rcommit *c = commits->pdata[i];
		g_autofree char *parent = NULL;

		if (!next_commit(cat, &pos, &parent, &rest, &len) ||
		    strcmp(parent, prev) || len != c->rest_len ||
		    memcmp(rest, c->rest, len))
			rc = SMALLTREE_FULL;
		prev = made->pdata[i];
	}
out:
	g_string_free(cat, TRUE);
	return rc;
}

int
replay_run(const char *wt, const char *base, const char *start, const char *tip,
	   char **new_tip, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(wt);
	g_autofree char *marks = g_build_filename(dir, "marks", NULL);
	g_autofree char *mopt = g_strconcat("--export-marks=", marks, NULL);
	const char *const fi[] = {"fast-import", "--quiet", "--done", mopt,
				  NULL};
	GPtrArray *commits = g_ptr_array_new_with_free_func(rcommit_free);
	GPtrArray *made = g_ptr_array_new_with_free_func(g_free);
	GString *cat = g_string_new(NULL), *stream = g_string_new(NULL);
	guint i;
	int rc;

	*new_tip = NULL;
	if ((rc = read_commits(wt, start, tip, commits, cat, err)))
		goto out;
	if (!commits->len) {
		*new_tip = g_strdup(base);
		goto out;
	}
	for (i = 0; i < commits->len; i++)
		stream_commit(stream, i + 1, base, commits->pdata[i]);
	g_string_append(stream, "done\n");
	/* what fast-import refuses (an ident it reads otherwise) is left
	 * to the full tree too */
	if (git_out(wt, fi, stream, NULL, err)) {
		g_clear_error(err);
		rc = SMALLTREE_FULL;
		goto out;
	}
	if ((rc = check_made(wt, marks, base, commits, made, err)))
		goto out;
	*new_tip = g_strdup(made->pdata[made->len - 1]);
out:
	g_ptr_array_unref(commits);
	g_ptr_array_unref(made);
	g_string_free(cat, TRUE);
	g_string_free(stream, TRUE);
	return rc;
}
