/*
 * gatesob.c - the gate's sign-off checks, the Developer's Certificate of
 * Origin as submitting-patches.rst states it: the author has signed off
 * (by address or by name, either side taken through the tree's .mailmap
 * with one `git check-mailmap` for the whole series, only when a plain
 * comparison fails); every Co-developed-by: is followed at once by that
 * person's Signed-off-by:; with -s the applier's Signed-off-by: is the
 * last trailer and is there once.
 */
#include "gate/gate-int.h"

#include <string.h>

/* the most people one check-mailmap call is asked about */
#define GATE_MAILMAP_MAX 1024

static gboolean
same_person(const char *name1, const char *email1, const char *name2,
	    const char *email2)
{
	if (*email1 && *email2 && !g_ascii_strcasecmp(email1, email2))
		return TRUE;
	return *name1 && *name2 && !g_utf8_collate(name1, name2);
}

static gboolean
sob_of(const struct trailer *t, const char *name, const char *email)
{
	if (!gate_is(t, "signed-off-by") || !t->addr_email)
		return FALSE;
	return trailer_email_eq(t, email) ||
	       same_person(t->addr_name ? t->addr_name : "", "", name, "");
}

/* "Name <email>" for check-mailmap, NULL when it could not be one line */
static char *
contact(const char *name, const char *email)
{
	if (strpbrk(name, "<>\n") || strpbrk(email, "<> \n") || !*email)
		return NULL;
	return *name ? g_strdup_printf("%s <%s>", name, email)
		     : g_strdup_printf("<%s>", email);
}

/* Who each contact is by the tree's .mailmap: @map "Name <a>" -> the
 * canonical "Name <a>" (both owned by @map). */
static void
mailmap(struct gate *g, GPtrArray *contacts, GHashTable *map)
{
	const char *argv[] = {"git", "check-mailmap", "--stdin", NULL};
	GString *in = g_string_new(NULL), *out = g_string_new(NULL);
	gchar **lines;
	guint i;

	for (i = 0; i < contacts->len; i++)
		g_string_append_printf(in, "%s\n", (char *)contacts->pdata[i]);
	if (gate_git(g, argv, in->str, out)) {
		lines = g_strsplit(out->str, "\n", -1);
		for (i = 0; i < contacts->len && lines[i]; i++)
			g_hash_table_insert(map, g_strdup(contacts->pdata[i]),
					    g_strdup(lines[i]));
		g_strfreev(lines);
	}
	g_string_free(in, TRUE);
	g_string_free(out, TRUE);
}

/* The name and address @c maps to ("" name when none). */
static void
canonical(GHashTable *map, const char *c, char **name, char **email)
{
	const char *m = g_hash_table_lookup(map, c);
	const char *lt;

	*name = *email = NULL;
	if (!m || !(lt = strrchr(m, '<')) || !strchr(lt, '>'))
		return;
	*name = g_strstrip(g_strndup(m, lt - m));
	*email = g_strndup(lt + 1, strchr(lt, '>') - lt - 1);
}

static gboolean
mapped_sob(GHashTable *map, struct gate_patch *p)
{
	g_autofree char *ac = contact(p->author_name, p->author_email);
	g_autofree char *an = NULL, *ae = NULL;
	guint i;

	if (!ac)
		return FALSE;
	canonical(map, ac, &an, &ae);
	for (i = 0; an && i < p->trailers->len; i++) {
		const struct trailer *t = p->trailers->pdata[i];
		g_autofree char *tc = NULL, *tn = NULL, *te = NULL;

		if (!gate_is(t, "signed-off-by") || !t->addr_email)
			continue;
		tc = contact(t->addr_name ? t->addr_name : "", t->addr_email);
		if (tc)
			canonical(map, tc, &tn, &te);
		if (te && same_person(an, ae, tn, te))
			return TRUE;
	}
	return FALSE;
}

static gboolean
author_signed(const struct gate_patch *p)
{
	guint i;

	for (i = 0; i < p->trailers->len; i++)
		if (sob_of(p->trailers->pdata[i], p->author_name,
			   p->author_email))
			return TRUE;
	return FALSE;
}

static gboolean
any_sob(const struct gate_patch *p)
{
	guint i;

	for (i = 0; i < p->trailers->len; i++)
		if (gate_is(p->trailers->pdata[i], "signed-off-by") &&
		    ((const struct trailer *)p->trailers->pdata[i])->addr_email)
			return TRUE;
	return FALSE;
}

/* The contacts of @p the mailmap is to be asked about. */
static void
ask_about(struct gate_patch *p, GPtrArray *contacts, GHashTable *seen)
{
	char *c = contact(p->author_name, p->author_email);
	guint i;

	for (i = 0; i <= p->trailers->len; i++) {
		const struct trailer *t = i ? p->trailers->pdata[i - 1] : NULL;

		if (t && (!gate_is(t, "signed-off-by") || !t->addr_email))
			continue;
		if (t)
			c = contact(t->addr_name ? t->addr_name : "",
				    t->addr_email);
		if (c && contacts->len < GATE_MAILMAP_MAX &&
		    !g_hash_table_contains(seen, c)) {
			g_hash_table_add(seen, c);
			g_ptr_array_add(contacts, c);
		} else {
			g_free(c);
		}
	}
}

static void
co_developers(struct gate_patch *p)
{
	guint i;

	for (i = 0; i < p->trailers->len; i++) {
		const struct trailer *t = p->trailers->pdata[i], *n;

		if (!gate_is(t, "co-developed-by"))
			continue;
		n = i + 1 < p->trailers->len ? p->trailers->pdata[i + 1] : NULL;
		if (!n || !t->addr_email ||
		    !sob_of(n, t->addr_name ? t->addr_name : "", t->addr_email))
			gate_find(p, GATE_C_SIGNOFF, GATE_FAIL,
				  "add that person's Signed-off-by: right "
				  "after it",
				  "Co-developed-by: %s is not followed by "
				  "that person's Signed-off-by:",
				  t->value);
	}
}

static void
applier(const struct gate *g, struct gate_patch *p)
{
	const struct trailer *last = NULL;
	guint i, n = 0;

	if (!g->o.add_my_sob || !g->o.user_email)
		return;
	for (i = 0; i < p->trailers->len; i++) {
		const struct trailer *t = p->trailers->pdata[i];

		if (gate_is(t, "signed-off-by") &&
		    trailer_email_eq(t, g->o.user_email))
			n++;
		last = t;
	}
	if (n > 1)
		gate_find(p, GATE_C_SIGNOFF, GATE_NOTE, "keep the last one",
			  "your Signed-off-by: is there %u times", n);
	if (!last || !gate_is(last, "signed-off-by") ||
	    !trailer_email_eq(last, g->o.user_email))
		gate_find(p, GATE_C_SIGNOFF, GATE_NOTE,
			  "move your Signed-off-by: to the end",
			  "your Signed-off-by: is not the last "
			  "trailer");
}

void
gate_check_sob(struct gate *g)
{
	GPtrArray *contacts = g_ptr_array_new();
	GHashTable *seen =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GHashTable *map =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	guint i;

	/* the mailmap can only match a sign-off there is: a patch with
	 * none costs no git process (and outside a tree, no note) */
	for (i = 0; i < g->patches->len; i++)
		if (!author_signed(g->patches->pdata[i]) &&
		    any_sob(g->patches->pdata[i]))
			ask_about(g->patches->pdata[i], contacts, seen);
	/* only a sign-off not matched plainly costs a git process */
	if (contacts->len && gate_tree(g))
		mailmap(g, contacts, map);
	for (i = 0; i < g->patches->len; i++) {
		struct gate_patch *p = g->patches->pdata[i];

		gate_ran(p, GATE_C_SIGNOFF, FALSE);
		if (!author_signed(p) && !mapped_sob(map, p))
			gate_find(p, GATE_C_SIGNOFF, GATE_FAIL,
				  "ask the author for a Signed-off-by:",
				  "the author, %s <%s>, has not signed off",
				  p->author_name, p->author_email);
		co_developers(p);
		applier(g, p);
	}
	g_ptr_array_free(contacts, TRUE);
	g_hash_table_destroy(seen);
	g_hash_table_destroy(map);
}
