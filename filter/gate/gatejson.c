/*
 * gatejson.c - --format=json: the summary for bots and CI as one JSON
 * document (RFC 8259) on one line, the last of stderr: the series chosen,
 * then every patch with its attestation and every check that looked at it
 * (ok, warn, fail, or skipped outside a git tree), each finding's message
 * and suggestion, --check's verdict, the prerequisite series applied
 * first (each with its patches, told the same way), and --stable's
 * branches. Every
 * string from mail goes through core/json.h's escaping.
 */
#include "gate/gate-int.h"
#include "core/json.h"

#include <stdio.h>

static const char *const results[] = {"ok", "warn", "fail"};

static void
series(GString *j, const struct gate_series *s)
{
	guint i;

	json_kv_open(j, "series", '{');
	json_kv_int(j, "revision", s->revision);
	json_kv_int(j, "expected", s->expected);
	json_kv_int(j, "present", s->present);
	json_kv(j, "chosen", s->asked ? "asked" : "latest");
	json_kv_open(j, "other_revisions", '[');
	for (i = 0; s->others && i < s->others->len; i++)
		g_string_append_printf(j, "%s%d", i ? "," : "",
				       g_array_index(s->others, int, i));
	g_string_append_c(j, ']');
	json_kv(j, "cover", s->cover);
	g_string_append_c(j, '}');
}

static void
finding(GString *j, const struct gate_finding *f)
{
	json_open(j, '{');
	json_kv(j, "check", gate_check_names[f->check]);
	json_kv(j, "result", results[f->mark]);
	json_kv(j, "message", f->text);
	json_kv(j, "suggestion", f->suggest);
	g_string_append_c(j, '}');
}

/* Each check of @p: its findings, else one "ok" (with what a ✓ said),
 * or "skipped". */
static void
checks(GString *j, const struct gate_patch *p)
{
	guint c, k;

	json_kv_open(j, "checks", '[');
	for (c = 0; c < GATE_C_N; c++) {
		gboolean any = FALSE;

		for (k = 0; k < p->finds->len; k++) {
			const struct gate_finding *f = p->finds->pdata[k];

			if (f->check == c) {
				finding(j, f);
				any = TRUE;
			}
		}
		if (any || !((p->ran | p->skipped) & (1u << c)))
			continue;
		for (k = 0; k < p->info->len && !any; k++) {
			const struct gate_finding *f = p->info->pdata[k];

			if (f->check == c) {
				finding(j, f);
				any = TRUE;
			}
		}
		if (any)
			continue;
		json_open(j, '{');
		json_kv(j, "check", gate_check_names[c]);
		json_kv(j, "result", p->ran & (1u << c) ? "ok" : "skipped");
		g_string_append_c(j, '}');
	}
	if (p->check_verdict) {
		const char *v = p->check_verdict;

		json_open(j, '{');
		json_kv(j, "check", "check-command");
		json_kv(j, "result",
			!g_strcmp0(v, "clean")	    ? "ok"
			: !g_strcmp0(v, "warnings") ? "warn"
						    : "fail");
		json_kv(j, "message", v);
		json_kv(j, "output", p->check_lines);
		g_string_append_c(j, '}');
	}
	g_string_append_c(j, ']');
}

static void
patch(GString *j, const struct gate *g, const struct gate_patch *p)
{
	json_open(j, '{');
	json_kv(j, "subject", p->subject);
	json_kv_open(j, "author", '{');
	json_kv(j, "name", p->author_name);
	json_kv(j, "email", p->author_email);
	g_string_append_c(j, '}');
	json_kv(j, "result",
		g->ran && g->o.policy != GATE_OFF ? results[p->mark] : NULL);
	json_kv(j, "attestation", p->attest ? p->attest : "off");
	checks(j, p);
	g_string_append_c(j, '}');
}

/* Each prerequisite series (cli/deps.h) the gate was told of: its
 * cover letter, revision, outcome and patches, in the order they apply. */
static void
deps(GString *j, const struct gate *g)
{
	guint i, k;

	json_kv_open(j, "prerequisites", '[');
	for (i = 0; i < g->o.deps->len; i++) {
		const struct gate *d = g->o.deps->pdata[i];

		json_open(j, '{');
		json_kv(j, "cover", d->series.cover);
		json_kv_int(j, "revision", d->series.revision);
		json_kv(j, "outcome", gate_outcome(d));
		json_kv_open(j, "patches", '[');
		for (k = 0; k < d->patches->len; k++)
			patch(j, d, d->patches->pdata[k]);
		g_string_append(j, "]}");
	}
	g_string_append_c(j, ']');
}

void
gate_json_build(const struct gate *g, int rc, GString *j)
{
	static const char *const policy[] = {"warn", "off", "hardfail"};
	guint i;

	g_string_append_c(j, '{');

	json_kv(j, "tool", "lore-am");
	json_kv_int(j, "exit", rc);
	json_kv(j, "gate", policy[g->o.policy]);
	json_kv(j, "outcome", gate_outcome(g));
	if (g->series.revision)
		series(j, &g->series);
	json_kv_open(j, "patches", '[');
	for (i = 0; i < g->patches->len; i++)
		patch(j, g, g->patches->pdata[i]);
	g_string_append_c(j, ']');
	if (g->o.deps && g->o.deps->len)
		deps(j, g);
	json_kv_open(j, "stable", '[');
	for (i = 0; i < g->branches->len; i++) {
		const struct gate_branch *b = g->branches->pdata[i];

		json_open(j, '{');
		json_kv(j, "branch", b->name);
		json_kv(j, "result", b->verdict);
		json_kv(j, "message", b->text);
		g_string_append_c(j, '}');
	}
	g_string_append(j, "]}");
}

void
gate_json(const struct gate *g, int rc)
{
	GString *j = g_string_new(NULL);

	gate_json_build(g, rc, j);
	g_string_append_c(j, '\n');
	fflush(stderr);
	fwrite(j->str, 1, j->len, stderr);
	fflush(stderr);
	g_string_free(j, TRUE);
}
