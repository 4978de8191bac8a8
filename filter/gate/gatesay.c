/*
 * gatesay.c - the gate's block on the terminal: the policy's heading,
 * one line per patch with its worst mark (✓, ! or ✗), what a ✓ knows
 * and --check's verdict beside it, the findings under it, then
 * --stable's branches. A prerequisite's patches come first, marked; a
 * prerequisite its gate refused has its own block, headed with its
 * name (cli/depsplace.c), as the series' would be.
 */
#include "gate/gate-int.h"

#include <stdarg.h>
#include <stdio.h>

/* "a; b" of the ✓ notes of @p, or NULL */
static char *
infos(const struct gate_patch *p)
{
	GString *s;
	guint i;

	if (!p->info->len)
		return NULL;
	s = g_string_new(NULL);
	for (i = 0; i < p->info->len; i++)
		g_string_append_printf(
		    s, "%s%s", i ? "; " : "",
		    ((struct gate_finding *)p->info->pdata[i])->text);
	return g_string_free(s, FALSE);
}

/* One line of the gate's block, made terminal-safe as a whole (what
 * lore_say() does), appended to @out. */
static void G_GNUC_PRINTF(2, 3) say_into(GString *out, const char *fmt, ...)
{
	g_autofree char *text = NULL, *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	safe = lore_term_safe(text, -1);
	g_string_append(out, safe);
	g_string_append_c(out, '\n');
}

/* @p's line and its findings; a prerequisite's (@dep) says so */
static void
say_patch(GString *out, const struct gate_patch *p, gboolean dep)
{
	g_autofree char *info = infos(p);
	g_autofree char *check =
	    p->check_verdict ? g_strdup_printf(" [check: %s]", p->check_verdict)
			     : NULL;
	guint k;

	say_into(out, "  %s %s%s%s%s%s%s", gate_marks[p->mark], p->subject,
		 info ? " (" : "", info ? info : "", info ? ")" : "",
		 check ? check : "", dep ? " [prerequisite]" : "");
	for (k = 0; k < p->finds->len; k++) {
		const struct gate_finding *f = p->finds->pdata[k];

		say_into(out, "    %s %s", gate_marks[f->mark], f->text);
	}
}

/* The prerequisites' patches, in the order they apply: before the
 * series', each line marked (their checks ran in their own am job). */
static void
say_deps(GString *out, const struct gate *g)
{
	guint i, k;

	for (i = 0; g->o.deps && i < g->o.deps->len; i++) {
		const struct gate *d = g->o.deps->pdata[i];

		for (k = 0; d->ran && k < d->patches->len; k++)
			say_patch(out, d->patches->pdata[k], TRUE);
	}
}

/* The policy's heading, then one line per patch (the prerequisites'
 * first); @of names the prerequisite whose own block it is, or NULL. */
static void
say_block(GString *out, const struct gate *g, const char *of)
{
	const char *policy = g->o.policy == GATE_HARDFAIL ? "hardfail" : "warn";
	guint i;

	g_string_append(out, "---\n");
	if (of)
		say_into(out, "Gate (lore-am.gate=%s) of the prerequisite %s:",
			 policy, of);
	else
		g_string_append_printf(out, "Gate (lore-am.gate=%s):\n",
				       policy);
	say_deps(out, g);
	for (i = 0; i < g->patches->len; i++)
		say_patch(out, g->patches->pdata[i], of != NULL);
}

/*
 * One line per patch, its findings under it; a ✓ says what it knows.
 * The block is built whole and written at once: stderr is unbuffered,
 * and two write(2)s a line (the text, its newline) cost a terminal or
 * a mail client's pipe more than the checks did.
 */
void
gate_say(const struct gate *g)
{
	GString *out;
	guint i;

	if (lore_quiet)
		return;
	out = g_string_new(NULL);
	if (g->o.policy != GATE_OFF)
		say_block(out, g, NULL);
	else if (g->branches->len)
		g_string_append(out, "---\n");
	if (g->branches->len)
		g_string_append(out, "  Stable branches:\n");
	for (i = 0; i < g->branches->len; i++) {
		const struct gate_branch *b = g->branches->pdata[i];

		say_into(out, "    %s %s: %s", gate_marks[b->mark], b->name,
			 b->text);
	}
	fwrite(out->str, 1, out->len, stderr);
	g_string_free(out, TRUE);
}

void
gate_report_prereq(const struct gate *g, const char *name)
{
	GString *out;

	if (lore_quiet || !g || !g->ran || g->o.policy == GATE_OFF)
		return;
	out = g_string_new(NULL);
	say_block(out, g, name);
	fwrite(out->str, 1, out->len, stderr);
	g_string_free(out, TRUE);
}
