/*
 * depsplace.c - the prerequisites found (deps.c) checked against the
 * tree and placed: each patch's patch-id looked up among HEAD's last
 * lore-am.deps-lookback commits in one git pass (git/applied.h); a
 * series the tree has whole is only named, one it has in part is made
 * again of the patches it lacks (the am job's --cherry-pick), the rest go
 * before the series (--apply, --with-deps) or into -o DIR. What goes
 * first is made again as the series is: attested (a struct attest of
 * its own, the run's policy) and through the gate (the run's policy,
 * its lines said by the series' gate), and a refusal comes before any
 * file is written. Then the "Depends on" block the am job prints, each
 * one's attestation under its line.
 */
#include "cli/deps-int.h"
#include "core/util.h"
#include "git/applied.h"
#include "git/treecheck.h"
#include "write/writer.h"

#include <string.h>

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

/*
 * What of @dep goes first (the patches @pick, NULL: all) made again as
 * the series is made: attested by a struct attest of its own (the run's
 * keyrings and policy; the series' own notes are not spent on it), and
 * through the gate (the run's policy), held for the series' gate to say.
 * Quietly, but a failure's line names the prerequisite first
 * (lore_err_about); a refusal of its gate shows its gate block, named.
 * dep->use, dep->gate; a lore_status, reported.
 */
static int
trust(struct deps *d, struct dep *dep, const char *pick, const struct cli *c)
{
	struct amjob_opts o;
	struct amjob_result r = {0};
	struct attest *a = NULL;
	const char *about = lore_err_about;
	g_autofree char *p = g_strdup(pick),
			*key = lore_term_safe(dep->key, -1);
	int quiet = lore_quiet, rc;

	if ((rc = attest_new(d->cfg, c->no_attestation, c->offline, &a)))
		return rc;
	deps_dep_opts(d->o, &o, &r, NULL, dep->revision);
	o.cherry_pick = p;
	o.attest = a;
	o.gate = d->o->gate;
	o.gate.later = TRUE; /* said by the series' gate */
	o.gate.json = TRUE;  /* each patch's attestation kept in it */
	o.gate.tree_known = TRUE;
	o.gate.in_tree = !d->no_tree;
	o.gate.deps = NULL;
	lore_quiet = 1;
	lore_err_about = key;
	rc = amjob_run(dep->s, &o);
	lore_err_about = about;
	lore_quiet = quiet;
	dep->gate = g_steal_pointer(&r.gate_held);
	if (!rc)
		dep->use = g_steal_pointer(&r.mbox);
	if (!rc && !dep->use)
		rc = LORE_ENOTFOUND;
	amjob_result_clear(&r);
	attest_free(a);
	if (!rc)
		return rc;
	/* why, as a refused series says it (the JSON says it instead) */
	if (rc == LORE_EGATE && !d->o->gate.json) {
		g_autofree char *name =
		    g_strdup_printf("'%s' <%s>", dep->label, key);

		gate_report_prereq(dep->gate, name);
	}
	lore_err("the prerequisite '%s' <%s> is refused: nothing written or "
		 "applied",
		 dep->label, key);
	return rc;
}

/* A patch's attestation ("pass", "fail", "none") as the block says it */
static const char *
verdict(const char *v, const char **mark)
{
	*mark = !g_strcmp0(v, "pass") ? "✓" : !g_strcmp0(v, "fail") ? "✗" : "-";
	return !g_strcmp0(v, "pass")   ? "signed, verified"
	       : !g_strcmp0(v, "fail") ? "signed, not verified"
				       : "not signed";
}

/* Under @dep's line, what goes first's attestation: one line when its
 * patches all say the same, else one a patch; nothing when it is off. */
static void
say_attest(struct deps *d, const struct dep *dep)
{
	guint i, n = gate_count(dep->gate);
	const char *first = n ? gate_attest_of(dep->gate, 0) : NULL, *mark;
	gboolean same = TRUE;

	if (!first || !strcmp(first, "off"))
		return;
	for (i = 1; i < n; i++)
		same = same && !g_strcmp0(gate_attest_of(dep->gate, i), first);
	if (same) {
		const char *w = verdict(first, &mark);

		if (n > 1)
			g_string_append_printf(
			    d->block,
			    "\n    %s attestation: %s (all %u "
			    "patches)",
			    mark, w, n);
		else
			g_string_append_printf(
			    d->block, "\n    %s attestation: %s", mark, w);
		return;
	}
	for (i = 0; i < n; i++) {
		g_autofree char *subj =
		    lore_term_safe(gate_subject_of(dep->gate, i), -1);
		const char *w = verdict(gate_attest_of(dep->gate, i), &mark);

		g_string_append_printf(d->block, "\n    %s attestation: %s: %s",
				       mark, subj, w);
	}
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
	GString *m = dep->use;

	g_string_append_printf(d->block, "\n  %s <%s> (%s)", dep->label,
			       dep->key, dep->origin ? dep->origin : "?");
	pick = lacking(dep, &have, &commit);
	if (have == n) {
		g_string_append_printf(
		    d->block, ": already in the tree (commit %.12s)", commit);
		return LORE_OK;
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
	say_attest(d, dep);
	return to ? LORE_OK : LORE_EIO;
}

/* --format=json: a refusal here ends the run before the series' gate
 * says anything, so the JSON is said now, with the prerequisites made
 * so far (the refused one last). */
static void
json_refused(struct deps *d, struct dep *dep, int rc)
{
	struct gate_opts go = d->o->gate;
	struct gate *g;

	if (!go.json || !dep->gate)
		return;
	g_ptr_array_add(d->gates, dep->gate);
	go.later = TRUE;
	go.deps = d->gates;
	g = gate_new(&go);
	gate_report(g, rc);
	gate_free(g);
}

/*
 * Each prerequisite the tree lacks in whole or in part: its patches
 * that go first made, attested and gated, all before anything is
 * written, so that a refusal leaves no file of an earlier one.
 */
static int
trust_all(struct deps *d, const struct cli *c)
{
	guint i, have;
	int rc;

	for (i = 0; i < d->order->len; i++) {
		struct dep *dep = d->order->pdata[i];
		const char *commit;
		g_autofree char *pick = lacking(dep, &have, &commit);

		if (have == dep->in->len)
			continue;
		if ((rc = trust(d, dep, have ? pick : NULL, c))) {
			json_refused(d, dep, rc);
			return rc;
		}
		if (dep->gate)
			g_ptr_array_add(d->gates, dep->gate);
	}
	return LORE_OK;
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
	if ((rc = trust_all(d, c)))
		return rc;
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
