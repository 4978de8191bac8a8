/*
 * gateport.c - a backport's upstream commit, as the stable trees write it
 * (stable-kernel-rules.rst: "commit <sha1> upstream." as the body's first
 * line, or "[ Upstream commit <sha1> ]"): that commit is in the mainline
 * ref (lore-am.mainline-ref; else origin/master, then master), asked by
 * `git merge-base --is-ancestor`, one run per patch that names one.
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

/* The mainline ref to ask, resolved, or NULL (said by the caller). */
static const char *
mainline(struct gate *g)
{
	static const char *const dflt[] = {"origin/master", "master"};
	guint k;

	for (k = 0; k < (g->o.mainline ? 1 : G_N_ELEMENTS(dflt)); k++) {
		const char *ref = g->o.mainline ? g->o.mainline : dflt[k];
		g_autofree char *spec = g_strdup_printf("%s^{commit}", ref);
		const char *const argv[] = {
		    "git", "rev-parse", "--verify", "-q", "--end-of-options",
		    spec,  NULL};

		/* the ref goes on merge-base's command line, options and all */
		if (*ref != '-' && gate_git_status(g, argv) == 0)
			return ref;
	}
	return NULL;
}

static void
judge(struct gate *g, struct gate_patch *p, const char *id, const char *ref)
{
	g_autofree char *spec = g_strdup_printf("%s^{commit}", id);
	const char *const known[] = {"git", "rev-parse",	"--verify",
				     "-q",  "--end-of-options", spec,
				     NULL};
	const char *const in[] = {"git", "merge-base", "--is-ancestor",
				  id,	 ref,	       NULL};
	int st;

	gate_ran(p, GATE_C_BACKPORT, FALSE);
	if (gate_git_status(g, known) != 0) {
		gate_find(p, GATE_C_BACKPORT, GATE_FAIL,
			  "check the upstream commit's id",
			  "a backport of %s, which is no commit in this tree",
			  id);
		return;
	}
	st = gate_git_status(g, in);
	if (st == 0)
		gate_find(p, GATE_C_BACKPORT, GATE_PASS, NULL,
			  "upstream commit %.12s is in %s", id, ref);
	else
		gate_find(p, GATE_C_BACKPORT, GATE_FAIL,
			  "backport only what the mainline holds",
			  "a backport of %.12s, which is not in %s", id, ref);
}

void
gate_check_backport(struct gate *g)
{
	const char *ref = NULL;
	gboolean asked = FALSE;
	guint i, n = 0;

	for (i = 0; i < g->patches->len && n < GATE_PORT_MAX; i++) {
		struct gate_patch *p = g->patches->pdata[i];
		g_autofree char *id = find_upstream(p);

		if (!id)
			continue;
		n++;
		if (!gate_tree(g)) {
			gate_ran(p, GATE_C_BACKPORT, TRUE);
			continue;
		}
		if (!asked) {
			ref = mainline(g);
			asked = TRUE;
		}
		if (ref) {
			judge(g, p, id, ref);
			continue;
		}
		gate_ran(p, GATE_C_BACKPORT, FALSE);
		gate_find(
		    p, GATE_C_BACKPORT, GATE_NOTE, "set lore-am.mainline-ref",
		    "a backport of %.12s: no mainline ref to look in "
		    "(%s)",
		    id,
		    g->o.mainline ? g->o.mainline : "origin/master, master");
	}
}
