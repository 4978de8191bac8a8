/*
 * gate.c - the gate's patches collected and its lines said: each patch's
 * commit message cut from the am-ready body (mail/body.h's rules, the
 * same git am uses), its trailer block read, the checks run, then one
 * line per patch with the worst mark (and --check's verdict beside it),
 * the findings under it, --stable's branches, and under
 * lore-am.gate=hardfail one line naming the first patch and check that
 * failed. The checks themselves are gatefixes.c, gatesob.c, gatelinks.c,
 * gateport.c; the lines are gatesay.c, the JSON form gatejson.c. A prerequisite
 * series' gate (cli/deps.h) runs in its own am job; the series' gate says its
 * patches first, or, when it refused the prerequisite, it says them
 * itself under the prerequisite's name.
 */
#include "gate/gate-int.h"
#include "core/gitrun.h"
#include "trailers/bodyparts.h"
#include "mail/mailinfo.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* git's output kept: far above any series' ids, subjects or tags */
#define GATE_GIT_KEEP (4u << 20)
#define GATE_GIT_TIMEOUT 120

const char *const gate_marks[3] = {"✓", "!", "✗"};
const char *const gate_check_names[GATE_C_N] = {"fixes", "cc-stable", "signoff",
						"links", "backport"};

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

static void
finding_free(struct gate_finding *f)
{
	g_free(f->text);
	g_free(f->suggest);
	g_free(f);
}

static void
branch_free(struct gate_branch *b)
{
	g_free(b->name);
	g_free(b->verdict);
	g_free(b->text);
	g_free(b);
}

struct gate *
gate_new(const struct gate_opts *o)
{
	struct gate *g;

	/* off: no gate, unless the JSON or --stable's lines need one */
	if (o->policy == GATE_OFF && !o->json && !o->later)
		return NULL;
	g = g_new0(struct gate, 1);
	g->o = *o;
	g->patches = g_ptr_array_new();
	g->branches =
	    g_ptr_array_new_with_free_func((GDestroyNotify)branch_free);
	g->fixed = g_ptr_array_new_with_free_func(g_free);
	g->tree = o->tree_known ? o->in_tree : -1;
	return g;
}

static void
patch_free(struct gate_patch *p)
{
	g_free(p->subject);
	g_free(p->author_name);
	g_free(p->author_email);
	g_free(p->message);
	g_ptr_array_free(p->trailers, TRUE);
	g_ptr_array_free(p->finds, TRUE);
	g_ptr_array_free(p->info, TRUE);
	g_free(p->first_fail);
	g_free(p->attest);
	g_free(p->check_verdict);
	g_free(p->check_lines);
	g_free(p);
}

void
gate_free(struct gate *g)
{
	if (!g)
		return;
	g_ptr_array_set_free_func(g->patches, (GDestroyNotify)patch_free);
	g_ptr_array_free(g->patches, TRUE);
	g_ptr_array_free(g->branches, TRUE);
	g_ptr_array_free(g->fixed, TRUE);
	if (g->series.others)
		g_array_unref(g->series.others);
	g_free(g->series.cover);
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

/*
 * The trailer block git am commits: the last paragraph of the commit
 * message @msg, as body_split() takes it off (b4's rules). That copies
 * the whole text three times (the CRs, the signature, the paragraphs)
 * to read one paragraph: a message with no CR and no "-- " line, where
 * none of those cuts applies, has its last paragraph found in place
 * and only that read; any other goes through body_split() itself.
 */
GPtrArray *
gate_trailers(const char *msg)
{
	const char *start, *end, *p, *q;
	g_autofree char *last = NULL;
	struct body_parts bp;
	GPtrArray *t;

	if (strchr(msg, '\r') || strstr(msg, "\n-- ") ||
	    g_str_has_prefix(msg, "-- ")) {
		body_split(msg, &bp);
		t = g_steal_pointer(&bp.trailers);
		body_parts_clear(&bp);
		return t;
	}
	/* the blank lines at both ends go, then the paragraphs are split
	 * at each "\n\n" from the left, as g_strsplit() cuts them */
	start = msg + strspn(msg, "\n");
	end = start + strlen(start);
	while (end > start && end[-1] == '\n')
		end--;
	for (p = start; (q = g_strstr_len(p, end - p, "\n\n")); p = q + 2)
		;
	last = g_strndup(p, end - p);
	t = trailer_array_new();
	trailer_find(last, FALSE, t, NULL);
	return t;
}

void
gate_add(struct gate *g, const char *subject, const char *author_name,
	 const char *author_email, const char *body)
{
	struct gate_patch *p;

	if (!g)
		return;
	p = g_new0(struct gate_patch, 1);
	p->subject = g_strdup(subject);
	p->author_name = g_strdup(author_name ? author_name : "");
	p->author_email = g_strdup(author_email ? author_email : "");
	p->finds = g_ptr_array_new_with_free_func((GDestroyNotify)finding_free);
	p->info = g_ptr_array_new_with_free_func((GDestroyNotify)finding_free);
	p->message = commit_message(body);
	p->trailers = gate_trailers(p->message);
	g_ptr_array_add(g->patches, p);
}

void
gate_series(struct gate *g, int revision, int expected, int present, int asked,
	    GArray *others, const char *cover)
{
	if (!g)
		return;
	g->series.revision = revision;
	g->series.expected = expected;
	g->series.present = present;
	g->series.asked = asked;
	if (others)
		g->series.others = g_array_ref(others);
	g->series.cover = g_strdup(cover);
}

void
gate_attest(struct gate *g, const char *verdict)
{
	struct gate_patch *p;

	if (!g || !g->patches->len)
		return;
	p = g->patches->pdata[g->patches->len - 1];
	g_free(p->attest);
	p->attest = g_strdup(verdict);
}

void
gate_find(struct gate_patch *p, enum gate_check c, enum gate_mark m,
	  const char *suggest, const char *fmt, ...)
{
	struct gate_finding *f = g_new0(struct gate_finding, 1);
	va_list ap;

	va_start(ap, fmt);
	f->text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	f->check = c;
	f->mark = m;
	f->suggest = g_strdup(suggest);
	p->ran |= 1u << c;
	if (m == GATE_PASS) {
		g_ptr_array_add(p->info, f);
		return;
	}
	if (m == GATE_FAIL && !p->first_fail)
		p->first_fail = lore_term_safe(f->text, -1);
	if (m > p->mark)
		p->mark = m;
	g_ptr_array_add(p->finds, f);
}

void
gate_ran(struct gate_patch *p, enum gate_check c, gboolean skipped)
{
	if (skipped)
		p->skipped |= 1u << c;
	else
		p->ran |= 1u << c;
}

gboolean
gate_is(const struct trailer *t, const char *lname)
{
	return !strcmp(t->lname, lname);
}

/*
 * "git -c core.warnAmbiguousRefs=false ARGV...": the gate gives git the
 * full ids it has (name-rev, rev-list, merge-base), and git looks each
 * one up under six ref paths (refs/, refs/tags/, refs/heads/, ...) only
 * to warn of a ref named like it: 600 stat(2)s of packed-refs and
 * loose refs for a hundred ids, more than the walk itself costs. What
 * names resolve to does not change (a ref is still taken first).
 */
static GPtrArray *
quiet_refs(const char *const *argv)
{
	GPtrArray *a = g_ptr_array_new();
	guint i;

	g_ptr_array_add(a, (gpointer)argv[0]);
	g_ptr_array_add(a, "-c");
	g_ptr_array_add(a, "core.warnAmbiguousRefs=false");
	for (i = 1; argv[i]; i++)
		g_ptr_array_add(a, (gpointer)argv[i]);
	g_ptr_array_add(a, NULL);
	return a;
}

gboolean
gate_git(struct gate *g, const char *const *argv, const char *input,
	 GString *out)
{
	/* stderr apart: an ambiguous id's hints are not output lines */
	GString *e = g_string_new(NULL);
	struct gitrun_bound b = {GATE_GIT_TIMEOUT, GATE_GIT_KEEP, FALSE, 0, e};
	GPtrArray *qa = quiet_refs(argv);
	GError *err = NULL;
	int rc;

	rc = gitrun_bounded(g->o.dir, (const char *const *)qa->pdata, input,
			    input ? strlen(input) : 0, out, &b, &err);
	g_ptr_array_free(qa, TRUE);
	if (rc < 0) {
		lore_err("gate: git %s: %s", argv[1], err->message);
		g_error_free(err);
	} else if (rc || b.cut) {
		g_autofree char *l =
		    gitrun_first_line(e->len ? e->str : out->str);
		g_autofree char *s = lore_term_safe(l, -1);

		lore_err("gate: git %s failed%s%s", argv[1], *s ? ": " : "", s);
	}
	g_string_free(e, TRUE);
	return rc == 0 && !b.cut;
}

int
gate_git_status(struct gate *g, const char *const *argv)
{
	struct gitrun_bound b = {GATE_GIT_TIMEOUT, 4096, FALSE, 0, NULL};
	GString *out = g_string_new(NULL);
	int rc = gitrun_bounded(g->o.dir, argv, NULL, 0, out, &b, NULL);

	g_string_free(out, TRUE);
	return rc;
}

gboolean
gate_tree(struct gate *g)
{
	const char *const argv[] = {"git", "rev-parse", "--git-dir", NULL};

	if (g->tree < 0)
		g->tree = gate_git_status(g, argv) == 0;
	if (!g->tree && !g->tree_noted) {
		lore_info("NOTE: gate: not in a git tree: the Fixes:, "
			  "Cc: stable and .mailmap checks are skipped");
		g->tree_noted = TRUE;
	}
	return g->tree;
}

int
gate_run(struct gate *g)
{
	guint i;

	if (!g || !g->patches->len)
		return LORE_OK;
	g->ran = TRUE;
	if (g->o.policy == GATE_OFF)
		return LORE_OK;
	gate_check_fixes(g);
	gate_check_sob(g);
	gate_check_backport(g);
	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];

		gate_check_links(p);
		if (p->mark == GATE_FAIL)
			g->fails++;
	}
	if (!g->o.later)
		gate_say(g);
	if (g->o.policy != GATE_HARDFAIL || !g->fails)
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
			 g->fails > 1 ? ", more patches failed" : "");
		break;
	}
	return LORE_EGATE;
}

void
gate_check_result(struct gate *g, guint i, const char *verdict,
		  const char *lines)
{
	struct gate_patch *p = NULL;
	guint k;

	if (!g)
		return;
	/* the prerequisites' patches come first in the mbox */
	for (k = 0; g->o.deps_first && g->o.deps && !p && k < g->o.deps->len;
	     k++) {
		const struct gate *d = g->o.deps->pdata[k];

		if (i < d->patches->len)
			p = d->patches->pdata[i];
		else
			i -= d->patches->len;
	}
	if (!p && i >= g->patches->len)
		return;
	if (!p)
		p = g->patches->pdata[i];
	g_free(p->check_verdict);
	g_free(p->check_lines);
	p->check_verdict = g_strdup(verdict);
	p->check_lines = g_strdup(lines);
}

GPtrArray *
gate_fixed(struct gate *g)
{
	GPtrArray *a = g_ptr_array_new();
	guint i;

	for (i = 0; g && i < g->fixed->len; i++)
		g_ptr_array_add(a, g->fixed->pdata[i]);
	return a;
}

void
gate_branch(struct gate *g, const char *branch, enum gate_mark m,
	    const char *text)
{
	static const char *const verdicts[] = {"clean", "needs-3way", "cannot"};
	struct gate_branch *b;

	if (!g)
		return;
	b = g_new0(struct gate_branch, 1);
	b->name = g_strdup(branch);
	b->mark = m;
	b->verdict = g_strdup(verdicts[m]);
	b->text = g_strdup(text);
	g_ptr_array_add(g->branches, b);
}

void
gate_report(struct gate *g, int rc)
{
	if (!g || !g->o.later)
		return;
	if (g->o.json)
		gate_json(g, rc);
	else if (g->ran)
		gate_say(g);
}

const char *
gate_outcome(const struct gate *g)
{
	static const char *const word[] = {"pass", "warn", "fail"};
	enum gate_mark worst = GATE_PASS;
	guint i;

	if (!g || !g->ran || g->o.policy == GATE_OFF)
		return NULL;
	for (i = 0; i < g->patches->len; i++)
		worst = MAX(worst,
			    ((struct gate_patch *)g->patches->pdata[i])->mark);
	for (i = 0; g->o.deps && i < g->o.deps->len; i++) {
		const char *d = gate_outcome(g->o.deps->pdata[i]);

		if (d && !strcmp(d, "fail"))
			worst = GATE_FAIL;
		else if (d && !strcmp(d, "warn"))
			worst = MAX(worst, GATE_NOTE);
	}
	return word[worst];
}

guint
gate_count(const struct gate *g)
{
	return g ? g->patches->len : 0;
}

const char *
gate_subject_of(const struct gate *g, guint i)
{
	if (!g || i >= g->patches->len)
		return NULL;
	return ((const struct gate_patch *)g->patches->pdata[i])->subject;
}

const char *
gate_attest_of(const struct gate *g, guint i)
{
	if (!g || i >= g->patches->len)
		return NULL;
	return ((const struct gate_patch *)g->patches->pdata[i])->attest;
}
