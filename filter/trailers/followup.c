/*
 * followup.c - the trailers stage. Collecting and attaching follow b4's
 * LoreMailbox (a reply's trailers go up its reply chain to the first patch
 * or cover letter); carrying follows b4's patch-id matching across
 * revisions; merging follows b4's fix_trailers(): follow-ups, then links,
 * then Cc from --cc-trailers, in the order given, reordered by
 * trailer-order past the last Signed-off-by, deduplicated against what the
 * patch already has, and the user's own Signed-off-by always last.
 */
#include "trailers/followup.h"
#include "trailers/bodyparts.h"
#include "trailers/bots.h"
#include "mail/patchid.h"
#include "trailers/hygiene.h"
#include "trailers/trailer.h"
#include "core/util.h"

#include <fnmatch.h>
#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

static struct spatch *
parent_of(struct series_set *s, const struct spatch *p)
{
	return series_spatch_of(s, thread_parent(s->thread, p->msg));
}

/* The list of trailers sent to @p, made on first use. */
static GPtrArray *
to_list(struct followups *f, struct spatch *p)
{
	GPtrArray *l = g_hash_table_lookup(f->to, p);

	if (!l) {
		l = g_ptr_array_new();
		g_hash_table_insert(f->to, p, l);
	}
	return l;
}

/*
 * The patch or cover letter reply @r answers: its first ancestor that is
 * not a reply. Answers are memoised for every reply on the way up, so a
 * chain of n replies costs O(n) in all, not O(n^2); a reference cycle
 * (a message met twice) ends the walk with no answer.
 */
static struct spatch *
answered(struct series_set *s, struct spatch *r, GHashTable *memo,
	 GHashTable *on_path, GPtrArray *path)
{
	struct spatch *p = parent_of(s, r), *found = NULL;
	gpointer v;
	guint i;

	g_hash_table_remove_all(on_path);
	g_ptr_array_set_size(path, 0);
	g_hash_table_add(on_path, r);
	while (p) {
		if (!p->reply) {
			found = p;
			break;
		}
		if (g_hash_table_lookup_extended(memo, p, NULL, &v)) {
			found = v;
			break;
		}
		if (!g_hash_table_add(on_path, p))
			break;
		g_ptr_array_add(path, p);
		p = parent_of(s, p);
	}
	for (i = 0; i < path->len; i++)
		g_hash_table_insert(memo, path->pdata[i], found);
	return found;
}

/*
 * Follow the reply chain up to the patch or cover letter it answers.
 * Trailers are taken in the order the replies were sent (their Date;
 * GLib's sort is stable, so equal dates keep the thread's order): the
 * same series then gets the same trailers in the same order from an mbox,
 * a maildir (whose file names need not sort in delivery order), notmuch
 * or the archive.
 */
/*
 * The trailers the patch @p carries itself (its commit message's), read
 * once into @own; empty for a message without a diff.
 */
static GPtrArray *
own_trailers(GHashTable *own, struct spatch *p)
{
	struct body_parts bp;
	GPtrArray *l = g_hash_table_lookup(own, p);

	if (l)
		return l;
	if (!p->has_diff) {
		l = trailer_array_new();
	} else {
		body_split(message_body(p->msg), &bp);
		l = g_steal_pointer(&bp.trailers);
		body_parts_clear(&bp);
	}
	g_hash_table_insert(own, p, l);
	return l;
}

/*
 * A trailer whose sender does not match is noted, unless the patch the
 * reply answers already carries it: a reply quoting the patch's trailers
 * (to suggest another order, say) sends nothing new (b4 0.17).
 */
static gboolean
mismatch(struct followups *f, struct spatch *r, const struct trailer *t,
	 GHashTable *own)
{
	struct spatch *par = parent_of(f->set, r);

	return !par || !trailer_in(own_trailers(own, par), t);
}

/* For g_array_sort() of struct followup_sent: by the reply's date. */
static int
sent_by_date(gconstpointer a, gconstpointer b)
{
	const struct followup_sent *x = a, *y = b;

	return series_by_date(&x->reply, &y->reply);
}

static void
attach_replies(struct followups *f, gboolean sloppy)
{
	GHashTable *memo = g_hash_table_new(NULL, NULL);
	GHashTable *on_path = g_hash_table_new(NULL, NULL);
	GHashTable *own = g_hash_table_new_full(
	    NULL, NULL, NULL, (GDestroyNotify)g_ptr_array_unref);
	GPtrArray *path = g_ptr_array_new();
	guint i, k;

	g_array_sort(f->sent, sent_by_date);
	for (i = 0; i < f->sent->len; i++) {
		struct followup_sent *e =
		    &g_array_index(f->sent, struct followup_sent, i);
		struct spatch *r = e->reply;
		struct spatch *p = answered(f->set, r, memo, on_path, path);
		GPtrArray *sent = e->trailers;

		if (bots_hold(f, e))
			continue;
		for (k = 0; k < sent->len; k++) {
			struct trailer *t = sent->pdata[k];

			if (sloppy || trailer_sender_ok(t, r->msg)) {
				if (p && hygiene_accept(f->hygiene, t))
					g_ptr_array_add(to_list(f, p), t);
			} else if (mismatch(f, r, t, own)) {
				g_ptr_array_add(f->mismatches, t);
			}
		}
	}
	g_ptr_array_free(path, TRUE);
	g_hash_table_destroy(own);
	g_hash_table_destroy(on_path);
	g_hash_table_destroy(memo);
}

struct followups *
followup_collect(struct series_set *s, gboolean sloppy)
{
	struct followups *f = g_new0(struct followups, 1);
	guint i;

	f->set = s;
	f->sent = g_array_new(FALSE, FALSE, sizeof(struct followup_sent));
	f->to = g_hash_table_new_full(NULL, NULL, NULL,
				      (GDestroyNotify)g_ptr_array_unref);
	f->mismatches = g_ptr_array_new();
	f->patchids = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	f->files = g_hash_table_new_full(NULL, NULL, NULL,
					 (GDestroyNotify)patchid_files_free);
	f->hygiene = hygiene_new();
	for (i = 0; i < s->all->len; i++) {
		struct followup_sent e = {s->all->pdata[i], NULL};

		if (!e.reply->reply)
			continue;
		e.trailers = trailer_from_reply(e.reply->msg,
						message_body(e.reply->msg));
		if (e.trailers->len)
			g_array_append_val(f->sent, e);
		else
			g_ptr_array_free(e.trailers, TRUE);
	}
	attach_replies(f, sloppy);
	return f;
}

void
followup_free(struct followups *f)
{
	guint i;

	if (!f)
		return;
	g_hash_table_destroy(f->to);
	g_ptr_array_free(f->mismatches, TRUE);
	for (i = 0; i < f->sent->len; i++)
		g_ptr_array_free(
		    g_array_index(f->sent, struct followup_sent, i).trailers,
		    TRUE);
	g_array_free(f->sent, TRUE);
	g_hash_table_destroy(f->patchids);
	g_hash_table_destroy(f->files);
	hygiene_free(f->hygiene);
	if (f->carried)
		g_hash_table_destroy(f->carried);
	bots_clear(f);
	g_free(f);
}

static struct trailer *
my_sob(const struct followup_opts *o)
{
	g_autofree char *v = NULL;

	if (!o->user_name || !o->user_email)
		return NULL;
	v = g_strdup_printf("%s <%s>", o->user_name, o->user_email);
	return trailer_new("Signed-off-by", v, NULL);
}

/* Take the first trailer equal to @t out of @list (which does not own
 * it); NULL when there is none. */
static struct trailer *
take_eq(GPtrArray *list, const struct trailer *t)
{
	guint i;

	for (i = 0; i < list->len; i++)
		if (trailer_eq(list->pdata[i], t))
			return g_ptr_array_steal_index(list, i);
	return NULL;
}

/* Python's sort key for Cc addresses: domain + local part. */
static char *
cc_key(const char *email)
{
	const char *at = strchr(email, '@');

	if (!at || at == email)
		return g_strdup(email);
	return g_strdup_printf("%s%.*s", at + 1, (int)(at - email), email);
}

struct addr {
	char *name, *email, *key;
};

static int
by_cc_key(gconstpointer a, gconstpointer b)
{
	const struct addr *x = *(struct addr *const *)a;
	const struct addr *y = *(struct addr *const *)b;

	return strcmp(x->key, y->key);
}

static void
addr_free(struct addr *a)
{
	g_free(a->name);
	g_free(a->email);
	g_free(a->key);
	g_free(a);
}

static void
add_addrs(GPtrArray *out, const char *hdr)
{
	InternetAddressList *l;
	int i, n;

	if (!hdr)
		return;
	l = internet_address_list_parse(NULL, hdr);
	if (!l)
		return;
	n = internet_address_list_length(l);
	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		struct addr *a;

		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		a = g_new0(struct addr, 1);
		/* decoded names may hold line breaks: a trailer is one line */
		a->name = lore_one_line(internet_address_get_name(ia), -1);
		a->email = lore_one_line(internet_address_mailbox_get_addr(
					     INTERNET_ADDRESS_MAILBOX(ia)),
					 -1);
		a->key = cc_key(a->email);
		g_ptr_array_add(out, a);
	}
	g_object_unref(l);
}

static void
add_cc_trailers(const struct message *m, GPtrArray *body_tr, GPtrArray *newt,
		GPtrArray *owned)
{
	GPtrArray *addrs =
	    g_ptr_array_new_with_free_func((GDestroyNotify)addr_free);
	guint i, k;

	add_addrs(addrs, m->to_hdr);
	add_addrs(addrs, m->cc_hdr);
	/* stable sort, as Python's list.sort */
	g_ptr_array_sort(addrs, by_cc_key);
	for (i = 0; i < addrs->len; i++) {
		struct addr *a = addrs->pdata[i];
		gboolean found = FALSE;
		struct trailer *t;
		g_autofree char *v = NULL;

		for (k = 0; k < body_tr->len && !found; k++)
			found = trailer_email_eq(body_tr->pdata[k], a->email);
		for (k = 0; k < newt->len && !found; k++)
			found = trailer_email_eq(newt->pdata[k], a->email);
		if (found)
			continue;
		v = *a->name ? g_strdup_printf("%s <%s>", a->name, a->email)
			     : g_strdup(a->email);
		t = trailer_new("Cc", v, NULL);
		g_ptr_array_add(owned, t);
		g_ptr_array_add(newt, t);
	}
	g_ptr_array_free(addrs, TRUE);
}

static void
apply_order(const char *order, GPtrArray *body_tr, GPtrArray **newt)
{
	g_auto(GStrv) globs = NULL;
	GPtrArray *ordered = g_ptr_array_new();
	guint i, k;

	/* trailers after the last Signed-off-by are in our custody */
	while (body_tr->len) {
		struct trailer *t = body_tr->pdata[body_tr->len - 1];

		if (!strcmp(t->lname, "signed-off-by"))
			break;
		g_ptr_array_insert(*newt, 0, t);
		g_ptr_array_remove_index(body_tr, body_tr->len - 1);
	}
	globs = g_strsplit(order, ",", -1);
	for (i = 0; globs[i] && (*newt)->len; i++) {
		g_autofree char *g = g_ascii_strdown(g_strstrip(globs[i]), -1);

		for (k = 0; k < (*newt)->len;) {
			struct trailer *t = (*newt)->pdata[k];

			if (!fnmatch(g, t->lname, 0)) {
				g_ptr_array_add(ordered, t);
				g_ptr_array_remove_index(*newt, k);
			} else {
				k++;
			}
		}
	}
	g_ptr_array_extend(ordered, *newt, NULL, NULL);
	g_ptr_array_free(*newt, TRUE);
	*newt = ordered;
}

static gboolean
ignored_sender(const struct followup_opts *o, const struct trailer *t)
{
	guint i;

	for (i = 0; o->ignore_from && i < o->ignore_from->len; i++) {
		const char *ig = o->ignore_from->pdata[i];

		if (t->addr_email && !g_ascii_strcasecmp(t->addr_email, ig))
			return TRUE;
		if (t->src && !g_ascii_strcasecmp(t->src->from_email, ig))
			return TRUE;
	}
	return FALSE;
}

char *
followup_merge(const struct message *m, const char *body, GPtrArray *fu,
	       const struct followup_opts *o, GPtrArray *added,
	       GPtrArray *ignored_out)
{
	struct body_parts bp;
	GPtrArray *owned = trailer_array_new();
	GPtrArray *newt = g_ptr_array_new();
	GPtrArray *fix, *ignored = g_ptr_array_new();
	struct trailer *sob = my_sob(o), *own_sob = NULL;
	gboolean addmysob = o->add_my_sob && sob;
	char *out;
	guint i;

	body_split(body, &bp);
	/* bp.trailers owns the body's trailers; work on borrowed views */
	fix = g_ptr_array_new();
	g_ptr_array_extend(fix, bp.trailers, NULL, NULL);
	/* the user's own Signed-off-by goes last, as the patch has it */
	if (sob)
		own_sob = take_eq(fix, sob);
	g_ptr_array_extend(newt, fu, NULL, NULL);
	if (o->add_link && o->link_trailer) {
		g_autofree char *line =
		    lore_mask_fill(o->link_trailer, m->msgid);
		char *colon = strchr(line, ':');

		if (colon) {
			*colon = '\0';
			g_ptr_array_add(
			    owned, trailer_new(g_strstrip(line),
					       g_strstrip(colon + 1), NULL));
			g_ptr_array_add(newt, owned->pdata[owned->len - 1]);
		}
	}
	if (sob && take_eq(newt, sob))
		addmysob = TRUE;
	if (o->cc_trailers)
		add_cc_trailers(m, fix, newt, owned);
	if (o->trailer_order && *o->trailer_order &&
	    strcmp(o->trailer_order, "*"))
		apply_order(o->trailer_order, fix, &newt);
	for (i = 0; i < newt->len; i++) {
		struct trailer *t = newt->pdata[i];

		if (trailer_in(fix, t) || trailer_in(ignored, t) ||
		    hygiene_link_in(fix, t))
			continue;
		if (ignored_sender(o, t)) {
			g_ptr_array_add(ignored, t);
			if (ignored_out)
				g_ptr_array_add(ignored_out,
						trailer_string(t, FALSE));
			continue;
		}
		g_ptr_array_add(fix, t);
		if (added)
			g_ptr_array_add(added, trailer_string(t, FALSE));
	}
	if (own_sob) {
		g_ptr_array_add(fix, own_sob);
	} else if (addmysob) {
		g_ptr_array_add(fix, sob);
		if (added)
			g_ptr_array_add(added, trailer_string(sob, FALSE));
	}
	out = body_rebuild(&bp, fix);
	g_ptr_array_free(fix, TRUE);
	g_ptr_array_free(newt, TRUE);
	g_ptr_array_free(ignored, TRUE);
	g_ptr_array_free(owned, TRUE);
	trailer_free(sob);
	body_parts_clear(&bp);
	return out;
}

void
followup_report(struct followups *f)
{
	GHashTable *seen;
	guint i;

	hygiene_report(f->hygiene);
	bots_report(f);
	if (!f->mismatches->len)
		return;
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	lore_info("---");
	lore_info("NOTE: some trailers ignored due to from/email mismatches:");
	for (i = 0; i < f->mismatches->len; i++) {
		const struct trailer *t = f->mismatches->pdata[i];
		char *line = trailer_string(t, FALSE);
		g_autofree char *from = NULL, *sl = NULL, *sf = NULL;

		if (g_hash_table_contains(seen, line)) {
			g_free(line);
			continue;
		}
		g_hash_table_add(seen, line);
		sl = lore_term_safe(line, -1);
		lore_info("    ! Trailer: %s", sl);
		from = g_strdup_printf("%s <%s>", t->src->from_name,
				       t->src->from_email);
		sf = lore_term_safe(from, -1);
		lore_info("     Msg From: %s", sf);
	}
	lore_info("NOTE: Rerun with -S to apply them anyway");
	g_hash_table_destroy(seen);
}
