/*
 * digout.c - lore-am dig's answer, as b4 dig (0.15) gives it: the best
 * match (the patch a Link: trailer names, else the newest with the
 * commit's patch-id, else its title; none sent after the commit's day),
 * "---" and its subject on stderr and its link on stdout; with -a every
 * revision ("  vN: SUBJECT", its date and sender, the link of its patch
 * the commit matches, or of its first); -w the people the patch went to
 * (Reply-To or From, To, Cc: each address once); -m FILE its thread as
 * mboxrd, written whole to a temporary name and renamed.
 */
#include "cli/cmd.h"
#include "cli/dig-int.h"
#include "core/util.h"
#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include "mail/patchid.h"
#include "mail/subject.h"
#include "series/series.h"
#include "source/gather.h"
#include "source/url.h"
#include "write/am.h"
#include "write/deliver.h"
#include "write/writer.h"

#include <stdio.h>
#include <string.h>

/* addresses -w prints, at most: a hostile Cc holds thousands */
#define DIG_MAX_WHO 256

char *
dig_title_of(const struct message *m)
{
	struct subject s;
	char *t;

	subject_parse(m->subject ? m->subject : "", &s);
	t = g_strdup(s.title);
	subject_clear(&s);
	return t;
}

gboolean
dig_same_patch(struct message *m, const struct dig *d)
{
	g_autofree char *id =
	    d->patchids->len ? patchid_stable(message_body(m)) : NULL;
	guint i;

	for (i = 0; id && i < d->patchids->len; i++)
		if (!strcmp(id, d->patchids->pdata[i]))
			return TRUE;
	return FALSE;
}

gboolean
dig_same_title(const struct message *m, const char *title, const char *email)
{
	g_autofree char *t = dig_title_of(m);

	return !strcmp(t, title) &&
	       (!*email || !g_ascii_strcasecmp(m->from_email, email));
}

void
dig_try_links(const struct dig *d)
{
	guint i;

	if (!d->links || !d->links->len)
		return;
	lore_info("Try following these Link trailers:");
	for (i = 0; i < d->links->len; i++) {
		g_autofree char *l = lore_term_safe(d->links->pdata[i], -1);

		lore_info("  Link: %s", l);
	}
}

/* How patch @e matches the commit. */
static enum dig_how
how(const struct series_entry *e, const struct dig *d)
{
	guint i;

	if (!e->p)
		return DIG_NONE;
	for (i = 0; d->linked && i < d->linked->len; i++)
		if (!strcmp(e->p->msg->msgid, d->linked->pdata[i]))
			return DIG_LINK;
	if (dig_same_patch(e->p->msg, d))
		return DIG_PATCHID;
	if (dig_same_title(e->p->msg, d->subject, ""))
		return DIG_SUBJECT;
	return DIG_NONE;
}

/* The link to @id: the archive's URL, '@' left as it is (a path may
 * hold it), terminal-safe (g_free). */
static char *
link_to(const struct dig *d, const char *id)
{
	g_autofree char *esc = url_escape_id(id), *u = NULL, *url = NULL;
	g_auto(GStrv) at = g_strsplit(esc, "%40", -1);
	g_autofree char *plain = g_strjoinv("@", at);
	size_t n;

	u = lore_mask_fill(d->linkmask ? d->linkmask : d->mask, plain);
	if (d->linkmask)
		return lore_term_safe(u, -1);
	n = strlen(u);
	while (n && u[n - 1] == '/')
		u[--n] = '\0';
	url = g_strconcat(u, "/", NULL);
	return lore_term_safe(url, -1);
}

/* The best match: a patch of the newest revision first, the Link:
 * trailer's over the patch-id's over the title's; none sent after the
 * commit's day. */
static struct spatch *
best_match(struct series_set *s, const struct dig *d, enum dig_how *why)
{
	GArray *revs = series_revisions(s);
	struct spatch *best = NULL;
	guint i, k;

	*why = DIG_NONE;
	for (i = revs->len; i-- > 0;) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));

		for (k = 1; ser && k < ser->slots->len; k++) {
			struct series_entry *e =
			    &g_array_index(ser->slots, struct series_entry, k);
			enum dig_how h = how(e, d);

			if (h > *why &&
			    !(d->until_t && e->p->msg->date > d->until_t)) {
				*why = h;
				best = e->p;
			}
		}
	}
	g_array_unref(revs);
	return best;
}

/* -a: one revision, b4's three lines; the patches the commit matches
 * marked after them */
static void
print_revision(struct series *ser, const struct dig *d)
{
	struct series_entry *first = NULL, *hit = NULL;
	guint at = 0;
	g_autoptr(GDateTime) when = NULL;
	g_autofree char *subj = NULL, *date = NULL, *name = NULL;
	g_autofree char *email = NULL, *link = NULL;
	const char *why[] = {"", "the same subject, another diff",
			     "the same patch-id", "named by a Link: trailer"};
	enum dig_how h = DIG_NONE;
	guint i;

	for (i = 0; i < ser->slots->len; i++) {
		struct series_entry *e =
		    &g_array_index(ser->slots, struct series_entry, i);
		enum dig_how eh = i ? how(e, d) : DIG_NONE;

		if (e->p && !first)
			first = e;
		if (eh > h) {
			h = eh;
			hit = e;
			at = i;
		}
	}
	if (!first)
		return;
	when = g_date_time_new_from_unix_utc(first->p->msg->date);
	date = when ? g_date_time_format(when, "%Y-%m-%d") : g_strdup("?");
	subj = lore_term_safe(first->p->msg->subject, -1);
	name = lore_term_safe(first->p->msg->from_name, -1);
	email = lore_term_safe(first->p->msg->from_email, -1);
	link = link_to(d, (hit ? hit : first)->p->msg->msgid);
	printf("  v%d: %s\n      Date: %s, From: %s <%s>\n      %s\n",
	       ser->revision, subj, date, name, email, link);
	if (hit)
		printf("      => patch %u/%d: %s\n", at, ser->expected, why[h]);
}

static void
print_all(struct series_set *s, const struct dig *d)
{
	GArray *revs = series_revisions(s);
	guint i;

	lore_info("---");
	lore_info("This patch belongs in the following series:");
	lore_info("---");
	fflush(stderr);
	for (i = 0; i < revs->len; i++) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));

		if (ser)
			print_revision(ser, d);
	}
	g_array_unref(revs);
}

/* the mailboxes of an address list, groups opened, each address once */
static void
add_addrs(const char *value, GPtrArray *out, GHashTable *seen)
{
	InternetAddressList *l =
	    value ? internet_address_list_parse(NULL, value) : NULL;
	int i, k, n;

	for (i = 0; l && i < internet_address_list_length(l); i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);
		InternetAddressList *m = NULL;

		if (INTERNET_ADDRESS_IS_GROUP(a))
			m = internet_address_group_get_members(
			    INTERNET_ADDRESS_GROUP(a));
		n = m ? internet_address_list_length(m) : 1;
		for (k = 0; k < n; k++) {
			InternetAddress *x =
			    m ? internet_address_list_get_address(m, k) : a;
			const char *e;
			char *key;

			if (!INTERNET_ADDRESS_IS_MAILBOX(x))
				continue;
			e = internet_address_mailbox_get_addr(
			    INTERNET_ADDRESS_MAILBOX(x));
			if (!e || !strchr(e, '@'))
				continue;
			key = g_ascii_strdown(e, -1);
			if (!g_hash_table_add(seen, key))
				continue;
			g_ptr_array_add(
			    out,
			    am_format_addr(internet_address_get_name(x), e));
		}
	}
	if (l)
		g_object_unref(l);
}

/* -w: who the patch went to, one address a line on stdout */
static void
print_who(struct message *m)
{
	GHashTable *seen = g_hash_table_new_full(
	    (GHashFunc)g_str_hash, (GEqualFunc)g_str_equal, g_free, NULL);
	GPtrArray *who = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *reply_to = message_header(m, "Reply-To");
	guint i;

	/* Reply-To, else From: who the replies went to */
	add_addrs(reply_to, who, seen);
	if (!who->len && *m->from_email) {
		g_hash_table_add(seen, g_ascii_strdown(m->from_email, -1));
		g_ptr_array_add(who,
				am_format_addr(m->from_name, m->from_email));
	}
	add_addrs(m->to_hdr, who, seen);
	add_addrs(m->cc_hdr, who, seen);
	lore_info("---");
	lore_info("People originally included in this patch:");
	fflush(stderr);
	for (i = 0; i < who->len && i < DIG_MAX_WHO; i++) {
		g_autofree char *a = lore_term_safe(who->pdata[i], -1);

		printf("%s\n", a);
	}
	if (who->len > DIG_MAX_WHO)
		lore_info("... and %u more, not listed",
			  who->len - DIG_MAX_WHO);
	g_ptr_array_free(who, TRUE);
	g_hash_table_destroy(seen);
}

/* -m FILE: @m's thread as the archive has it, mboxrd, replaced whole */
static int
save_thread(struct gather *g, struct message *m, const char *path)
{
	struct thread *t = thread_new();
	GError *err = NULL;
	GString *mbox = g_string_new(NULL);
	GPtrArray *msgs = NULL;
	g_autofree char *p = lore_term_safe(path, -1);
	guint i;
	int rc = gather_more(g, m->msgid, t, &err);

	if (!rc) {
		msgs = thread_ordered(t);
		for (i = 0; i < msgs->len; i++)
			deliver_mboxrd_add(mbox, msgs->pdata[i]);
		if (!writer_file(path, mbox, &err))
			rc = LORE_EIO;
	}
	if (rc)
		lore_err_take(err);
	else
		lore_info("Saved the matched thread (%u message%s) to %s",
			  msgs->len, msgs->len == 1 ? "" : "s", p);
	if (msgs)
		g_ptr_array_free(msgs, TRUE);
	g_string_free(mbox, TRUE);
	thread_free(t);
	return rc;
}

int
dig_answer(struct series_set *s, const struct dig *d, const struct cli *c,
	   struct gather *g)
{
	enum dig_how why;
	struct spatch *best = best_match(s, d, &why);
	int rc = LORE_OK;

	if (!best) {
		lore_err("%.12s: no revision found holds a patch it matches",
			 d->commit);
		dig_try_links(d);
		return LORE_ENOTFOUND;
	}
	if (c->dig_all) {
		print_all(s, d);
	} else {
		g_autofree char *subj = lore_term_safe(best->msg->subject, -1);
		g_autofree char *link = link_to(d, best->msg->msgid);

		lore_info("---");
		lore_info("%s", subj);
		fflush(stderr);
		printf("%s\n", link);
	}
	if (c->dig_who)
		print_who(best->msg);
	if (fflush(stdout))
		rc = LORE_EIO;
	if (!rc && c->dig_mbox)
		rc = save_thread(g, best->msg, c->dig_mbox);
	return rc;
}
