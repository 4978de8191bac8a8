/*
 * amjob.c - ties series, am and writer together for one run and tells the
 * user what happened, in the shape of b4's summary: the revision used, each
 * patch with the trailers added, notes and warnings, then the cover letter,
 * link and base-commit lines with the git commands to use them.
 */
#include "write/amjob.h"
#include "series/cherrypick.h"
#include "series/explain.h"
#include "write/copypick.h"
#include "trailers/followup.h"
#include "series/series.h"
#include "trailers/trailer.h"
#include "core/util.h"
#include "write/writer.h"

#include <string.h>

static void
say_safe(const char *prefix, const char *text)
{
	g_autofree char *s = lore_term_safe(text, -1);

	lore_info("%s%s", prefix, s);
}

/* "+ Reviewed-by: ..." with b4's mark of the reply that sent it, whose
 * signatures are checked like a patch's (*@arc: the first failure). */
static void
say_added(const struct amjob_opts *o, GPtrArray *fu, const char *subject,
	  const char *added, int *arc)
{
	const struct message *src = NULL;
	g_autofree char *mark = NULL, *label = NULL, *line = NULL;
	guint i;

	for (i = 0; i < fu->len && !src; i++) {
		const struct trailer *t = fu->pdata[i];
		g_autofree char *ts = trailer_string(t, FALSE);

		if (!strcmp(ts, added))
			src = t->src;
	}
	if (src && !*arc) {
		label = g_strdup_printf("%s: %s", subject, added);
		*arc = attest_followup(o->attest, src, label, &mark);
	}
	line = mark ? g_strdup_printf("%s (%s)", added, mark) : g_strdup(added);
	say_safe("    + ", line);
}

static void
report_revisions(struct series_set *s, struct series *ser,
		 const struct amjob_opts *o)
{
	GArray *revs = series_revisions(s);
	GString *others = g_string_new(NULL);
	guint i;

	for (i = 0; i < revs->len; i++) {
		int r = g_array_index(revs, int, i);

		if (r != ser->revision)
			g_string_append_printf(others, "%sv%d",
					       others->len ? ", " : "", r);
	}
	if (revs->len > 1) {
		if (!o->use_version)
			lore_info("Will use the latest revision: v%d",
				  ser->revision);
		else
			lore_info("Using revision v%d", ser->revision);
		lore_info(
		    "Other revisions in the thread: %s (pick one with -vN)",
		    others->str);
	}
	g_string_free(others, TRUE);
	g_array_unref(revs);
	if (o->explain)
		explain_series(s, ser, o->use_version);
}

/* The series chosen, for the gate's JSON. */
static void
gate_chosen(struct gate *gate, struct series_set *s, struct series *ser,
	    const struct amjob_opts *o)
{
	GArray *revs, *others;
	struct spatch *cp = series_cover(ser);
	guint i, present = 0;

	if (!gate || !o->gate.json)
		return;
	revs = series_revisions(s);
	others = g_array_new(FALSE, FALSE, sizeof(int));
	for (i = 0; i < revs->len; i++)
		if (g_array_index(revs, int, i) != ser->revision)
			g_array_append_val(others, g_array_index(revs, int, i));
	for (i = 1; i < ser->slots->len; i++)
		present +=
		    g_array_index(ser->slots, struct series_entry, i).p != NULL;
	gate_series(gate, ser->revision, ser->expected, present, o->use_version,
		    others, cp ? cp->msg->msgid : NULL);
	g_array_unref(others);
	g_array_unref(revs);
}

/* A patch's signatures in a word, for the JSON: checked again quietly
 * (attest_holds()), as the summary's lines are not kept. */
static const char *
attest_verdict(const struct amjob_opts *o, const struct message *msg)
{
	if (attest_off(o->attest))
		return "off";
	if (!msg->dkim_signed && !msg->dev_signed)
		return "none";
	return attest_holds(o->attest, msg) ? "pass" : "fail";
}

/* "2, 4-6, 9": runs of consecutive numbers from the ascending @nums */
static char *
ranges(GArray *nums)
{
	GString *s = g_string_new(NULL);
	guint i = 0, j;

	while (i < nums->len) {
		int lo = g_array_index(nums, int, i);

		for (j = i;
		     j + 1 < nums->len && g_array_index(nums, int, j + 1) ==
					      g_array_index(nums, int, j) + 1;
		     j++)
			;
		g_string_append_printf(s, "%s%d", s->len ? ", " : "", lo);
		if (j > i)
			g_string_append_printf(s, "-%d",
					       g_array_index(nums, int, j));
		i = j + 1;
	}
	return g_string_free(s, FALSE);
}

/*
 * To a mail filter, a mail that is not meant to bring a patch (a reply,
 * a cover letter, a mail that is no [PATCH]) and holds none: that its
 * series is not there, or not whole, is no news (the patches' own mails
 * said so) and nothing the user must act on, while the filter's log
 * would hold a line for each reply. The status header still says so. A
 * [PATCH] mail without a diff is news.
 */
static gboolean
no_news(struct series_set *s, const struct amjob_opts *o)
{
	struct message *m;
	struct spatch *p;

	if (!o->arriving || !o->target)
		return FALSE;
	m = thread_get(s->thread, o->target);
	p = m ? series_spatch_of(s, m) : NULL;
	return p && !p->has_diff &&
	       (p->reply || p->counter == 0 || !p->subj.patch);
}

/* One line for the missing patches, however many a subject claims. */
static gboolean
report_missing(struct series *ser, GHashTable *pick, const struct amjob_opts *o,
	       gboolean quiet)
{
	GArray *miss = series_missing(ser);
	GArray *bad = g_array_new(FALSE, FALSE, sizeof(int));
	gboolean any;
	guint i;

	for (i = 0; i < miss->len; i++) {
		int n = g_array_index(miss, int, i);

		if (!pick || g_hash_table_contains(pick, GINT_TO_POINTER(n)))
			g_array_append_val(bad, n);
	}
	any = bad->len > 0;
	if (any) {
		g_autofree char *list = ranges(bad), *r = NULL;

		if (bad->len == 1)
			r = g_strdup_printf("%s/%d", list, ser->expected);
		else
			r = g_strdup_printf("%s of %d", list, ser->expected);
		/* to a mail filter, a series still arriving is no error,
		 * and a mail that brings none of its patches says nothing */
		if (o->arriving && !o->allow_incomplete) {
			if (!quiet)
				lore_err("v%d is incomplete, missing %s: "
					 "nothing written yet",
					 ser->revision, r);
		} else {
			lore_err("v%d: missing %s", ser->revision, r);
		}
		if (!o->allow_incomplete && !o->arriving)
			lore_err("the series is incomplete: nothing written "
				 "(use --allow-incomplete to write the patches "
				 "that exist)");
	}
	g_array_unref(bad);
	g_array_unref(miss);
	return any;
}

static void
report_base(struct series *ser, const char *branch, const char *file)
{
	if (ser->base_commit) {
		say_safe(" Base: using specified base-commit ",
			 ser->base_commit);
		lore_info("       git checkout -b %s %s", branch,
			  ser->base_commit);
	} else {
		lore_info(" Base: not specified");
	}
	if (file) {
		g_autofree char *f = lore_term_safe(file, -1);

		lore_info("       git am %s", f);
	}
}

/*
 * What no patch may hold: NUL bytes (the text was cut or altered) and,
 * unless the user allows them, Unicode controls that make code read
 * differently from what it does. One line names the message and line.
 */
static int
refuse_unsafe(const struct spatch *p, const char *msg,
	      const struct amjob_opts *o)
{
	g_autofree char *id = lore_term_safe(p->msg->msgid, -1);
	gunichar c;
	guint line;

	if (p->msg->body_nul) {
		lore_err("<%s> holds NUL bytes: refused, nothing written", id);
		return LORE_EUSAGE;
	}
	if (o->allow_unicode_control || !(c = lore_find_control(msg, &line)))
		return LORE_OK;
	lore_err("<%s> holds the Unicode control character U+%04X on line %u "
		 "of its am-ready text: refused, nothing written "
		 "(--allow-unicode-control-chars accepts it)",
		 id, c, line);
	return LORE_EUSAGE;
}

/* Build the mbox (and the cover letter) in memory. */
static int
build(struct followups *f, struct series *ser, GHashTable *pick,
      const struct amjob_opts *o, struct gate *gate, GString *mbox,
      GString *cover, guint *count)
{
	struct spatch *cp = series_cover(ser);
	gboolean from_warned = FALSE;
	guint i;
	int rc, arc = LORE_OK;

	lore_info("---");
	for (i = 1; i < ser->slots->len; i++) {
		struct series_entry *e = &g_array_index(ser->slots,
							struct series_entry, i),
				    ae;
		const struct series_entry *we;
		struct spatch ap;
		GPtrArray *fu;
		struct am_note note = {0};
		char *msg;
		guint k;

		if (pick && !g_hash_table_contains(pick, GINT_TO_POINTER(i)))
			continue;
		if (!e->p) {
			guint j = i;

			/* a run of missing patches is one line */
			while (j + 1 < ser->slots->len &&
			       !g_array_index(ser->slots, struct series_entry,
					      j + 1)
				    .p &&
			       (!pick || g_hash_table_contains(
					     pick, GINT_TO_POINTER(j + 1))))
				j++;
			if (j == i)
				lore_info("  ERROR: missing [%u/%d]!", i,
					  ser->expected);
			else
				lore_info(
				    "  ERROR: missing [%u/%d] to [%u/%d]!", i,
				    ser->expected, j, ser->expected);
			i = j;
			continue;
		}
		fu = followup_for(f, ser, e);
		/* the copy of it to write: where signatures are checked */
		we = copypick_entry(f->set->thread, e, o->attest, &ae, &ap);
		msg = am_message(we, fu, &o->trailers, FALSE, &note);
		if ((rc = refuse_unsafe(we->p, msg, o))) {
			g_ptr_array_free(fu, TRUE);
			g_free(msg);
			am_note_clear(&note);
			return rc;
		}
		say_safe("  ", note.subject);
		gate_add(gate, note.subject, note.author_name,
			 note.author_email, note.body);
		for (k = 0; k < note.added->len; k++)
			say_added(o, fu, note.subject, note.added->pdata[k],
				  &arc);
		g_ptr_array_free(fu, TRUE);
		for (k = 0; k < note.ignored->len; k++)
			say_safe("    x ", note.ignored->pdata[k]);
		if (!arc)
			arc = attest_message(o->attest, we->p->msg,
					     note.subject, FALSE);
		if (o->gate.json)
			gate_attest(gate, attest_verdict(o, we->p->msg));
		if (!o->mboxrd && !from_warned && writer_has_from_line(msg)) {
			g_autofree char *id =
			    lore_term_safe(e->p->msg->msgid, -1);

			lore_err("warning: a line of '%s' looks like an mbox "
				 "From_ line to git am; use --mboxrd and git "
				 "am --patch-format=mboxrd",
				 id);
			from_warned = TRUE;
		}
		writer_mbox_add(mbox, msg, o->mboxrd);
		g_free(msg);
		am_note_clear(&note);
		(*count)++;
	}
	if (arc)
		return arc;
	if (cp && cover) {
		struct series_entry ce = {cp, ser->revision, 0}, ae;
		struct spatch ap;
		const struct series_entry *we =
		    copypick_entry(f->set->thread, &ce, o->attest, &ae, &ap);
		char *msg = am_message(we, NULL, &o->trailers, TRUE, NULL);

		rc = refuse_unsafe(we->p, msg, o);
		if (!rc)
			rc = attest_message(o->attest, we->p->msg,
					    we->p->msg->subject, TRUE);
		g_string_append(cover, msg);
		g_free(msg);
		return rc;
	}
	return LORE_OK;
}

void
amjob_result_clear(struct amjob_result *r)
{
	if (r->missing)
		g_array_unref(r->missing);
	g_free(r->stem);
	if (r->mbox)
		g_string_free(r->mbox, TRUE);
	if (r->cover)
		g_string_free(r->cover, TRUE);
	g_free(r->base_commit);
	g_free(r->branch);
	g_free(r->file);
	g_free(r->link);
	gate_free(r->gate_held);
	memset(r, 0, sizeof(*r));
}

static void
note_result(struct series *ser, struct amjob_result *r)
{
	guint i;

	r->revision = ser->revision;
	r->expected = ser->expected;
	r->present = 0;
	for (i = 1; i < ser->slots->len; i++)
		if (g_array_index(ser->slots, struct series_entry, i).p)
			r->present++;
	if (r->missing)
		g_array_unref(r->missing);
	r->missing = series_missing(ser);
	g_free(r->stem);
	r->stem = writer_slug(ser);
}

/* The series stage's warnings, after the trailers' notes; then what
 * the series stands on (cli/deps.h). */
static void
report_warnings(const struct series_set *s, const struct amjob_opts *o)
{
	guint i;

	for (i = 0; i < s->warnings->len; i++) {
		if (!i)
			lore_info("---");
		say_safe("WARNING: ", s->warnings->pdata[i]);
	}
	if (o->depends_on) {
		lore_info("---");
		lore_info("%s", o->depends_on);
	}
}

/* --with-deps and --apply: the prerequisites go before the series */
static void
prepend_deps(GString *mbox, const struct amjob_opts *o)
{
	if (o->deps_mbox)
		g_string_prepend_len(mbox, o->deps_mbox->str,
				     o->deps_mbox->len);
}

/* The gate's checks, its outcome for the mail filter's status line. */
static int
run_gate(struct gate *gate, const struct amjob_opts *o)
{
	int rc = gate_run(gate);

	if (o->result)
		o->result->gate = gate_outcome(gate);
	return rc;
}

/* The series' link (the cover letter's, else the first patch's), said
 * and kept in the result. */
static void
report_link(struct series *ser, const struct amjob_opts *o)
{
	struct spatch *first = series_cover(ser);
	g_autofree char *link = NULL;
	guint i;

	for (i = 1; !first && i < ser->slots->len; i++)
		first = g_array_index(ser->slots, struct series_entry, i).p;
	if (first && o->link_mask) {
		link = lore_mask_fill(o->link_mask, first->msg->msgid);
		say_safe(" Link: ", link);
	}
	if (o->result)
		o->result->link = g_steal_pointer(&link);
}

int
amjob_run(struct series_set *s, const struct amjob_opts *o)
{
	struct followups *f = NULL;
	struct gate *gate = gate_new(&o->gate);
	struct series *ser;
	GHashTable *pick = NULL;
	GString *mbox = NULL, *cover = NULL;
	g_autofree char *slug = NULL, *branch = NULL, *mbx = NULL, *cov = NULL;
	GError *err = NULL;
	guint count = 0;
	int rc = LORE_OK;

	lore_info("Analyzing %u message%s in the thread", s->thread->msgs->len,
		  s->thread->msgs->len == 1 ? "" : "s");
	ser = series_get(s, o->use_version);
	if (!ser) {
		if (o->use_version)
			lore_err("revision v%d not found in the thread",
				 o->use_version);
		else if (!no_news(s, o))
			lore_err("no patches found in the thread");
		rc = LORE_ENOTFOUND;
		goto out;
	}
	if (o->result)
		note_result(ser, o->result);
	report_revisions(s, ser, o);
	gate_chosen(gate, s, ser, o);
	if (o->cherry_pick) {
		pick = cherrypick_parse(ser, o->cherry_pick, o->target, &err);
		if (!pick) {
			rc = lore_err_take(g_steal_pointer(&err));
			goto out;
		}
	}
	if (report_missing(ser, pick, o, no_news(s, o)) &&
	    !o->allow_incomplete) {
		rc = LORE_ENOTFOUND;
		goto out;
	}
	mbox = g_string_new(NULL);
	if ((o->outdir && !o->no_cover) || o->hold)
		cover = g_string_new(NULL);
	/* the caller's trailers stage when it is this set's (a
	 * prerequisite's job copies the options, not the set) */
	f = o->followups && o->followups->set == s
		? o->followups
		: followup_collect(s, o->sloppy);
	rc = build(f, ser, pick, o, gate, mbox, cover, &count);
	if (o->result)
		o->result->attestation = attest_outcome(o->attest);
	if (rc)
		goto out;
	lore_info("---");
	lore_info("Total patches: %u", count);
	followup_report(f);
	report_warnings(s, o);
	if ((rc = run_gate(gate, o)))
		goto out;
	if (!count) {
		lore_err("no patches to write");
		rc = LORE_ENOTFOUND;
		goto out;
	}
	lore_info("---");
	prepend_deps(mbox, o);
	slug = o->mbox_name ? g_strdup(o->mbox_name) : writer_slug(ser);
	branch = writer_branch_slug(ser);
	if (o->outdir) {
		mbx = g_strdup_printf("%s/%s.mbx", o->outdir, slug);
		cov = g_strdup_printf("%s/%s.cover", o->outdir, slug);
		const char *paths[] = {mbx, cov};
		const GString *data[] = {mbox, cover};

		if (!writer_files(paths, data, cover && cover->len ? 2 : 1,
				  &err)) {
			rc = lore_err_take(g_steal_pointer(&err));
			goto out;
		}
		if (cover && cover->len)
			say_safe(" Cover: ", cov);
	} else if (!o->hold && !writer_stdout(mbox, &err)) {
		rc = lore_err_take(g_steal_pointer(&err));
		goto out;
	}
	report_link(ser, o);
	if (o->result) {
		o->result->written = TRUE;
		o->result->mbox = g_steal_pointer(&mbox);
		o->result->cover = g_steal_pointer(&cover);
		o->result->base_commit = g_strdup(ser->base_commit);
		o->result->branch = g_strdup(branch);
		o->result->file = g_strdup(mbx);
	}
	if (!o->base_later)
		report_base(ser, branch, mbx);
out:
	g_clear_error(&err);
	if (pick)
		g_hash_table_destroy(pick);
	if (mbox)
		g_string_free(mbox, TRUE);
	if (cover)
		g_string_free(cover, TRUE);
	if (f != o->followups)
		followup_free(f);
	if (o->result && o->gate.later && !o->result->gate_held)
		o->result->gate_held = g_steal_pointer(&gate);
	gate_free(gate);
	return rc;
}
