/*
 * gather.c - asking the sources in order: the local ones first, fallbacks
 * only while the caller's need is not met, the archive for what is missing,
 * then the -m mailboxes again for what the later sources' messages join.
 * Merging is the thread's first-copy-wins dedup by Message-ID, so asking
 * local sources first is what prefers local copies. The piped message is
 * provisional (thread.h): a source's copy replaces it, and it never counts
 * as a source having answered.
 */
#include "source/gather.h"
#include "core/util.h"

#include <string.h>

gboolean
gather_parse_mode(const char *name, enum gather_mode *out)
{
	static const char *const names[] = {"auto", "notmuch", "lore", "mbox"};
	guint i;

	for (i = 0; name && i < G_N_ELEMENTS(names); i++) {
		if (!g_ascii_strcasecmp(name, names[i])) {
			*out = (enum gather_mode)i;
			return TRUE;
		}
	}
	return FALSE;
}

struct gather *
gather_new(void)
{
	struct gather *g = g_new0(struct gather, 1);

	g->local = g_ptr_array_new_with_free_func((GDestroyNotify)source_free);
	g->roles = g_array_new(FALSE, FALSE, sizeof(enum gather_role));
	g->notes = g_ptr_array_new_with_free_func(g_free);
	g->asked = g_ptr_array_new();
	return g;
}

void
gather_free(struct gather *g)
{
	if (!g)
		return;
	g_ptr_array_free(g->local, TRUE);
	g_array_free(g->roles, TRUE);
	source_free(g->archive);
	g_ptr_array_free(g->notes, TRUE);
	g_ptr_array_free(g->asked, TRUE);
	g_free(g);
}

void
gather_add_local(struct gather *g, struct source *src, enum gather_role role)
{
	src->max_cost = g->max_cost;
	g_ptr_array_add(g->local, src);
	g_array_append_val(g->roles, role);
}

void
gather_set_archive(struct gather *g, struct source *archive)
{
	source_free(g->archive);
	g->archive = archive;
}

/* The state of one gathering: the thread and what is known of it. */
struct state {
	struct gather *g;
	const char *msgid;
	const struct gather_need *need; /* NULL: --thread, never enough */
	struct thread *t;
	gboolean cut;	     /* t was cut to the target's reply tree ... */
	guint cut_len;	     /* ... when it had this many messages */
	gboolean answered;   /* a source supplied the target itself */
	gboolean piped_only; /* the archive failed, and the piped message
				is the whole series by itself */
	GArray *seen;	     /* guint per local source: total_added() after it
				answered; G_MAXUINT: not asked */
};

/* The messages all sources have added so far (it only grows). */
static guint
total_added(const struct gather *g)
{
	guint n = g->archive ? g->archive->added : 0, i;

	for (i = 0; i < g->local->len; i++)
		n += ((const struct source *)g->local->pdata[i])->added;
	return n;
}

static void
note(struct gather *g, char *text)
{
	g_ptr_array_add(g->notes, text);
}

/*
 * The thread cut to the target's reply tree; cut again only when it has
 * grown (between two asks it can only grow) or was settled.
 */
static void
cut(struct state *st)
{
	if (st->cut && st->cut_len == st->t->msgs->len)
		return;
	if (st->msgid)
		thread_prune(st->t, st->msgid, st->g->no_parent);
	st->cut = TRUE;
	st->cut_len = st->t->msgs->len;
}

/* The caller's answer on the thread as it is now (gather_need). */
static gboolean
needs_met(struct state *st, gboolean alone)
{
	cut(st);
	return st->need->enough(st->t, st->msgid, alone, st->need->data);
}

/* Does the thread hold the target and what the caller needs of it? */
static gboolean
have_enough(struct state *st)
{
	return thread_get(st->t, st->msgid) && needs_met(st, FALSE);
}

/* Is there anything left to ask a source for? */
static gboolean
enough(struct state *st)
{
	return st->answered && st->need && have_enough(st);
}

static void
asked(struct state *st, struct source *src)
{
	const struct message *m = thread_get(st->t, st->msgid);

	g_ptr_array_add(st->g->asked, src->label);
	if (m && !m->provisional)
		st->answered = TRUE;
}

static int
ask_locals(struct state *st, GError **err)
{
	struct gather *g = st->g;
	guint i;

	for (i = 0; i < g->local->len; i++) {
		struct source *src = g->local->pdata[i];
		enum gather_role role =
		    g_array_index(g->roles, enum gather_role, i);
		GError *e = NULL;
		int rc;

		/* a fallback needs the id to look up */
		if (role == GATHER_FALLBACK && (!st->msgid || enough(st)))
			continue;
		rc = source_fetch(src, st->msgid, st->t, &e);
		if (rc == LORE_OK) {
			asked(st, src);
			g_array_index(st->seen, guint, i) = total_added(g);
			continue;
		}
		if (role == GATHER_FALLBACK &&
		    g_error_matches(e, SOURCE_ERROR,
				    SOURCE_ERROR_UNAVAILABLE)) {
			g_error_free(e);
			continue;
		}
		/* a database busy all the retry time (notmuch new, compact)
		 * is no reason to fail when the archive can answer */
		if (role == GATHER_FALLBACK && g->archive &&
		    g_error_matches(e, SOURCE_ERROR, SOURCE_ERROR_BUSY)) {
			note(g, g_strdup_printf("%s was not read (%s); the "
						"archive was asked instead",
						src->label, e->message));
			g_error_free(e);
			continue;
		}
		g_propagate_error(err, e);
		return rc;
	}
	return LORE_OK;
}

/*
 * Nothing but the piped message to work from (no local source had the
 * target, the archive failed): is it a whole series by itself? A patch
 * (or a mail of attached patches) that answers nothing, so that no cover
 * letter, earlier revision or reply is known to belong with it, and whose
 * series it completes alone. Not for --thread: a thread is more than one
 * message.
 */
static gboolean
piped_whole(struct state *st)
{
	const struct message *m = thread_get(st->t, st->msgid);

	return m && m->provisional && st->need && !m->in_reply_to &&
	       !m->refs->len && needs_met(st, TRUE);
}

/*
 * The archive failed (@e, status @rc) and no source supplied the target:
 * a piped message is written alone when it is a whole series by itself,
 * with a note; else the error, which then says what would have helped a
 * mail client's key.
 */
static int
archive_failed_alone(struct state *st, GError *e, int rc, GError **err)
{
	struct gather *g = st->g;
	const struct message *m = thread_get(st->t, st->msgid);
	g_autofree char *id = lore_term_safe(st->msgid, -1);

	if (!m || !m->provisional) {
		g_propagate_error(err, e);
		return rc;
	}
	if (rc != LORE_EUSAGE && piped_whole(st)) {
		note(g,
		     g_strdup_printf("<%s> is a whole series by itself (a "
				     "patch that answers nothing) and the "
				     "archive did not give its thread (%s): "
				     "written from the piped copy; trailers "
				     "in replies to it, if any, are not added",
				     id, e->message));
		st->piped_only = TRUE;
		g_error_free(e);
		return LORE_OK;
	}
	g_set_error(err, e->domain, e->code,
		    "%s (with no local copy of the thread: give -m MBOX or "
		    "-N for notmuch to work from local mail)",
		    e->message);
	g_error_free(e);
	return rc;
}

static int
ask_archive(struct state *st, GError **err)
{
	struct gather *g = st->g;
	GError *e = NULL;
	int rc;

	if (!st->msgid || (enough(st) && !g->complete))
		return LORE_OK;
	if (!g->archive) {
		if (st->answered && st->need && !have_enough(st))
			note(g, g_strdup("the local thread's series is "
					 "incomplete and there is no archive "
					 "source to complete it from"));
		return LORE_OK;
	}
	rc = source_fetch(g->archive, st->msgid, st->t, &e);
	if (rc == LORE_OK) {
		asked(st, g->archive);
		return LORE_OK;
	}
	/* a piped message alone is no local copy to work from, unless it
	 * is all there is of its series */
	if (!st->answered)
		return archive_failed_alone(st, e, rc, err);
	note(g, g_strdup_printf("could not complete the thread from %s (%s): "
				"working from the local copy",
				g->archive->label ? g->archive->label
						  : g->archive->name,
				e->message));
	g_error_free(e);
	return LORE_OK;
}

/*
 * What a later source brought (the archive, notmuch, the next -m) may join
 * messages of a -m mailbox that nothing joined before (a reply in the
 * folder to a message only the archive has): a mailbox asked before the
 * thread grew is asked again, its index walking from the thread's ids now,
 * as a scan of the whole folder keeps them. A walk takes the whole
 * connected part of folder and thread at once, so only what another
 * mailbox adds in turn asks for one more round; the rounds are bounded.
 */
static int
reask_locals(struct state *st, GError **err)
{
	struct gather *g = st->g;
	guint round, i;
	gboolean more = TRUE;

	for (round = 0; st->msgid && more && round <= g->local->len; round++) {
		more = FALSE;
		for (i = 0; i < g->local->len; i++) {
			struct source *src = g->local->pdata[i];
			guint *seen = &g_array_index(st->seen, guint, i);
			guint had = src->added;
			int rc;

			if (!src->reask || *seen == G_MAXUINT ||
			    *seen == total_added(g))
				continue;
			rc = source_fetch(src, st->msgid, st->t, err);
			if (rc)
				return rc;
			*seen = total_added(g);
			more = more || src->added > had;
		}
	}
	return LORE_OK;
}

int
gather_run(struct gather *g, const char *msgid, struct message *piped,
	   const struct gather_need *need, struct thread **out, GError **err)
{
	struct state st = {g, msgid, need,  thread_new(), FALSE,
			   0, FALSE, FALSE, NULL};
	guint unasked = G_MAXUINT, i;
	int rc;

	*out = NULL;
	/*
	 * The piped message goes in first, so that the sources can use it
	 * (notmuch finds a thread through the ids it answers), but only
	 * provisionally: a source's copy, untouched by the mail client,
	 * replaces it, and what is left moves to the end, so that neither the
	 * thread's order nor the trailers' depends on which message of the
	 * thread the user happened to pipe.
	 */
	if (piped)
		thread_add_provisional(st.t, piped, "stdin");
	st.seen = g_array_new(FALSE, FALSE, sizeof(guint));
	for (i = 0; i < g->local->len; i++)
		g_array_append_val(st.seen, unasked);
	rc = ask_locals(&st, err);
	if (!rc)
		rc = ask_archive(&st, err);
	if (!rc)
		rc = reask_locals(&st, err);
	g_array_free(st.seen, TRUE);
	if (!rc && !g->asked->len && !st.piped_only) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "no thread source: give -m MBOX, set up notmuch, "
			    "or let lore-am use the archive");
		rc = LORE_EUSAGE;
	}
	if (rc) {
		thread_free(st.t);
		return rc;
	}
	/* the piped copy is the last message, unless a source replaced it */
	if (thread_settle(st.t))
		st.cut = FALSE;
	if (need)
		cut(&st);
	else if (thread_get(st.t, msgid))
		thread_prune(st.t, msgid, g->no_parent);
	*out = st.t;
	return LORE_OK;
}

/* One source's search: a query in its syntax, or a struct source_query. */
typedef int (*ask_fn)(struct source *src, const void *q, struct thread *t,
		      GError **err);

static int
ask_search(struct source *src, const void *q, struct thread *t, GError **err)
{
	return src->search ? src->search(src, q, t, err) : -1;
}

static int
ask_find(struct source *src, const void *q, struct thread *t, GError **err)
{
	return src->find ? src->find(src, q, t, err) : -1;
}

/*
 * Every source that can answer @fn (-1: it cannot), the local ones first:
 * any answer counts; else the first real failure is told, not a "nothing
 * here". @what names the question when no source can answer it.
 */
static int
ask_all(struct gather *g, ask_fn fn, const void *q, const char *what,
	struct thread *t, GError **err)
{
	GError *first = NULL;
	int rc = LORE_ENOTFOUND;
	gboolean searched = FALSE;
	guint i;

	for (i = 0; i <= g->local->len; i++) {
		struct source *src =
		    i < g->local->len ? g->local->pdata[i] : g->archive;
		GError *e = NULL;
		int r;

		if (!src || (r = fn(src, q, t, &e)) < 0)
			continue;
		searched = TRUE;
		/* a source not set up (notmuch) is no failure to tell */
		if (g_error_matches(e, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE))
			r = LORE_ENOTFOUND;
		if (r == LORE_OK ||
		    (rc != LORE_OK && (!first || (rc == LORE_ENOTFOUND &&
						  r != LORE_ENOTFOUND)))) {
			g_clear_error(&first);
			first = g_steal_pointer(&e);
			rc = r;
		}
		g_clear_error(&e);
	}
	if (!searched)
		g_set_error(&first, LORE_ERROR, LORE_ENOTFOUND,
			    "no source can %s", what);
	if (first && rc != LORE_OK)
		g_propagate_error(err, first);
	else
		g_clear_error(&first);
	return rc;
}

int
gather_search(struct gather *g, const char *query, struct thread *t,
	      GError **err)
{
	return ask_all(g, ask_search, query, "search", t, err);
}

int
gather_find(struct gather *g, const struct source_query *q, struct thread *t,
	    GError **err)
{
	return ask_all(g, ask_find, q, "look mail up by sender and date", t,
		       err);
}

int
gather_join(struct gather *g, const char *msgid, struct thread *t, GError **err)
{
	struct thread *extra = thread_new();
	int rc = LORE_ENOTFOUND;
	guint i;

	for (i = 0; i <= g->local->len; i++) {
		struct source *src =
		    i < g->local->len ? g->local->pdata[i] : g->archive;
		GError *e = NULL;
		int r;

		/* the archive only for what no local source had */
		if (!src || (i == g->local->len && thread_get(extra, msgid)))
			continue;
		r = source_fetch(src, msgid, extra, &e);
		if (r == LORE_OK || r == LORE_ENOTFOUND ||
		    g_error_matches(e, SOURCE_ERROR,
				    SOURCE_ERROR_UNAVAILABLE)) {
			g_clear_error(&e);
			continue;
		}
		g_propagate_error(err, e);
		thread_free(extra);
		return r;
	}
	if (thread_get(extra, msgid)) {
		thread_prune(extra, msgid, FALSE);
		thread_merge(t, extra);
		rc = LORE_OK;
	} else {
		g_autofree char *id = lore_term_safe(msgid, -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "no source has the thread of <%s>", id);
	}
	thread_free(extra);
	return rc;
}

int
gather_more(struct gather *g, const char *msgid, struct thread *t, GError **err)
{
	struct thread *extra = thread_new();
	int rc;

	if (!g->archive) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "no archive to fetch <%s> from", msgid);
		thread_free(extra);
		return LORE_EUSAGE;
	}
	rc = source_fetch(g->archive, msgid, extra, err);
	if (rc == LORE_OK) {
		thread_prune(extra, msgid, FALSE);
		thread_merge(t, extra);
	}
	thread_free(extra);
	return rc;
}

char *
gather_summary(struct thread *t)
{
	GPtrArray *names = g_ptr_array_new();
	GHashTable *counts = g_hash_table_new(g_str_hash, g_str_equal);
	GString *out = g_string_new("Sources:");
	guint i;

	for (i = 0; i < t->msgs->len; i++) {
		const struct message *m = t->msgs->pdata[i];
		const char *o = m->origin ? m->origin : "?";
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(counts, o));

		if (!n)
			g_ptr_array_add(names, (gpointer)o);
		g_hash_table_insert(counts, (gpointer)o,
				    GUINT_TO_POINTER(n + 1));
	}
	for (i = 0; i < names->len; i++) {
		guint n = GPOINTER_TO_UINT(
		    g_hash_table_lookup(counts, names->pdata[i]));

		g_string_append_printf(out, "%s %s %u message%s", i ? "," : "",
				       (char *)names->pdata[i], n,
				       n == 1 ? "" : "s");
	}
	if (!names->len)
		g_string_append(out, " none");
	g_ptr_array_free(names, TRUE);
	g_hash_table_destroy(counts);
	return g_string_free(out, FALSE);
}
