/*
 * gatefixes.c - the gate's Fixes: and Cc: stable checks, as linux-next's
 * "Fixes tag needs some work" mails ask them: each Fixes: names a commit
 * of this tree (all ids of the series resolved and the commits' subjects
 * read by one `git cat-file --batch-command`), by at least 12 hex
 * digits, and quotes that commit's subject; the line to use is suggested. A fix
 * for a commit that a release tag ("v6.6", not an -rc) holds wants Cc: stable
 * (stable-kernel-rules.rst), one for a commit newer than every release does
 * not: one `git name-rev` for all the fixed commits says which (a `git tag
 * --contains` for each cost a tenth of a second apiece in a kernel-sized tree).
 */
#include "gate/gate-int.h"

#include <string.h>

#define GATE_ID_MIN 12	   /* submitting-patches.rst: at least 12 */
#define GATE_FIXES_MAX 256 /* distinct ids asked about in one run */

struct fix {
	char *id;	/* as written, lower case */
	char *full;	/* the object it names, NULL when none */
	char *type;	/* its type ("commit"), or "missing", "ambiguous" */
	char *subject;	/* the commit's, or NULL */
	char *release;	/* the first release tag holding it, or NULL */
	gboolean asked; /* a release was looked for */
};

static void
fix_free(struct fix *f)
{
	g_free(f->id);
	g_free(f->full);
	g_free(f->type);
	g_free(f->subject);
	g_free(f->release);
	g_free(f);
}

/* "abcdef123456 (\"subject\")": the id (lower case) and the quoted
 * subject (or NULL); FALSE when the value does not start with an id. */
static gboolean
parse_fixes(const char *v, char **id, char **subject)
{
	size_t n = strspn(v, "0123456789abcdefABCDEF");
	const char *q, *e;

	*id = *subject = NULL;
	if (n < 4 || n > 64 || (v[n] && !g_ascii_isspace(v[n])))
		return FALSE;
	*id = g_ascii_strdown(v, n);
	q = strstr(v + n, "(\"");
	e = q ? strrchr(q, '"') : NULL;
	if (q && e > q + 1 && e[1] == ')')
		*subject = g_strndup(q + 2, e - q - 2);
	return TRUE;
}

/* The next word of *@s (runs of space, tab or newline between words):
 * its start, its length in *@n; NULL when there is none. */
static const char *
next_word(const char **s, size_t *n)
{
	const char *w = *s + strspn(*s, " \t\n");

	if (!*w)
		return NULL;
	*n = strcspn(w, " \t\n");
	*s = w + *n;
	return w;
}

/* The same words in the same order: white space runs compare as one
 * space and the ends are trimmed, so a wrapped line compares (read in
 * place: nothing copied per Fixes:). */
static gboolean
same_words(const char *a, const char *b)
{
	const char *wa, *wb;
	size_t na, nb;

	for (;;) {
		wa = next_word(&a, &na);
		wb = next_word(&b, &nb);
		if (!wa || !wb)
			return !wa && !wb;
		if (na != nb || memcmp(wa, wb, na))
			return FALSE;
	}
}

static gboolean
is_release(const char *tag)
{
	const char *p = tag + 1;

	/* v6.6, v6.6.1, v2.6.39: digits and dots, no -rc */
	if (tag[0] != 'v' || !g_ascii_isdigit(*p))
		return FALSE;
	for (; *p; p++)
		if (!g_ascii_isdigit(*p) && *p != '.')
			return FALSE;
	return strchr(tag, '.') != NULL;
}

/* The first release tag of git tag's @out (sorted by version). */
static char *
first_release(const char *out)
{
	g_auto(GStrv) l = g_strsplit(out, "\n", -1);
	guint i;

	for (i = 0; l[i]; i++)
		if (is_release(g_strstrip(l[i])))
			return g_strdup(l[i]);
	return NULL;
}

/* The next line of @out from *@pos, without its '\n' (NULL at the end). */
static char *
next_line(const GString *out, size_t *pos)
{
	const char *l;
	size_t n;

	if (!lore_next_line(out->str, out->len, pos, &l, &n))
		return NULL;
	return g_strndup(l, n);
}

/*
 * git's %s of the raw commit object @c (@n bytes): the lines of the first
 * paragraph after the header and any blank lines, each without its
 * trailing white space, joined by one space; taken from the commit's
 * "encoding" into UTF-8 as git log does.
 */
char *
gate_commit_subject(const char *c, size_t n)
{
	g_autofree char *enc = NULL;
	GString *subj = g_string_new(NULL);
	size_t pos = 0, ll;
	const char *l;
	gboolean head = TRUE;

	while (lore_next_line(c, n, &pos, &l, &ll)) {
		if (head) {
			head = ll > 0;
			if (ll > 9 && !strncmp(l, "encoding ", 9) && !enc)
				enc = g_strndup(l + 9, ll - 9);
			continue;
		}
		while (ll && g_ascii_isspace(l[ll - 1]))
			ll--;
		if (!ll && !subj->len)
			continue; /* blank lines before the subject */
		if (!ll)
			break;
		if (subj->len)
			g_string_append_c(subj, ' ');
		g_string_append_len(subj, l, (gssize)ll);
	}
	if (enc && g_ascii_strcasecmp(enc, "utf-8") &&
	    g_ascii_strcasecmp(enc, "utf8")) {
		char *u = lore_to_utf8(subj->str, subj->len, enc);

		g_string_free(subj, TRUE);
		return u;
	}
	return g_string_free(subj, FALSE);
}

/*
 * One answer of cat-file --batch-command at *@pos: "<oid> <type> <size>"
 * (and for "contents" @size bytes and a '\n', the object in *@body),
 * "<name> missing" or "<name> ambiguous". The type, or NULL when the
 * output ends or is not understood (the rest is then not read).
 */
char *
gate_cat_answer(const GString *out, size_t *pos, gboolean contents, char **oid,
		char **body, size_t *blen)
{
	g_autofree char *l = next_line(out, pos);
	g_auto(GStrv) w = NULL;
	guint64 size;
	guint n;

	*oid = *body = NULL;
	if (!l)
		return NULL;
	w = g_strsplit(l, " ", 4);
	n = g_strv_length(w);
	if (n == 2 && (!strcmp(w[1], "missing") || !strcmp(w[1], "ambiguous")))
		return g_strdup(w[1]);
	if (n != 3 ||
	    !g_ascii_string_to_unsigned(w[2], 10, 0, G_MAXSIZE, &size, NULL))
		return NULL;
	if (contents) {
		if (size > out->len - *pos || out->str[*pos + size] != '\n')
			return NULL;
		*body = out->str + *pos;
		*blen = size;
		*pos += size + 1;
	}
	*oid = g_strdup(w[0]);
	return g_strdup(w[1]);
}

/*
 * Each id resolved and each commit's subject read, all in one `git
 * cat-file --batch-command`: "info ID" says what the id names (an
 * object's type, "missing" or "ambiguous"), "contents ID^{commit}" the
 * commit when it is one.
 */
static void
resolve(struct gate *g, GPtrArray *fixes)
{
	const char *argv[] = {"git", "cat-file",
			      "--batch-command=%(objectname) %(objecttype) "
			      "%(objectsize)",
			      NULL};
	GString *in = g_string_new(NULL), *out = g_string_new(NULL);
	size_t pos = 0, blen = 0;
	guint i;

	for (i = 0; i < fixes->len; i++) {
		const char *id = ((struct fix *)fixes->pdata[i])->id;

		g_string_append_printf(in, "info %s\ncontents %s^{commit}\n",
				       id, id);
	}
	if (!gate_git(g, argv, in->str, out))
		goto out;
	for (i = 0; i < fixes->len; i++) {
		struct fix *f = fixes->pdata[i];
		g_autofree char *oid = NULL, *coid = NULL, *type = NULL,
				*ctype = NULL;
		char *body;

		if (!(type = gate_cat_answer(out, &pos, FALSE, &oid, &body,
					     &blen)) ||
		    !(ctype = gate_cat_answer(out, &pos, TRUE, &coid, &body,
					      &blen)))
			break;
		f->type = g_steal_pointer(&type);
		if (!oid)
			continue; /* missing, ambiguous */
		f->full = g_steal_pointer(&oid);
		if (!strcmp(f->type, "commit") && body &&
		    !g_strcmp0(coid, f->full))
			f->subject = gate_commit_subject(body, blen);
	}
out:
	g_string_free(in, TRUE);
	g_string_free(out, TRUE);
}

/* The release of git name-rev's @name ("v6.6~12", "v6.7^0"), or NULL. */
static char *
release_of(const char *name)
{
	g_autofree char *tag = g_strndup(name, strcspn(name, "~^"));

	return is_release(tag) ? g_steal_pointer(&tag) : NULL;
}

/*
 * The release tag holding each fixed commit, all at once: one git
 * name-rev, limited to release tags, which names a commit after the
 * oldest tag holding it (the first release it was in) or "undefined".
 */
static void
releases(struct gate *g, GPtrArray *fixes)
{
	GPtrArray *argv = g_ptr_array_new(), *asked = g_ptr_array_new();
	GString *out = g_string_new(NULL);
	guint i;

	g_ptr_array_add(argv, "git");
	g_ptr_array_add(argv, "name-rev");
	g_ptr_array_add(argv, "--name-only");
	g_ptr_array_add(argv, "--tags");
	g_ptr_array_add(argv, "--refs=v[0-9]*");
	g_ptr_array_add(argv, "--exclude=v*-*");
	for (i = 0; i < fixes->len; i++) {
		struct fix *f = fixes->pdata[i];

		if (f->subject) {
			g_ptr_array_add(argv, f->full);
			g_ptr_array_add(asked, f);
		}
	}
	g_ptr_array_add(argv, NULL);
	if (asked->len &&
	    gate_git(g, (const char *const *)argv->pdata, NULL, out)) {
		g_auto(GStrv) l = g_strsplit(out->str, "\n", -1);

		for (i = 0; i < asked->len && l[i]; i++) {
			struct fix *f = asked->pdata[i];

			f->asked = TRUE;
			f->release = release_of(l[i]);
		}
	}
	g_string_free(out, TRUE);
	g_ptr_array_free(asked, TRUE);
	g_ptr_array_free(argv, TRUE);
}

/* The newest release tag of the tree, or NULL when it has none. */
static char *
latest_release(struct gate *g)
{
	const char *argv[] = {
	    "git", "tag", "--list", "v[0-9]*", "--sort=-version:refname", NULL};
	GString *out = g_string_new(NULL);
	char *r = NULL;

	if (gate_git(g, argv, NULL, out))
		r = first_release(out->str);
	g_string_free(out, TRUE);
	return r;
}

static gboolean
cc_stable(const struct gate_patch *p)
{
	guint i;

	for (i = 0; i < p->trailers->len; i++) {
		const struct trailer *t = p->trailers->pdata[i];

		if (gate_is(t, "cc") &&
		    (strstr(t->value, "stable@vger.kernel.org") ||
		     strstr(t->value, "stable@kernel.org")))
			return TRUE;
	}
	return FALSE;
}

/* What the tree says of one Fixes: of @p. */
static void
judge(struct gate_patch *p, const struct fix *f, const char *subject)
{
	g_autofree char *line = NULL;

	if (!f->type)
		return; /* git could not be asked: said already */
	if (!f->full) {
		gate_find(p, GATE_C_FIXES, GATE_FAIL, NULL,
			  "Fixes: %s is %s in this tree", f->id,
			  !strcmp(f->type, "ambiguous") ? "ambiguous"
							: "not an object");
		return;
	}
	if (strcmp(f->type, "commit")) {
		gate_find(p, GATE_C_FIXES, GATE_FAIL, NULL,
			  "Fixes: %s is a %s, not a commit", f->id, f->type);
		return;
	}
	if (!f->subject)
		return;
	line = g_strdup_printf("Fixes: %.12s (\"%s\")", f->full, f->subject);
	if (subject && !same_words(subject, f->subject))
		gate_find(p, GATE_C_FIXES, GATE_FAIL, line,
			  "Fixes: %s: the subject is not that commit's; "
			  "use: %s",
			  f->id, line);
	else if (strlen(f->id) < GATE_ID_MIN)
		gate_find(p, GATE_C_FIXES, GATE_NOTE, line,
			  "Fixes: %s has %zu hex digits, at least %d are "
			  "asked; use: %s",
			  f->id, strlen(f->id), GATE_ID_MIN, line);
	else if (!subject)
		gate_find(p, GATE_C_FIXES, GATE_NOTE, line,
			  "Fixes: %s quotes no subject (\"...\"); use: %s",
			  f->id, line);
}

/* Cc: stable, from the releases that hold the fixed commits of @p. */
static void
stable(struct gate_patch *p, GPtrArray *mine, const char *latest)
{
	const struct fix *rel = NULL, *newer = NULL;
	gboolean cc = cc_stable(p);
	guint i;

	for (i = 0; i < mine->len; i++) {
		const struct fix *f = mine->pdata[i];

		if (f->release && !rel)
			rel = f;
		else if (f->asked && !f->release && !newer)
			newer = f;
	}
	if (rel && !cc)
		gate_find(p, GATE_C_STABLE, GATE_NOTE,
			  "Cc: stable@vger.kernel.org",
			  "Fixes: %.12s is in %s: no Cc: "
			  "stable@vger.kernel.org",
			  rel->full, rel->release);
	else if (rel)
		gate_find(p, GATE_C_STABLE, GATE_PASS, NULL,
			  "fixes a commit of %s, Cc: stable", rel->release);
	else if (newer && latest && cc)
		gate_find(p, GATE_C_STABLE, GATE_NOTE,
			  "drop Cc: stable: the fix goes in with the commit",
			  "Cc: stable, but %.12s is newer than every release "
			  "(%s): it is in none",
			  newer->full, latest);
	else if (newer && latest)
		gate_find(p, GATE_C_STABLE, GATE_PASS, NULL,
			  "fixes a commit newer than %s: no Cc: stable",
			  latest);
}

/* Each Fixes: of each patch parsed; the distinct ids in @fixes. */
static void
collect(struct gate *g, GHashTable *byid, GPtrArray *fixes)
{
	guint i, k;

	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];

		for (k = 0; k < p->trailers->len; k++) {
			const struct trailer *t = p->trailers->pdata[k];
			g_autofree char *id = NULL, *subj = NULL;
			struct fix *f;

			if (!gate_is(t, "fixes"))
				continue;
			if (!parse_fixes(t->value, &id, &subj)) {
				gate_find(p, GATE_C_FIXES, GATE_FAIL, NULL,
					  "Fixes: '%s' does not start with a "
					  "commit id",
					  t->value);
				continue;
			}
			if (g_hash_table_contains(byid, id) ||
			    fixes->len >= GATE_FIXES_MAX)
				continue;
			f = g_new0(struct fix, 1);
			f->id = g_steal_pointer(&id);
			g_hash_table_insert(byid, f->id, f);
			g_ptr_array_add(fixes, f);
		}
	}
}

/* Outside a git tree: the patches with a Fixes: were not looked at. */
static void
skipped(struct gate *g)
{
	guint i, k;

	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];

		for (k = 0; k < p->trailers->len; k++)
			if (gate_is(p->trailers->pdata[k], "fixes")) {
				gate_ran(p, GATE_C_FIXES, TRUE);
				gate_ran(p, GATE_C_STABLE, TRUE);
				break;
			}
	}
}

void
gate_check_fixes(struct gate *g)
{
	GHashTable *byid = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *fixes =
	    g_ptr_array_new_with_free_func((GDestroyNotify)fix_free);
	g_autofree char *latest = NULL;
	gboolean asked_latest = FALSE;
	guint i, k;

	collect(g, byid, fixes);
	if (!fixes->len)
		goto out;
	if (!gate_tree(g)) {
		skipped(g);
		goto out;
	}
	resolve(g, fixes);
	releases(g, fixes);
	for (i = 0; i < fixes->len; i++) {
		const struct fix *f = fixes->pdata[i];

		if (f->subject && !g_ptr_array_find_with_equal_func(
				      g->fixed, f->full, g_str_equal, NULL))
			g_ptr_array_add(g->fixed, g_strdup(f->full));
	}
	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];
		GPtrArray *mine = g_ptr_array_new();

		for (k = 0; k < p->trailers->len; k++) {
			const struct trailer *t = p->trailers->pdata[k];
			g_autofree char *id = NULL, *subj = NULL;
			struct fix *f;

			if (!gate_is(t, "fixes") ||
			    !parse_fixes(t->value, &id, &subj) ||
			    !(f = g_hash_table_lookup(byid, id)))
				continue;
			gate_ran(p, GATE_C_FIXES, FALSE);
			judge(p, f, subj);
			if (!f->subject)
				continue;
			if (f->asked && !f->release && !asked_latest) {
				latest = latest_release(g);
				asked_latest = TRUE;
			}
			g_ptr_array_add(mine, f);
		}
		if (mine->len)
			gate_ran(p, GATE_C_STABLE, FALSE);
		stable(p, mine, latest);
		g_ptr_array_free(mine, TRUE);
	}
out:
	g_ptr_array_free(fixes, TRUE);
	g_hash_table_destroy(byid);
}
