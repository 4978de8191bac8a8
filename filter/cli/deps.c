/*
 * deps.c - a series' prerequisites found, made and ordered (deps.h). Each
 * prerequisite line names a mail (gathered as any thread is: -m
 * mailboxes, notmuch, the archive), a change-id or a patch-id (the
 * archive's public-inbox search: nq:"change-id: ID", patchid:HEX, the
 * answer checked, as an archive may answer anything). Its thread goes
 * through the series choice and the am job, quietly; its own cover
 * letter may name more, followed depth first, so that a series comes
 * after all it stands on (post-order: a chain and a diamond give each
 * series once, in order; a series met again while it is being followed
 * is a cycle). Then one git patch-id pass over HEAD's history says which
 * patches the tree has (git/applied.h).
 */
#include "cli/deps-int.h"
#include "core/util.h"
#include "git/treecheck.h"
#include "mail/patchid.h"
#include "mail/subject.h"
#include "series/choice.h"
#include "series/newer.h"
#include "series/prereq.h"
#include "trailers/trailer.h"

#include <string.h>

static void
dep_free(gpointer data)
{
	struct dep *d = data;

	if (!d)
		return;
	g_free(d->asked);
	g_free(d->key);
	g_free(d->label);
	series_set_free(d->s);
	thread_free(d->t);
	g_free(d->stem);
	if (d->pids)
		g_ptr_array_free(d->pids, TRUE);
	if (d->in)
		g_ptr_array_free(d->in, TRUE);
	if (d->use)
		g_string_free(d->use, TRUE);
	gate_free(d->gate);
	g_free(d);
}

void
deps_free(struct deps *d)
{
	if (!d)
		return;
	g_ptr_array_free(d->order, TRUE);
	g_ptr_array_free(d->lost, TRUE);
	g_ptr_array_free(d->guessed, TRUE);
	g_ptr_array_free(d->known, TRUE);
	g_ptr_array_free(d->stack, TRUE);
	g_hash_table_destroy(d->done);
	g_hash_table_destroy(d->asked);
	g_string_free(d->block, TRUE);
	g_string_free(d->mbox, TRUE);
	g_free(d->prereq_base);
	g_ptr_array_free(d->gates, TRUE);
	g_free(d);
}

/* The first mail of @ser: its cover letter, else its first patch. */
static struct spatch *
first_mail(struct series *ser)
{
	guint i;

	for (i = 0; i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;

		if (p)
			return p;
	}
	return NULL;
}

/* A prerequisite not found: said in the block, and by deps_run(). */
static void
lost(struct deps *d, const struct prereq *p, const char *why)
{
	g_autofree char *line = lore_term_safe(p->text, -1);
	g_autofree char *w = lore_term_safe(why, -1);

	g_ptr_array_add(p->prose ? d->guessed : d->lost,
			g_strdup_printf("'%s' not found (%s)", line, w));
}

/*
 * The mail a change-id (@p->revision, or the latest) or a patch-id
 * names, among what the archive's search found in @t: the one of that
 * revision, or the latest, sent as a patch or cover letter (not a
 * reply) whose own text says so. *@rev: its revision (0 for a patch-id,
 * whose thread's latest is meant). NULL when none does.
 */
static char *
pick(struct thread *t, const struct prereq *p, int *rev)
{
	struct message *best = NULL;
	int best_rev = 0;
	guint i;

	for (i = 0; i < t->msgs->len; i++) {
		struct message *m = t->msgs->pdata[i];
		struct subject sj;
		g_autofree char *v = NULL;
		gboolean better;

		subject_parse(m->subject ? m->subject : "", &sj);
		if (p->kind == PREREQ_CHANGE_ID)
			v = newer_change_id(message_body(m));
		else
			v = patchid_stable(message_am_body(m));
		better = !sj.reply && v && !strcmp(v, p->value) &&
			 (!p->revision || sj.revision == p->revision) &&
			 (!best || sj.revision > best_rev ||
			  (sj.revision == best_rev && m->date > best->date));
		if (better) {
			best = m;
			best_rev = sj.revision;
		}
		subject_clear(&sj);
	}
	*rev = p->kind == PREREQ_CHANGE_ID ? best_rev : 0;
	return best ? g_strdup(best->msgid) : NULL;
}

/* The Message-ID to gather for @p (g_free), or NULL with *@why. */
static char *
find_id(struct deps *d, const struct prereq *p, int *rev, char **why)
{
	g_autofree char *q = NULL;
	struct thread *t;
	GError *err = NULL;
	char *id = NULL;
	int rc;

	*rev = p->revision;
	if (p->kind == PREREQ_MESSAGE_ID)
		return g_strdup(p->value);
	if (p->kind == PREREQ_CHANGE_ID)
		q = g_strdup_printf("nq:\"change-id: %s\"", p->value);
	else
		q = g_strdup_printf("patchid:%s", p->value);
	t = thread_new();
	rc = gather_search(d->g, q, t, &err);
	if (!rc && !(id = pick(t, p, rev)))
		*why = g_strdup_printf("no mail of the archive's answers to "
				       "%s is it",
				       q);
	else if (rc)
		*why = g_strdup_printf("search %s: %s", q,
				       err ? err->message : "no answer");
	g_clear_error(&err);
	thread_free(t);
	return id;
}

/* The patch-ids of @dep's patches, in order. */
static void
dep_pids(struct dep *dep, struct series *ser)
{
	guint i;

	dep->pids = g_ptr_array_new_with_free_func(g_free);
	dep->in = g_ptr_array_new_with_free_func(g_free);
	for (i = 1; i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;

		g_ptr_array_add(dep->pids,
				p ? patchid_stable(message_am_body(p->msg))
				  : NULL);
		g_ptr_array_add(dep->in, NULL);
	}
}

/* The am job's options for a prerequisite: the run's trailers and
 * format, nothing written, no gate, no attestation (what goes first
 * gets both: depsplace.c) and no question of its own. */
void
deps_dep_opts(const struct amjob_opts *run, struct amjob_opts *o,
	      struct amjob_result *r, const char *id, int rev)
{
	*o = *run;
	o->use_version = rev;
	o->cherry_pick = NULL;
	o->allow_incomplete = FALSE;
	o->outdir = NULL;
	o->mbox_name = NULL;
	o->arriving = FALSE;
	o->target = id;
	o->result = r;
	o->hold = TRUE;
	o->base_later = TRUE;
	o->attest = NULL;
	o->gate.policy = GATE_OFF;
	o->explain = FALSE;
	o->depends_on = NULL;
	o->deps_mbox = NULL;
}

/*
 * The series of @id's thread (revision @rev, 0: the latest) through the
 * usual stages; its own prerequisites in *@sub. NULL with *@why.
 */
static struct dep *
make(struct deps *d, const char *id, int rev, struct prereqs **sub, char **why)
{
	struct choice_opts co = {0};
	struct choice *ch;
	struct amjob_opts o;
	struct amjob_result r = {0};
	struct dep *dep = g_new0(struct dep, 1);
	struct series *ser = NULL;
	struct spatch *first = NULL;
	GError *err = NULL;
	int quiet = lore_quiet, rc;
	const char *body;

	co.use_version = rev;
	co.sends = trailer_reply_sends;
	ch = choice_new(&co);
	lore_quiet = 1;
	rc = gather_run(d->g, id, NULL, &ch->need, &dep->t, &err);
	if (!rc && !thread_get(dep->t, id))
		rc = LORE_ENOTFOUND;
	if (!rc)
		rc = choice_make(ch, d->g, dep->t, id, &dep->s);
	if (!rc) {
		deps_dep_opts(d->o, &o, &r, id, rev);
		rc = amjob_run(dep->s, &o);
	}
	lore_quiet = quiet;
	choice_free(ch);
	if (!rc && (ser = series_get(dep->s, r.revision)))
		first = first_mail(ser);
	if (rc || !first || !r.mbox) {
		*why = g_strdup(err ? err->message
				: rc && dep->t && !thread_get(dep->t, id)
				    ? "not in the sources"
				    : "no complete series in its thread");
		g_clear_error(&err);
		amjob_result_clear(&r);
		dep_free(dep);
		return NULL;
	}
	dep->key = g_strdup(first->msg->msgid);
	dep->label = lore_term_safe(first->msg->subject, -1);
	dep->origin = first->msg->origin;
	dep->revision = r.revision;
	dep->stem = g_strdup(r.stem);
	dep_pids(dep, ser);
	body = message_body(first->msg);
	*sub = prereq_parse(body, strlen(body));
	amjob_result_clear(&r);
	return dep;
}

static gboolean
on_stack(struct deps *d, const char *key, guint *at)
{
	guint i;

	for (i = 0; i < d->stack->len; i++)
		if (!strcmp(d->stack->pdata[i], key)) {
			*at = i;
			return TRUE;
		}
	return FALSE;
}

/* "<a> -> <b> -> <a>": the cycle, from where @key was first followed */
static void
say_cycle(struct deps *d, guint at, const char *key)
{
	GString *s = g_string_new(NULL);
	g_autofree char *safe = NULL;
	guint i;

	for (i = at; i < d->stack->len; i++)
		g_string_append_printf(s, "<%s> -> ",
				       (char *)d->stack->pdata[i]);
	g_string_append_printf(s, "<%s>", key);
	safe = lore_term_safe(s->str, -1);
	g_string_free(s, TRUE);
	lore_err("the prerequisites form a cycle: %s; refused, nothing "
		 "written or applied",
		 safe);
}

static int visit(struct deps *d, struct prereqs *ps, guint depth);

/* One prerequisite, and what it stands on, into d->order. */
static int
follow(struct deps *d, const struct prereq *p, guint depth)
{
	g_autofree char *id = NULL, *why = NULL;
	struct prereqs *sub = NULL;
	struct dep *dep;
	const char *key;
	guint at;
	int rev, rc;

	if (!(id = find_id(d, p, &rev, &why))) {
		lost(d, p, why);
		return LORE_OK;
	}
	key = g_hash_table_lookup(d->asked, id);
	if (key && on_stack(d, key, &at)) {
		say_cycle(d, at, key);
		return LORE_ENOTFOUND;
	}
	if (key)
		return LORE_OK;
	/* a cover letter may name many, and theirs more: bounded */
	if (++d->followed > PREREQ_MAX) {
		lore_err("more than %d prerequisite series: refused, nothing "
			 "written or applied",
			 PREREQ_MAX);
		return LORE_ENOTFOUND;
	}
	if (!(dep = make(d, id, rev, &sub, &why))) {
		lost(d, p, why);
		return LORE_OK;
	}
	g_hash_table_insert(d->asked, g_strdup(id), g_strdup(dep->key));
	rc = LORE_OK;
	if (on_stack(d, dep->key, &at)) {
		say_cycle(d, at, dep->key);
		rc = LORE_ENOTFOUND;
	} else if (g_hash_table_contains(d->done, dep->key)) {
		g_clear_pointer(&dep, dep_free);
	} else if (sub->items->len && depth + 1 >= DEPS_MAX_DEPTH) {
		lore_err("prerequisites deeper than %d series: refused, "
			 "nothing written or applied",
			 DEPS_MAX_DEPTH);
		rc = LORE_ENOTFOUND;
	} else {
		dep->asked = lore_term_safe(p->text, -1);
		g_ptr_array_add(d->stack, dep->key);
		rc = visit(d, sub, depth + 1);
		g_ptr_array_remove_index(d->stack, d->stack->len - 1);
	}
	prereqs_free(sub);
	if (rc || !dep) {
		dep_free(dep);
		return rc;
	}
	g_hash_table_add(d->done, g_strdup(dep->key));
	g_ptr_array_add(d->order, dep);
	return LORE_OK;
}

static int
visit(struct deps *d, struct prereqs *ps, guint depth)
{
	GHashTable *known = deps_in_tree(d, ps);
	guint i;
	int rc = LORE_OK;

	for (i = 0; !rc && i < ps->items->len; i++) {
		const struct prereq *p = ps->items->pdata[i];

		if (p->kind == PREREQ_PATCH_ID && known &&
		    g_hash_table_contains(known, p->value))
			continue;
		if (p->kind == PREREQ_PATCHWORK) {
			g_autofree char *l = lore_term_safe(p->text, -1);

			lore_err("warning: '%s' names a patchwork %s: lore-am "
				 "cannot resolve it without a patchwork server",
				 l,
				 g_str_has_prefix(p->value, "patch-")
				     ? "patch"
				     : "series");
			continue;
		}
		rc = follow(d, p, depth);
	}
	if (known)
		g_hash_table_destroy(known);
	return rc;
}

int
deps_run(struct gather *g, struct series_set *s, struct amjob_opts *o,
	 const struct cli *c, struct config *cfg, struct deps **out)
{
	struct series *ser;
	struct spatch *first;
	struct prereqs *ps;
	struct deps *d;
	const char *body;
	gsize len;
	int rc;

	*out = NULL;
	if (c->no_deps || c->passthrough || c->range_diff || c->thread ||
	    !(ser = series_get(s, o->use_version)) ||
	    !(first = first_mail(ser)))
		return LORE_OK;
	/* the text the series stage read already (base-commit:) */
	body = message_body(first->msg);
	len = strlen(body);
	if (!prereq_may_hold(body, len))
		return LORE_OK;
	ps = prereq_parse(body, len);
	if (!ps->items->len) {
		prereqs_free(ps);
		return LORE_OK;
	}
	d = *out = g_new0(struct deps, 1);
	d->g = g;
	d->o = o;
	d->order = g_ptr_array_new_with_free_func(dep_free);
	d->lost = g_ptr_array_new_with_free_func(g_free);
	d->guessed = g_ptr_array_new_with_free_func(g_free);
	d->known = g_ptr_array_new_with_free_func(g_free);
	d->lookback = deps_lookback(cfg);
	d->cfg = cfg;
	d->gates = g_ptr_array_new();
	{
		g_autofree char *top = treecheck_toplevel();

		d->no_tree = !top;
	}
	d->stack = g_ptr_array_new();
	d->done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	d->asked =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	d->block = g_string_new(NULL);
	d->mbox = g_string_new(NULL);
	g_ptr_array_add(d->stack, first->msg->msgid);
	d->prereq_base = g_steal_pointer(&ps->prereq_base);
	rc = visit(d, ps, 0);
	prereqs_free(ps);
	if (rc)
		return rc;
	deps_check_tree(d);
	if ((rc = deps_report(d, c)))
		return rc;
	o->depends_on = d->block->str;
	if (d->mbox->len)
		o->deps_mbox = d->mbox;
	/* the series' gate says theirs, first where they come first */
	if (d->gates->len) {
		o->gate.deps = d->gates;
		o->gate.deps_first = c->apply || c->with_deps;
	}
	return LORE_OK;
}
