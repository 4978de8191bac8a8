/*
 * gateport.c - a backport's upstream commit, as the stable trees write it
 * (stable-kernel-rules.rst: "commit <sha1> upstream." as the body's first
 * line, or "[ Upstream commit <sha1> ]"): that commit is in the mainline
 * ref (lore-am.mainline-ref; else origin/master, then master). For the
 * whole series: one `git cat-file --batch-check` resolves the ids and the
 * refs, one `git rev-list` says which ids the mainline holds.
 */
#include "gate/gate-int.h"

#include <string.h>

#define GATE_PORT_MIN 7	 /* an abbreviated id git still takes */
#define GATE_PORT_MAX 64 /* patches asked about in one run */

/* The id of @l when it says "commit X upstream." or "[ Upstream commit
 * X ]" (lower case, g_free), or NULL. */
static char *
upstream_id(const char *l, size_t n)
{
	static const char *const pre[] = {"commit ", "[ upstream commit "};
	g_autofree char *low = NULL;
	const char *s, *tail;
	size_t k, len;

	while (n && (*l == ' ' || *l == '\t'))
		l++, n--;
	/* most lines start otherwise: no copy made of them */
	if (!n || (*l != 'c' && *l != 'C' && *l != '['))
		return NULL;
	s = low = g_ascii_strdown(l, (gssize)n);
	for (k = 0; k < G_N_ELEMENTS(pre); k++) {
		if (!g_str_has_prefix(s, pre[k]))
			continue;
		s += strlen(pre[k]);
		len = strspn(s, "0123456789abcdef");
		tail = s + len;
		if (len < GATE_PORT_MIN || len > 64)
			return NULL;
		if ((k == 0 && g_str_has_prefix(tail, " upstream")) ||
		    (k == 1 && g_str_has_prefix(tail, " ]")))
			return g_strndup(s, len);
		return NULL;
	}
	return NULL;
}

/* The first upstream id the commit message of @p names, or NULL. */
static char *
find_upstream(const struct gate_patch *p)
{
	const char *l;
	size_t pos = 0, n, len = strlen(p->message);
	char *id = NULL;

	while (!id && lore_next_line(p->message, len, &pos, &l, &n))
		id = upstream_id(l, n);
	return id;
}

/* A patch that names an upstream commit. */
struct port {
	struct gate_patch *p;
	char *id;    /* as written, lower case */
	char *full;  /* the commit it names here, or NULL */
	gboolean in; /* the mainline holds it */
};

static void
port_free(struct port *t)
{
	g_free(t->id);
	g_free(t->full);
	g_free(t);
}

/* The full id of a --batch-check=%(objectname) answer, or NULL. */
static char *
oid_of(const char *l)
{
	size_t n = strspn(l, "0123456789abcdef");

	return (n == 40 || n == 64) && !l[n] ? g_strndup(l, n) : NULL;
}

/*
 * One cat-file --batch-check for every upstream id (as a commit) and the
 * mainline refs to try (lore-am.mainline-ref; else origin/master, then
 * master): each port's commit in its ->full, the first ref that names a
 * commit (borrowed) returned and its commit in *@moid, or NULL.
 */
static const char *
resolve(struct gate *g, GPtrArray *ports, char **moid)
{
	static const char *const dflt[] = {"origin/master", "master"};
	const char *argv[] = {"git", "cat-file", "--batch-check=%(objectname)",
			      NULL};
	const char *refs[2], *ref = NULL;
	GString *in = g_string_new(NULL), *out = g_string_new(NULL);
	guint i, k, nref = g->o.mainline ? 1 : G_N_ELEMENTS(dflt);

	*moid = NULL;
	for (k = 0; k < nref; k++)
		refs[k] = g->o.mainline ? g->o.mainline : dflt[k];
	for (i = 0; i < ports->len; i++)
		g_string_append_printf(in, "%s^{commit}\n",
				       ((struct port *)ports->pdata[i])->id);
	/* a ref git would read as an option, or as two lines, is not asked:
	 * an empty line's answer stands in its place */
	for (k = 0; k < nref; k++)
		g_string_append_printf(
		    in, "%s%s\n",
		    *refs[k] != '-' && !strchr(refs[k], '\n') ? refs[k] : "",
		    *refs[k] != '-' && !strchr(refs[k], '\n') ? "^{commit}"
							      : "");
	if (gate_git(g, argv, in->str, out)) {
		g_auto(GStrv) l = g_strsplit(out->str, "\n", -1);
		guint n = g_strv_length(l);

		for (i = 0; i < ports->len && i < n; i++)
			((struct port *)ports->pdata[i])->full = oid_of(l[i]);
		for (k = 0; k < nref && i + k < n && !ref; k++)
			if (*refs[k] != '-' && (*moid = oid_of(l[i + k])))
				ref = refs[k];
	}
	g_string_free(in, TRUE);
	g_string_free(out, TRUE);
	return ref;
}

/*
 * Which upstream commits the mainline commit @moid holds, in one `git
 * rev-list THEM --not MAINLINE`: it lists what they hold and the
 * mainline does not, so a commit it does not list is in the mainline.
 */
static void
contained(struct gate *g, GPtrArray *ports, const char *moid)
{
	GPtrArray *argv = g_ptr_array_new();
	GString *out = g_string_new(NULL);
	guint i;

	g_ptr_array_add(argv, "git");
	g_ptr_array_add(argv, "rev-list");
	for (i = 0; i < ports->len; i++)
		if (((struct port *)ports->pdata[i])->full)
			g_ptr_array_add(argv,
					((struct port *)ports->pdata[i])->full);
	g_ptr_array_add(argv, "--not");
	g_ptr_array_add(argv, (gpointer)moid);
	g_ptr_array_add(argv, NULL);
	if (argv->len > 5 &&
	    gate_git(g, (const char *const *)argv->pdata, NULL, out)) {
		g_auto(GStrv) l = g_strsplit(out->str, "\n", -1);
		GHashTable *outside = g_hash_table_new(g_str_hash, g_str_equal);

		for (i = 0; l[i]; i++)
			g_hash_table_add(outside, l[i]);
		for (i = 0; i < ports->len; i++) {
			struct port *t = ports->pdata[i];

			t->in =
			    t->full && !g_hash_table_contains(outside, t->full);
		}
		g_hash_table_destroy(outside);
	}
	g_string_free(out, TRUE);
	g_ptr_array_free(argv, TRUE);
}

static void
judge(struct port *t, const char *ref)
{
	gate_ran(t->p, GATE_C_BACKPORT, FALSE);
	if (!t->full)
		gate_find(t->p, GATE_C_BACKPORT, GATE_FAIL,
			  "check the upstream commit's id",
			  "a backport of %s, which is no commit in this tree",
			  t->id);
	else if (t->in)
		gate_find(t->p, GATE_C_BACKPORT, GATE_PASS, NULL,
			  "upstream commit %.12s is in %s", t->id, ref);
	else
		gate_find(t->p, GATE_C_BACKPORT, GATE_FAIL,
			  "backport only what the mainline holds",
			  "a backport of %.12s, which is not in %s", t->id,
			  ref);
}

void
gate_check_backport(struct gate *g)
{
	GPtrArray *ports =
	    g_ptr_array_new_with_free_func((GDestroyNotify)port_free);
	g_autofree char *moid = NULL;
	const char *ref = NULL;
	guint i;

	for (i = 0; i < g->patches->len && ports->len < GATE_PORT_MAX; i++) {
		struct gate_patch *p = g->patches->pdata[i];
		char *id = find_upstream(p);
		struct port *t;

		if (!id)
			continue;
		t = g_new0(struct port, 1);
		t->p = p;
		t->id = id;
		g_ptr_array_add(ports, t);
	}
	if (ports->len && gate_tree(g)) {
		ref = resolve(g, ports, &moid);
		if (ref)
			contained(g, ports, moid);
	}
	for (i = 0; i < ports->len; i++) {
		struct port *t = ports->pdata[i];

		if (!g->tree) {
			gate_ran(t->p, GATE_C_BACKPORT, TRUE);
		} else if (ref) {
			judge(t, ref);
		} else {
			gate_ran(t->p, GATE_C_BACKPORT, FALSE);
			gate_find(
			    t->p, GATE_C_BACKPORT, GATE_NOTE,
			    "set lore-am.mainline-ref",
			    "a backport of %.12s: no mainline ref to look "
			    "in (%s)",
			    t->id,
			    g->o.mainline ? g->o.mainline
					  : "origin/master, master");
		}
	}
	g_ptr_array_free(ports, TRUE);
}
