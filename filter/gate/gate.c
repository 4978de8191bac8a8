/*
 * gate.c - the gate's patches collected and its lines said: each patch's
 * commit message cut from the am-ready body (mail/body.h's rules, the
 * same git am uses), its trailer block read, the checks run, then one
 * line per patch with the worst mark, the findings under it, and under
 * lore-am.gate=hardfail one line naming the first patch and check that
 * failed. The checks themselves are gatefixes.c, gatesob.c, gatelinks.c.
 */
#include "gate/gate-int.h"
#include "core/gitrun.h"
#include "trailers/bodyparts.h"
#include "mail/mailinfo.h"

#include <stdarg.h>
#include <string.h>

/* git's output kept: far above any series' ids, subjects or tags */
#define GATE_GIT_KEEP (4u << 20)
#define GATE_GIT_TIMEOUT 120

static const char *const marks[] = {"✓", "!", "✗"};

gboolean
gate_parse_policy(const char *v, enum gate_policy *out)
{
	if (!g_ascii_strcasecmp(v, "warn"))
		*out = GATE_WARN;
	else if (!g_ascii_strcasecmp(v, "off"))
		*out = GATE_OFF;
	else if (!g_ascii_strcasecmp(v, "hardfail"))
		*out = GATE_HARDFAIL;
	else
		return FALSE;
	return TRUE;
}

struct gate *
gate_new(const struct gate_opts *o)
{
	struct gate *g;

	if (o->policy == GATE_OFF)
		return NULL;
	g = g_new0(struct gate, 1);
	g->o = *o;
	g->patches = g_ptr_array_new();
	g->tree = o->tree_known ? o->in_tree : -1;
	return g;
}

static void
patch_free(struct gate_patch *p)
{
	g_free(p->subject);
	g_free(p->author_name);
	g_free(p->author_email);
	g_ptr_array_free(p->trailers, TRUE);
	g_ptr_array_free(p->finds, TRUE);
	g_ptr_array_free(p->info, TRUE);
	g_free(p->first_fail);
	g_free(p);
}

void
gate_free(struct gate *g)
{
	if (!g)
		return;
	g_ptr_array_set_free_func(g->patches, (GDestroyNotify)patch_free);
	g_ptr_array_free(g->patches, TRUE);
	g_free(g);
}

/* The commit message of @body: up to the line where git's patchbreak()
 * starts the patch (the trailers are above it; the diff is not read). */
static char *
commit_message(const char *body)
{
	size_t pos = 0, len = strlen(body), start, ll;
	const char *l;

	for (start = 0; lore_next_line(body, len, &pos, &l, &ll); start = pos)
		if (mailinfo_is_patch_break(l, ll))
			return g_strndup(body, start);
	return g_strdup(body);
}

void
gate_add(struct gate *g, const char *subject, const char *author_name,
	 const char *author_email, const char *body)
{
	struct gate_patch *p;
	struct body_parts bp;
	g_autofree char *msg = NULL;
	guint i;

	if (!g)
		return;
	p = g_new0(struct gate_patch, 1);
	p->subject = g_strdup(subject);
	p->author_name = g_strdup(author_name ? author_name : "");
	p->author_email = g_strdup(author_email ? author_email : "");
	p->finds = g_ptr_array_new_with_free_func(g_free);
	p->info = g_ptr_array_new_with_free_func(g_free);
	p->trailers = trailer_array_new();
	/* the trailer block git am commits: the last paragraph above the
	 * patch (body_split() takes it off the message as b4 does) */
	msg = commit_message(body);
	body_split(msg, &bp);
	for (i = 0; i < bp.trailers->len; i++)
		g_ptr_array_add(p->trailers,
				trailer_copy(bp.trailers->pdata[i]));
	body_parts_clear(&bp);
	g_ptr_array_add(g->patches, p);
}

void
gate_find(struct gate_patch *p, enum gate_mark m, const char *fmt, ...)
{
	g_autofree char *text = NULL, *safe = NULL;
	va_list ap;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	safe = lore_term_safe(text, -1);
	if (m == GATE_PASS) {
		g_ptr_array_add(p->info, g_steal_pointer(&safe));
		return;
	}
	if (m == GATE_FAIL && !p->first_fail)
		p->first_fail = g_strdup(safe);
	if (m > p->mark)
		p->mark = m;
	g_ptr_array_add(p->finds, g_strdup_printf("%s %s", marks[m], safe));
}

gboolean
gate_is(const struct trailer *t, const char *lname)
{
	return !strcmp(t->lname, lname);
}

gboolean
gate_git(struct gate *g, const char *const *argv, const char *input,
	 GString *out)
{
	struct gitrun_bound b = {GATE_GIT_TIMEOUT, GATE_GIT_KEEP, FALSE, 0};
	GError *err = NULL;
	int rc;

	rc = gitrun_bounded(g->o.dir, argv, input, input ? strlen(input) : 0,
			    out, &b, &err);
	if (rc < 0) {
		lore_err("gate: git %s: %s", argv[1], err->message);
		g_error_free(err);
		return FALSE;
	}
	if (rc || b.cut) {
		g_autofree char *l = gitrun_first_line(out->str);
		g_autofree char *s = lore_term_safe(l, -1);

		lore_err("gate: git %s failed%s%s", argv[1], *s ? ": " : "", s);
		return FALSE;
	}
	return TRUE;
}

gboolean
gate_tree(struct gate *g)
{
	const char *const argv[] = {"git", "rev-parse", "--git-dir", NULL};

	if (g->tree < 0) {
		struct gitrun_bound b = {GATE_GIT_TIMEOUT, 4096, FALSE, 0};
		GString *out = g_string_new(NULL);

		g->tree =
		    gitrun_bounded(g->o.dir, argv, NULL, 0, out, &b, NULL) == 0;
		g_string_free(out, TRUE);
	}
	if (!g->tree && !g->tree_noted) {
		lore_info("NOTE: gate: not in a git tree: the Fixes:, "
			  "Cc: stable and .mailmap checks are skipped");
		g->tree_noted = TRUE;
	}
	return g->tree;
}

/* One line per patch, its findings under it; a ✓ says what it knows. */
static void
report(struct gate *g, guint *fails)
{
	guint i, k;

	lore_info("---");
	lore_info("Gate (lore-am.gate=%s):",
		  g->o.policy == GATE_HARDFAIL ? "hardfail" : "warn");
	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];
		g_autofree char *subj = lore_term_safe(p->subject, -1);
		g_autofree char *info = NULL;

		if (p->info->len) {
			g_ptr_array_add(p->info, NULL);
			info = g_strjoinv("; ", (char **)p->info->pdata);
			g_ptr_array_set_size(p->info, p->info->len - 1);
		}
		lore_info("  %s %s%s%s%s", marks[p->mark], subj,
			  info ? " (" : "", info ? info : "", info ? ")" : "");
		for (k = 0; k < p->finds->len; k++)
			lore_info("    %s", (char *)p->finds->pdata[k]);
		if (p->mark == GATE_FAIL)
			(*fails)++;
	}
}

int
gate_run(struct gate *g)
{
	guint i, fails = 0;

	if (!g || !g->patches->len)
		return LORE_OK;
	gate_check_fixes(g);
	gate_check_sob(g);
	for (i = 0; i < g->patches->len; i++)
		gate_check_links(g->patches->pdata[i]);
	report(g, &fails);
	if (g->o.policy != GATE_HARDFAIL || !fails)
		return LORE_OK;
	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];
		g_autofree char *subj = NULL;

		if (!p->first_fail)
			continue;
		subj = lore_term_safe(p->subject, -1);
		lore_err("gate: %s: %s: nothing written or applied "
			 "(lore-am.gate=hardfail%s)",
			 subj, p->first_fail,
			 fails > 1 ? ", more patches failed" : "");
		break;
	}
	return LORE_EGATE;
}
