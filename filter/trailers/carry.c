/*
 * carry.c - the trailers a patch gets from an identical patch of another
 * revision, as b4 carries them: the same `git patch-id --stable`. Patches
 * are matched by the bytes that patch-id is taken of (mail/patchid.h),
 * which says the same but for a SHA-1 collision without computing SHA-1
 * for every patch of every revision; the patch-id itself is computed only
 * when asked for (the queue stores it).
 */
#include "trailers/followup.h"
#include "mail/patchid.h"

/* @p's files as its patch-id reads them, read once into @f; NULL when
 * it holds no diff. */
static const struct patchid_files *
files_of(struct followups *f, struct spatch *p)
{
	gpointer v;

	if (!g_hash_table_lookup_extended(f->files, p, NULL, &v)) {
		v = patchid_files_new(message_body(p->msg));
		g_hash_table_insert(f->files, p, v);
	}
	return v;
}

const char *
followup_patch_id(struct followups *f, struct spatch *p)
{
	const struct patchid_files *pf;
	gpointer v = NULL;

	if (!g_hash_table_lookup_extended(f->patchids, p, NULL, &v)) {
		/* the files read for carrying, when they were (none: no
		 * diff, no patch-id) */
		pf = g_hash_table_lookup(f->files, p);
		if (pf)
			v = patchid_files_stable(pf);
		else if (!g_hash_table_contains(f->files, p))
			v = patchid_stable(message_body(p->msg));
		g_hash_table_insert(f->patchids, p, v);
	}
	return v;
}

/* For each patch of @ser, the trailers given to an identical patch (same
 * patch-id) of another revision. */
static GHashTable *
carried(struct followups *f, struct series *ser)
{
	GHashTable *by_files, *out;
	guint i;

	if (f->carried_for == ser)
		return f->carried;
	if (f->carried)
		g_hash_table_destroy(f->carried);
	out = g_hash_table_new_full(NULL, NULL, NULL,
				    (GDestroyNotify)g_ptr_array_unref);
	by_files =
	    g_hash_table_new_full(patchid_files_hash, patchid_files_equal, NULL,
				  (GDestroyNotify)g_ptr_array_unref);
	for (i = 0; i < f->set->all->len; i++) {
		struct spatch *p = f->set->all->pdata[i];
		GPtrArray *sent = g_hash_table_lookup(f->to, p);
		const struct patchid_files *pf;

		if (p->reply || !p->has_diff || p->revision == ser->revision ||
		    !sent || !sent->len || !(pf = files_of(f, p)))
			continue;
		if (!g_hash_table_contains(by_files, pf))
			g_hash_table_insert(by_files, (gpointer)pf,
					    g_ptr_array_new());
		g_ptr_array_extend(g_hash_table_lookup(by_files, pf), sent,
				   NULL, NULL);
	}
	for (i = 1; g_hash_table_size(by_files) && i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;
		const struct patchid_files *pf;
		GPtrArray *c;

		if (!p || !(pf = files_of(f, p)) ||
		    !(c = g_hash_table_lookup(by_files, pf)))
			continue;
		g_hash_table_insert(out, p, g_ptr_array_ref(c));
	}
	g_hash_table_destroy(by_files);
	f->carried_for = ser;
	f->carried = out;
	return out;
}

GPtrArray *
followup_for(struct followups *f, struct series *ser,
	     const struct series_entry *e)
{
	GPtrArray *out = g_ptr_array_new();
	struct spatch *cover = series_cover(ser);
	GPtrArray *l;

	if (!e->p)
		return out;
	if ((l = g_hash_table_lookup(f->to, e->p)))
		g_ptr_array_extend(out, l, NULL, NULL);
	if ((l = g_hash_table_lookup(carried(f, ser), e->p)))
		g_ptr_array_extend(out, l, NULL, NULL);
	if (cover && cover != e->p && (l = g_hash_table_lookup(f->to, cover)))
		g_ptr_array_extend(out, l, NULL, NULL);
	return out;
}
