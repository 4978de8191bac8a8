/*
 * depsplace.c - the prerequisites found (deps.c) checked against the
 * tree and placed: each patch's patch-id looked up among HEAD's last
 * lore-am.deps-lookback commits in one git pass (git/applied.h); a
 * series the tree has whole is only named, one it has in part is made
 * again of the patches it lacks (the am job's --cherry-pick), the rest go
 * before the series (--apply, --with-deps) or into -o DIR. Then the
 * "Depends on" block the am job prints.
 */
#include "cli/deps-int.h"
#include "core/util.h"
#include "git/applied.h"
#include "git/treecheck.h"
#include "write/writer.h"

guint
deps_lookback(struct config *cfg)
{
	const char *v = config_get(cfg, "deps-lookback", NULL);
	guint64 n;

	if (v && g_ascii_string_to_unsigned(v, 10, 0, 10000000, &n, NULL))
		return (guint)n;
	return APPLIED_LOOKBACK;
}

/* @ids looked up in the tree: found[i] each (g_free), or NULL */
static char **
find(struct deps *d, GPtrArray *ids)
{
	char **found = g_new0(char *, ids->len);
	GError *err = NULL;

	if (applied_find((const char *const *)ids->pdata, ids->len, NULL,
			 d->lookback, found, &err)) {
		lore_err("warning: cannot tell which prerequisites are in the "
			 "tree: %s",
			 err ? err->message : "git failed");
		g_clear_error(&err);
	}
	return found;
}

GHashTable *
deps_in_tree(struct deps *d, const struct prereqs *ps)
{
	GPtrArray *ids = g_ptr_array_new();
	GHashTable *in = NULL;
	char **found;
	guint i;

	for (i = 0; !d->no_tree && i < ps->items->len; i++) {
		const struct prereq *p = ps->items->pdata[i];

		if (p->kind == PREREQ_PATCH_ID)
			g_ptr_array_add(ids, p->value);
	}
	found = ids->len ? find(d, ids) : NULL;
	for (i = 0; found && i < ids->len; i++) {
		if (!found[i])
			continue;
		if (!in)
			in = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
		g_hash_table_add(in, g_strdup(ids->pdata[i]));
		g_ptr_array_add(
		    d->known, g_strdup_printf("prerequisite-patch-id: %.40s: "
					      "already in the tree (commit "
					      "%.12s)",
					      (char *)ids->pdata[i], found[i]));
		g_free(found[i]);
	}
	g_free(found);
	g_ptr_array_free(ids, TRUE);
	return in;
}

/* Which of the prerequisites' patches the tree has: one git pass. */
void
deps_check_tree(struct deps *d)
{
	GPtrArray *ids = g_ptr_array_new();
	char **found;
	guint i, j, k;

	for (i = 0; !d->no_tree && i < d->order->len; i++) {
		struct dep *dep = d->order->pdata[i];

		for (j = 0; j < dep->pids->len; j++)
			g_ptr_array_add(ids, dep->pids->pdata[j]);
	}
	if (!ids->len) {
		g_ptr_array_free(ids, TRUE);
		return;
	}
	found = find(d, ids);
	for (i = 0, k = 0; i < d->order->len; i++) {
		struct dep *dep = d->order->pdata[i];

		for (j = 0; j < dep->pids->len; j++, k++)
			dep->in->pdata[j] = found[k];
	}
	g_free(found);
	g_ptr_array_free(ids, TRUE);
}

/* "1,3": the patches of @dep the tree lacks; how many it has in *@have */
static char *
lacking(struct dep *dep, guint *have, const char **commit)
{
	GString *s = g_string_new(NULL);
	guint j;

	*have = 0;
	*commit = NULL;
	for (j = 0; j < dep->in->len; j++) {
		if (dep->in->pdata[j]) {
			(*have)++;
			*commit = dep->in->pdata[j];
		} else {
			g_string_append_printf(s, "%s%u", s->len ? "," : "",
					       j + 1);
		}
	}
	return g_string_free(s, FALSE);
}

/* @dep's patches the tree lacks (@pick), made again without the others */
static GString *
remake(struct deps *d, struct dep *dep, const char *pick)
{
	struct amjob_opts o;
	struct amjob_result r = {0};
	int quiet = lore_quiet;
	GString *m = NULL;
	g_autofree char *p = g_strdup(pick);

	deps_dep_opts(d->o, &o, &r, NULL, dep->revision);
	o.cherry_pick = p;
	lore_quiet = 1;
	if (!amjob_run(dep->s, &o))
		m = g_steal_pointer(&r.mbox);
	lore_quiet = quiet;
	amjob_result_clear(&r);
	return m;
}

/* -o DIR: @m as DIR/STEM.mbx; the path said (g_free), NULL: said why */
static char *
write_file(const struct cli *c, const struct dep *dep, const GString *m)
{
	char *path = g_strdup_printf("%s/%s.mbx", c->outdir, dep->stem);
	GError *err = NULL;

	if (writer_file(path, m, &err))
		return path;
	lore_err_take(err);
	g_free(path);
	return NULL;
}

/* One dependency's line of the block, and its patches where they go. */
static int
place(struct deps *d, struct dep *dep, const struct cli *c)
{
	g_autofree char *pick = NULL, *file = NULL, *safe = NULL;
	const char *commit, *to;
	guint have, n = dep->in->len;
	GString *m;

	g_string_append_printf(d->block, "\n  %s <%s> (%s)", dep->label,
			       dep->key, dep->origin ? dep->origin : "?");
	pick = lacking(dep, &have, &commit);
	if (have == n) {
		g_string_append_printf(
		    d->block, ": already in the tree (commit %.12s)", commit);
		return LORE_OK;
	}
	m = have ? remake(d, dep, pick) : dep->mbox;
	if (!m) {
		lore_err("cannot make the patches %s of '%s' alone", pick,
			 dep->label);
		return LORE_ENOTFOUND;
	}
	if (have)
		g_string_append_printf(
		    d->block, ": %u of %u patches in the tree", have, n);
	if (c->apply || c->with_deps) {
		g_string_append(d->mbox, m->str);
		to = c->apply ? "applied first" : "first in the mbox";
	} else if (c->outdir && (file = write_file(c, dep, m))) {
		safe = lore_term_safe(file, -1);
		to = safe;
	} else if (c->outdir) {
		to = NULL;
	} else {
		to = d->no_tree ? "found" : "not in the tree";
	}
	if (to)
		g_string_append_printf(
		    d->block, "%s%s%s", have ? ", the others " : ": ",
		    c->outdir && !c->apply && !c->with_deps ? "written to "
							    : "",
		    to);
	if (m != dep->mbox)
		g_string_free(m, TRUE);
	return to ? LORE_OK : LORE_EIO;
}

/* The block, the mbox, the files; and what was not found, said. */
int
deps_report(struct deps *d, const struct cli *c)
{
	gboolean fatal = d->lost->len && (c->apply || c->with_deps);
	guint i;
	int rc;

	for (i = 0; i < d->lost->len; i++)
		lore_err("%s%s; %s", fatal ? "" : "warning: prerequisite ",
			 (char *)d->lost->pdata[i],
			 !fatal	    ? "the series may not apply without it"
			 : c->apply ? "nothing applied"
				    : "nothing written");
	for (i = 0; !fatal && i < d->guessed->len; i++)
		lore_err("warning: the cover letter's %s; it may name a "
			 "person, not a mail",
			 (char *)d->guessed->pdata[i]);
	if (fatal)
		return LORE_ENOTFOUND;
	g_string_append(d->block, "Depends on:");
	/* b4 writes it, and never reads it (a regex that misses it) */
	if (d->prereq_base)
		g_string_append_printf(
		    d->block,
		    "\n  (their base: prerequisite-base-commit "
		    "%.40s)",
		    d->prereq_base);
	for (i = 0; i < d->known->len; i++)
		g_string_append_printf(d->block, "\n  %s",
				       (char *)d->known->pdata[i]);
	for (i = 0; i < d->order->len; i++)
		if ((rc = place(d, d->order->pdata[i], c)))
			return rc;
	for (i = 0; i < d->lost->len; i++)
		g_string_append_printf(d->block, "\n  %s",
				       (char *)d->lost->pdata[i]);
	for (i = 0; i < d->guessed->len; i++)
		g_string_append_printf(d->block, "\n  %s",
				       (char *)d->guessed->pdata[i]);
	return LORE_OK;
}
