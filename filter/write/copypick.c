/*
 * copypick.c - the copy of a message the writer writes (copypick.h): the
 * best copy the thread kept, unless its signatures do not hold and the
 * next copy of the same standing whose signature holds tells the same
 * patch.
 */
#include "write/copypick.h"
#include "mail/body.h"
#include "core/util.h"

/* Does @m say what @p says: the same i/N, revision and kind of mail? A
 * copy that does not would change the series the thread stage saw. */
static gboolean
same_patch(const struct spatch *p, struct message *m)
{
	struct subject s;
	gboolean same;

	subject_parse(m->subject ? m->subject : "", &s);
	same = s.counter == p->subj.counter && s.expected == p->subj.expected &&
	       s.revision == p->subj.revision && s.reply == p->subj.reply &&
	       body_has_diff(message_body(m)) == p->has_diff;
	subject_clear(&s);
	return same;
}

const struct series_entry *
copypick_entry(struct thread *t, const struct series_entry *e, struct attest *a,
	       struct series_entry *alt_e, struct spatch *alt_p)
{
	GPtrArray *alts;
	struct message *use = NULL;
	guint i;

	if (!e->p || !a)
		return e;
	alts = thread_alternates(t, e->p->msg);
	/* a copy whose signature holds is written before one whose does
	 * not; the thread's copy is the best of the rest */
	if (alts->len && !attest_holds(a, e->p->msg))
		for (i = 0; i < alts->len && !use; i++)
			if (same_patch(e->p, alts->pdata[i]) &&
			    attest_holds(a, alts->pdata[i]))
				use = alts->pdata[i];
	g_ptr_array_unref(alts);
	if (!use)
		return e;
	{
		g_autofree char *id = lore_term_safe(use->msgid, -1);

		lore_info("  NOTE: <%s>: of its copies, one whose signature "
			  "holds is written",
			  id);
	}
	*alt_p = *e->p;
	alt_p->msg = use;
	*alt_e = *e;
	alt_e->p = alt_p;
	return alt_e;
}
