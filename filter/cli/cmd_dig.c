/*
 * cmd_dig.c - lore-am dig COMMIT (b4 dig): the series a commit was applied
 * from. The commit's `git patch-id --stable` is asked of the archive's
 * search (public-inbox's patchid:), then its subject and author (s:, f:);
 * the thread of the patch found, and of every patch of the same title and
 * sender the search knows (the other revisions, often threads of their
 * own), go through the series stage, and every revision is listed with
 * its date and Message-ID, the one the commit matches marked. The answer
 * goes to standard output, as --range-diff's does.
 */
#include "cli/cmd.h"
#include "core/config.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "mail/patchid.h"
#include "mail/subject.h"
#include "series/series.h"
#include "source/gather.h"
#include "source/lore.h"
#include "trailers/trailer.h"

#include <stdio.h>
#include <string.h>

/* threads fetched for the other revisions, at most */
#define DIG_MAX_THREADS 16

/* What the repository says of the commit. */
struct dig {
	char *commit;	       /* full id */
	char *patchid;	       /* git patch-id --stable, or NULL (no diff) */
	char *subject;	       /* its title */
	char *email;	       /* its author's address */
	struct message *found; /* the patch found (the thread's), or NULL */
	gboolean by_patchid;   /* found by its patch-id, not its subject */
};

static void
dig_clear(struct dig *d)
{
	g_free(d->commit);
	g_free(d->patchid);
	g_free(d->subject);
	g_free(d->email);
}

static int
dig_check(struct cli *c)
{
	if (c->apply || c->range_diff || c->thread || c->maildir || c->append ||
	    c->explode || c->pr) {
		lore_err("dig takes a commit and lists the series it came "
			 "from: no other command goes with it");
		return LORE_EUSAGE;
	}
	if (!c->args || !c->args[0] || c->args[1]) {
		lore_err("dig takes one commit: lore-am dig COMMIT");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/* "git ARGV..." with @in on its stdin: its first line (g_free), NULL
 * when it fails or says nothing */
static char *
git_line(const char *const *argv, const GString *in)
{
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	char *line = NULL;

	if (gitrun(NULL, argv, in ? in->str : NULL, in ? in->len : 0, o, e,
		   NULL) == 0 &&
	    o->len)
		line = gitrun_first_line(o->str);
	g_string_free(o, TRUE);
	g_string_free(e, TRUE);
	return line;
}

/* The commit @rev names, its patch-id, title and author. */
static int
dig_commit(const char *rev, struct dig *d)
{
	g_autofree char *peeled = g_strconcat(rev, "^{commit}", NULL);
	const char *top[] = {"rev-parse", "--git-dir", NULL};
	const char *id[] = {"rev-parse", "--verify", "-q", peeled, NULL};
	const char *fp[] = {"format-patch", "-1", "--stdout", NULL, NULL};
	const char *pid[] = {"patch-id", "--stable", NULL};
	const char *subj[] = {"log", "-1", "--format=%s", NULL, NULL};
	const char *mail[] = {"log", "-1", "--format=%ae", NULL, NULL};
	g_autofree char *top_dir = git_line(top, NULL);
	g_autofree char *safe = lore_term_safe(rev, -1);
	GString *patch = g_string_new(NULL), *e = g_string_new(NULL);

	if (!top_dir) {
		lore_err("dig runs in a git repository: not in one here");
		return LORE_EUSAGE;
	}
	d->commit = rev[0] == '-' ? NULL : git_line(id, NULL);
	if (!d->commit) {
		lore_err("'%s' is not a commit in this repository", safe);
		return LORE_EUSAGE;
	}
	fp[3] = subj[3] = mail[3] = d->commit;
	if (gitrun(NULL, fp, NULL, 0, patch, e, NULL) == 0 && patch->len)
		d->patchid = git_line(pid, patch);
	if (d->patchid)
		*strchrnul(d->patchid, ' ') = 0;
	d->subject = git_line(subj, NULL);
	d->email = git_line(mail, NULL);
	g_string_free(patch, TRUE);
	g_string_free(e, TRUE);
	if (!d->subject)
		d->subject = g_strdup("");
	if (!d->email)
		d->email = g_strdup("");
	return LORE_OK;
}

/* The title of a patch mail, as the series stage reads it (g_free). */
static char *
title_of(const struct message *m)
{
	struct subject s;
	char *t;

	subject_parse(m->subject ? m->subject : "", &s);
	t = g_strdup(s.title);
	subject_clear(&s);
	return t;
}

/* "s:"TITLE" f:ADDR": a phrase and an address a search can hold */
static char *
subject_query(const char *title, const char *email)
{
	GString *q = g_string_new("s:\"");
	const char *c;

	for (c = title; *c && q->len < 200; c++)
		g_string_append_c(q, strchr("\"\\()", *c) ? ' ' : *c);
	g_string_append_c(q, '"');
	if (*email && strlen(email) < 200 && !strpbrk(email, "\" ()\\"))
		g_string_append_printf(q, " f:%s", email);
	return g_string_free(q, FALSE);
}

static gboolean
same_patch(struct message *m, const struct dig *d)
{
	g_autofree char *id =
	    d->patchid ? patchid_stable(message_body(m)) : NULL;

	return id && !strcmp(id, d->patchid);
}

static gboolean
same_title(const struct message *m, const char *title, const char *email)
{
	g_autofree char *t = title_of(m);

	return !strcmp(t, title) &&
	       (!*email || !g_ascii_strcasecmp(m->from_email, email));
}

/* The patch the search found for @d: its patch-id, else its title and
 * author. */
static struct message *
pick(struct thread *t, struct dig *d)
{
	guint i;

	for (i = 0; i < t->msgs->len; i++)
		if (same_patch(t->msgs->pdata[i], d)) {
			d->by_patchid = TRUE;
			return t->msgs->pdata[i];
		}
	for (i = 0; i < t->msgs->len; i++)
		if (same_title(t->msgs->pdata[i], d->subject, d->email))
			return t->msgs->pdata[i];
	return NULL;
}

/* Ask the archive's search; LORE_ENOTFOUND is no error here. */
static int
search(struct gather *g, const char *query, struct thread *t)
{
	GError *err = NULL;
	int rc = gather_search(g, query, t, &err);

	if (rc && rc != LORE_ENOTFOUND)
		lore_err("%s", err->message);
	g_clear_error(&err);
	return rc;
}

/* The patch's thread, and those of the patches of the same title and
 * sender the archive holds: every revision. */
static int
gather_revisions(struct gather *g, struct message *found, struct thread *all)
{
	g_autofree char *title = title_of(found);
	g_autofree char *q = subject_query(title, found->from_email);
	struct thread *hits = thread_new();
	GError *err = NULL;
	guint i, n = 0;
	int rc = gather_more(g, found->msgid, all, &err);

	if (rc == LORE_OK && search(g, q, hits) == LORE_ETEMP)
		rc = LORE_ETEMP;
	for (i = 0; rc == LORE_OK && i < hits->msgs->len; i++) {
		struct message *m = hits->msgs->pdata[i];

		if (thread_get(all, m->msgid) ||
		    !same_title(m, title, found->from_email) ||
		    n >= DIG_MAX_THREADS)
			continue;
		n++;
		if (gather_more(g, m->msgid, all, &err) == LORE_ETEMP)
			rc = LORE_ETEMP;
		g_clear_error(&err);
	}
	if (rc)
		lore_err("%s", err ? err->message : "the archive failed");
	g_clear_error(&err);
	thread_free(hits);
	return rc;
}

/* Does patch @e of revision @rev match the commit? Says how, or NULL. */
static const char *
matches(const struct series_entry *e, const struct dig *d)
{
	if (!e->p)
		return NULL;
	if (same_patch(e->p->msg, d))
		return "the same patch-id";
	if (!d->by_patchid && same_title(e->p->msg, d->subject, d->email))
		return "the same subject and author, another diff";
	return NULL;
}

/* One revision's line, and the patches of it the commit matches. */
static guint
print_revision(struct series *ser, const struct dig *d)
{
	struct series_entry *first = NULL;
	g_autoptr(GDateTime) when = NULL;
	g_autofree char *subj = NULL, *id = NULL, *date = NULL;
	guint i, hits = 0;

	for (i = 0; i < ser->slots->len && !first; i++)
		if (g_array_index(ser->slots, struct series_entry, i).p)
			first =
			    &g_array_index(ser->slots, struct series_entry, i);
	if (!first)
		return 0;
	when = g_date_time_new_from_unix_utc(first->p->msg->date);
	date = when ? g_date_time_format(when, "%Y-%m-%d") : g_strdup("?");
	subj = lore_term_safe(first->p->msg->subject, -1);
	id = lore_term_safe(first->p->msg->msgid, -1);
	printf("v%d  %s  %d patch%s  %s\n      <%s>\n", ser->revision, date,
	       ser->expected, ser->expected == 1 ? "" : "es", subj, id);
	for (i = 1; i < ser->slots->len; i++) {
		struct series_entry *e =
		    &g_array_index(ser->slots, struct series_entry, i);
		const char *how = matches(e, d);
		g_autofree char *pid = NULL;

		if (!how)
			continue;
		hits++;
		pid = lore_term_safe(e->p->msg->msgid, -1);
		printf("   => the commit is v%d's patch %u/%d, <%s> (%s)\n",
		       ser->revision, i, ser->expected, pid, how);
	}
	return hits;
}

static int
print_series(struct thread *all, const struct dig *d)
{
	struct series_set *s = series_analyse(all, trailer_reply_sends);
	GArray *revs = series_revisions(s);
	g_autofree char *c = lore_term_safe(d->subject, -1);
	guint i, hits = 0;

	printf("%.12s %s\n", d->commit, c);
	printf("found %s; %u revision%s of the series:\n",
	       d->by_patchid ? "by its patch-id" : "by its subject and author",
	       revs->len, revs->len == 1 ? "" : "s");
	for (i = 0; i < revs->len; i++) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));

		if (ser)
			hits += print_revision(ser, d);
	}
	g_array_unref(revs);
	series_set_free(s);
	if (!hits)
		printf("   no revision holds the commit's patch as it was "
		       "committed\n");
	return fflush(stdout) ? LORE_EIO : LORE_OK;
}

static int
dig_work(struct cli *c, struct config *cfg, struct dig *d)
{
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct thread *hits = thread_new(), *all = thread_new();
	g_autofree char *q = NULL;
	int rc = run_sources(c, cfg, NULL, &lo, &g);

	if (!rc && !g->archive) {
		lore_err("dig asks an archive's search, and none is set: give "
			 "-L URL or leave -m out");
		rc = LORE_EUSAGE;
	}
	if (!rc && d->patchid) {
		q = g_strconcat("patchid:", d->patchid, NULL);
		rc = search(g, q, hits);
	}
	if (!rc || rc == LORE_ENOTFOUND) {
		g_free(q);
		q = subject_query(d->subject, d->email);
		rc = pick(hits, d) ? LORE_OK : search(g, q, hits);
	}
	if (!rc && !(d->found = pick(hits, d)))
		rc = LORE_ENOTFOUND;
	if (rc == LORE_ENOTFOUND)
		lore_err("%.12s is not in the archive: no patch has its "
			 "patch-id, nor its subject and author",
			 d->commit);
	if (!rc)
		rc = gather_revisions(g, d->found, all);
	if (!rc)
		rc = print_series(all, d);
	gather_free(g);
	lore_opts_clear(&lo);
	thread_free(hits);
	thread_free(all);
	return rc;
}

static int
dig_run(struct cli *c)
{
	struct dig d = {0};
	struct config *cfg;
	int rc = dig_commit(c->args[0], &d);

	if (!rc) {
		cfg = config_load();
		rc = dig_work(c, cfg, &d);
		config_free(cfg);
	}
	dig_clear(&d);
	return rc;
}

const struct cmd cmd_dig = {"dig", dig_check, dig_run};
