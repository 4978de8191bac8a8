/*
 * cmd_dig.c - lore-am dig COMMIT (b4 dig): the series a commit was applied
 * from. The messages the commit's Link: trailers name are fetched first;
 * then its `git patch-id --stable`, under each diff algorithm in turn
 * (digfind.c), is asked of the archive's search (public-inbox's
 * patchid:), then its subject and author (s:, f:), each
 * search bounded by the commit's author date and a day (d:..YYYYMMDD), so
 * that a later resend or backport is not taken for it. The threads found,
 * and those of the other revisions up to that day (by the series'
 * change-id, else the same title and sender), go through the series
 * stage; digout.c answers.
 */
#include "cli/cmd.h"
#include "cli/dig-int.h"
#include "core/config.h"
#include "core/gitrun.h"
#include "core/msgid.h"
#include "core/util.h"
#include "series/series.h"
#include "source/gather.h"
#include "source/lore.h"
#include "trailers/trailer.h"

#include <stdio.h>
#include <string.h>

static void
dig_clear(struct dig *d)
{
	g_free(d->commit);
	if (d->patchids)
		g_ptr_array_free(d->patchids, TRUE);
	if (d->patches)
		g_ptr_array_free(d->patches, TRUE);
	g_free(d->subject);
	g_free(d->email);
	g_free(d->until);
	if (d->links)
		g_ptr_array_free(d->links, TRUE);
	if (d->linked)
		g_ptr_array_free(d->linked, TRUE);
}

static int
dig_check(struct cli *c)
{
	gboolean arg = c->args && c->args[0];

	if (c->apply || c->range_diff || c->thread || c->maildir || c->append ||
	    c->explode || c->pr) {
		lore_err("dig takes a commit and lists the series it came "
			 "from: no other command goes with it");
		return LORE_EUSAGE;
	}
	if ((c->dig_commit && arg) || (!c->dig_commit && !arg) ||
	    (arg && c->args[1])) {
		lore_err("dig takes one commit: lore-am dig COMMIT (or -c "
			 "COMMIT)");
		return LORE_EUSAGE;
	}
	if (c->dig_mbox && !*c->dig_mbox) {
		lore_err("dig -m takes a file name");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

/* "git ARGV..." with @in on its stdin: what it says (g_free), NULL when
 * it fails or says nothing */
static char *
git_out(const char *const *argv, const GString *in)
{
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	int rc = gitrun(NULL, argv, in ? in->str : NULL, in ? in->len : 0, o, e,
			NULL);

	g_string_free(e, TRUE);
	if (rc == 0 && o->len)
		return g_string_free(o, FALSE);
	g_string_free(o, TRUE);
	return NULL;
}

/* its first line */
static char *
git_line(const char *const *argv, const GString *in)
{
	g_autofree char *o = git_out(argv, in);

	return o ? gitrun_first_line(o) : NULL;
}

/* The last day the searches take, YYYY-MM-DD (the author's) and a day:
 * public-inbox's d: reads the Date in UTC, and the author's zone may be
 * a day off. */
static void
dig_until(struct dig *d, const char *ymd)
{
	int y, m, day;
	g_autoptr(GDateTime) t = NULL, next = NULL, end = NULL;

	if (!ymd || sscanf(ymd, "%4d-%2d-%2d", &y, &m, &day) != 3 ||
	    !(t = g_date_time_new_utc(y, m, day, 0, 0, 0)))
		return;
	next = g_date_time_add_days(t, 1);
	end = next ? g_date_time_add_days(next, 1) : NULL;
	if (!end)
		return;
	d->until = g_date_time_format(next, "%Y%m%d");
	d->until_t = g_date_time_to_unix(end) - 1;
}

/* The commit's Link: trailers (git's trailer rules), and the Message-ID
 * of each that names one on an archive (https://host/list/ID/) */
static void
dig_links(struct dig *d)
{
	const char *tr[] = {"log", "-1",
			    "--format=%(trailers:key=Link,valueonly,unfold)",
			    d->commit, NULL};
	g_autofree char *out = git_out(tr, NULL);
	g_auto(GStrv) lines = out ? g_strsplit(out, "\n", -1) : NULL;
	guint i;

	d->links = g_ptr_array_new_with_free_func(g_free);
	d->linked = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; lines && lines[i] && d->links->len < DIG_MAX_LINKS; i++) {
		char *v = g_strstrip(lines[i]);
		char *id;

		if (!g_str_has_prefix(v, "https://") &&
		    !g_str_has_prefix(v, "http://"))
			continue;
		g_ptr_array_add(d->links, g_strdup(v));
		id = msgid_from_arg(v);
		if (id && strchr(id, '@') && msgid_valid(id))
			g_ptr_array_add(d->linked, id);
		else
			g_free(id);
	}
}

/* The commit @rev names, its patch-id, title, author, date and links. */
static int
dig_commit(const char *rev, struct dig *d)
{
	g_autofree char *peeled = g_strconcat(rev, "^{commit}", NULL);
	const char *top[] = {"rev-parse", "--git-dir", NULL};
	const char *id[] = {"rev-parse", "--verify", "-q", peeled, NULL};
	const char *subj[] = {"log", "-1", "--format=%s", NULL, NULL};
	const char *mail[] = {"log", "-1", "--format=%ae", NULL, NULL};
	const char *date[] = {"log", "-1", "--format=%as", NULL, NULL};
	g_autofree char *top_dir = git_line(top, NULL), *day = NULL;
	g_autofree char *safe = lore_term_safe(rev, -1);

	if (!top_dir) {
		lore_err("dig runs in a git repository: not in one here");
		return LORE_EUSAGE;
	}
	d->commit = rev[0] == '-' ? NULL : git_line(id, NULL);
	if (!d->commit) {
		lore_err("'%s' is not a commit in this repository", safe);
		return LORE_EUSAGE;
	}
	subj[3] = mail[3] = date[3] = d->commit;
	d->patchids = g_ptr_array_new_with_free_func(g_free);
	d->patches = g_ptr_array_new_with_free_func(dig_patch_free);
	d->subject = git_line(subj, NULL);
	d->email = git_line(mail, NULL);
	day = git_line(date, NULL);
	dig_until(d, day);
	dig_links(d);
	if (!d->subject)
		d->subject = g_strdup("");
	if (!d->email)
		d->email = g_strdup("");
	return LORE_OK;
}

/* "s:"TITLE" f:ADDR d:..DAY": a phrase and an address a search can
 * hold, bounded by the commit's date */
static char *
subject_query(const char *title, const char *email, const struct dig *d)
{
	GString *q = g_string_new("s:\"");
	const char *c;

	for (c = title; *c && q->len < 200; c++)
		g_string_append_c(q, strchr("\"\\()", *c) ? ' ' : *c);
	g_string_append_c(q, '"');
	if (*email && strlen(email) < 200 && !strpbrk(email, "\" ()\\"))
		g_string_append_printf(q, " AND f:%s", email);
	if (d->until)
		g_string_append_printf(q, " AND d:..%s", d->until);
	return g_string_free(q, FALSE);
}

/* The patch the search found for @d: its patch-id, else its title and
 * author. */
static struct message *
pick(struct thread *t, struct dig *d)
{
	guint i;

	for (i = 0; i < t->msgs->len; i++)
		if (dig_same_patch(t->msgs->pdata[i], d)) {
			d->by_patchid = TRUE;
			return t->msgs->pdata[i];
		}
	for (i = 0; i < t->msgs->len; i++)
		if (dig_same_title(t->msgs->pdata[i], d->subject, d->email))
			return t->msgs->pdata[i];
	return NULL;
}

/* The threads of the messages the Link: trailers name, into @all; the
 * first of them that is a patch when nothing else was found. Only the
 * archive failing (LORE_ETEMP) is an error: a link may name another. */
static int
fetch_links(struct gather *g, const struct dig *d, struct thread *all)
{
	GError *err = NULL;
	guint i;
	int rc;

	for (i = 0; i < d->linked->len; i++) {
		rc = gather_more(g, d->linked->pdata[i], all, &err);
		if (rc == LORE_ETEMP)
			return lore_err_take(err);
		g_clear_error(&err);
	}
	return LORE_OK;
}

/* The patch the links name, for the revisions' search, or NULL. */
static struct message *
linked_patch(const struct dig *d, struct thread *all)
{
	guint i;

	for (i = 0; i < d->linked->len; i++) {
		struct message *m = thread_get(all, d->linked->pdata[i]);

		if (m && strstr(message_body(m), "\ndiff --git "))
			return m;
	}
	return NULL;
}

/* The patch's thread, and those of the series' other revisions the
 * archive holds up to the commit's day: by its change-id (b4 prep's),
 * else the patches of the same title and sender. */
static int
gather_revisions(struct gather *g, struct message *found, const struct dig *d,
		 struct thread *all)
{
	g_autofree char *title = dig_title_of(found), *cid = NULL;
	g_autofree char *q = subject_query(title, found->from_email, d);
	struct thread *hits = thread_new();
	GError *err = NULL;
	guint i, n = 0;
	int rc = thread_get(all, found->msgid)
		     ? LORE_OK
		     : gather_more(g, found->msgid, all, &err);

	if (rc) {
		lore_err("%s", err ? err->message : "the archive failed");
		g_clear_error(&err);
	} else if ((cid = dig_change_id(all, found))) {
		rc = dig_by_change_id(g, cid, d, all, &n);
	}
	if (rc == LORE_OK && !n)
		rc =
		    dig_search(g, q, hits) == LORE_ETEMP ? LORE_ETEMP : LORE_OK;
	for (i = 0; rc == LORE_OK && i < hits->msgs->len; i++) {
		struct message *m = hits->msgs->pdata[i];

		if (thread_get(all, m->msgid) ||
		    !dig_same_title(m, title, found->from_email) ||
		    n >= DIG_MAX_THREADS)
			continue;
		n++;
		if (gather_more(g, m->msgid, all, &err) == LORE_ETEMP)
			rc = lore_err_take(g_steal_pointer(&err));
		g_clear_error(&err);
	}
	thread_free(hits);
	return rc;
}

/* The archive's search for the commit: its patch-id under each diff
 * algorithm in turn, until one finds it; else its subject and author;
 * each up to its day. */
static int
find(struct gather *g, struct dig *d, struct thread *hits)
{
	g_autofree char *q = NULL;
	const char *id;
	int rc;

	while (dig_next_patchid(d)) {
		id = d->patchids->pdata[d->patchids->len - 1];
		g_free(q);
		q = d->until
			? g_strdup_printf("patchid:%s AND d:..%s", id, d->until)
			: g_strconcat("patchid:", id, NULL);
		rc = dig_search(g, q, hits);
		if (rc == LORE_OK && (d->found = pick(hits, d)))
			return LORE_OK;
		if (rc && rc != LORE_ENOTFOUND)
			return rc;
	}
	g_free(q);
	q = subject_query(d->subject, d->email, d);
	rc = dig_search(g, q, hits);
	if (rc == LORE_OK && !(d->found = pick(hits, d)))
		rc = LORE_ENOTFOUND;
	return rc;
}

static int
dig_work(struct cli *c, struct config *cfg, struct dig *d)
{
	struct lore_opts lo = {0};
	struct gather *g = NULL;
	struct thread *hits = thread_new(), *all = thread_new();
	struct message *seed = NULL;
	struct series_set *s;
	int rc = run_sources(c, cfg, NULL, &lo, &g);

	if (!rc && !g->archive) {
		lore_err("dig asks an archive's search, and none is set: give "
			 "-L URL or leave -m out");
		rc = LORE_EUSAGE;
	}
	if (!rc)
		rc = fetch_links(g, d, all);
	if (!rc)
		rc = find(g, d, hits);
	if (rc == LORE_ENOTFOUND && (seed = linked_patch(d, all)))
		rc = LORE_OK;
	else if (!rc)
		seed = d->found;
	if (rc == LORE_ENOTFOUND) {
		lore_err("%.12s is not in the archive: no patch has its "
			 "patch-id, nor its subject and author",
			 d->commit);
		dig_try_links(d);
	}
	if (!rc)
		rc = gather_revisions(g, seed, d, all);
	if (!rc) {
		s = series_analyse(all, trailer_reply_sends);
		d->mask = lo.mask;
		d->linkmask = config_get(cfg, "linkmask", "linkmask");
		rc = dig_answer(s, d, c, g);
		series_set_free(s);
	}
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
	int rc = dig_commit(c->dig_commit ? c->dig_commit : c->args[0], &d);

	if (!rc) {
		cfg = config_load();
		rc = dig_work(c, cfg, &d);
		config_free(cfg);
	}
	dig_clear(&d);
	return rc;
}

const struct cmd cmd_dig = {"dig", dig_check, dig_run};
