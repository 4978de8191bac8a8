/*
 * digfind.c - lore-am dig's two ways to a patch that b4 dig (0.15) has
 * besides the subject: the commit's patch-id under each diff algorithm
 * (a sender whose git has diff.algorithm=histogram sends a patch whose
 * `git patch-id --stable` is not the myers one of the applied commit),
 * computed one algorithm at a time, so that a search that finds it with
 * the first costs no more; and the other revisions of a series by the
 * `change-id:` line b4 prep writes in its cover letter (public-inbox's
 * nq: search, the quoted text left out).
 */
#include "cli/cmd.h"
#include "cli/dig-int.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "source/gather.h"

#include <string.h>

/* each git show / patch-id run, at most: seconds, bytes kept */
#define DIG_GIT_TIMEOUT 120
#define DIG_PATCH_MAX (64u << 20)
/* a change-id b4 makes is DATE-TOPIC-HASH, some 40 bytes */
#define DIG_CHANGE_ID_MAX 100
/* messages up the thread from the patch read for its change-id */
#define DIG_CHANGE_ID_DEPTH 8

/* b4 dig's order: git's default first */
static const char *const dig_algorithms[] = {"myers", "histogram", "patience",
					     "minimal"};

void
dig_patch_free(gpointer p)
{
	g_string_free(p, TRUE);
}

int
dig_search(struct gather *g, const char *query, struct thread *t)
{
	GError *err = NULL;
	int rc = gather_search(g, query, t, &err);

	if (rc && rc != LORE_ENOTFOUND)
		lore_err("%s", err->message);
	g_clear_error(&err);
	return rc;
}

/* "git @argv..." within the bounds, @in on its stdin: its whole stdout
 * (g_string_free), NULL when it failed, said nothing or said too much */
static GString *
dig_git(const char *const *argv, const GString *in, gsize keep)
{
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	struct gitrun_bound b = {DIG_GIT_TIMEOUT, keep, FALSE, 0, e};
	int rc = gitrun_bounded(NULL, argv, in ? in->str : NULL,
				in ? in->len : 0, out, &b, NULL);

	g_string_free(e, TRUE);
	if (rc == 0 && !b.cut && out->len)
		return out;
	g_string_free(out, TRUE);
	return NULL;
}

/* The patch of @alg's diff, b4's way (g_free), or NULL; as format-patch
 * makes it whatever the user's config says of git show: no colour
 * (color.ui=always would leave patch-id nothing to read), no external
 * diff, no textconv. */
static GString *
dig_patch(const struct dig *d, const char *alg)
{
	g_autofree char *opt = g_strconcat("--diff-algorithm=", alg, NULL);
	const char *const argv[] = {"git",
				    "show",
				    "--no-color",
				    "--no-ext-diff",
				    "--no-textconv",
				    "--format=email",
				    "--binary",
				    "--encoding=utf-8",
				    "--find-renames",
				    opt,
				    d->commit,
				    NULL};

	return dig_git(argv, NULL, DIG_PATCH_MAX);
}

/* what git patch-id prints: 40 (SHA-1) or 64 (SHA-256) hex digits */
static gboolean
patchid_ok(const char *id)
{
	size_t n = strspn(id, "0123456789abcdef");

	return !id[n] && (n == 40 || n == 64);
}

gboolean
dig_next_patchid(struct dig *d)
{
	const char *const pid[] = {"git", "patch-id", "--stable", NULL};

	while (d->algs < G_N_ELEMENTS(dig_algorithms)) {
		GString *p = dig_patch(d, dig_algorithms[d->algs++]);
		GString *o = NULL;
		g_autofree char *id = NULL;
		guint i;
		gboolean seen = FALSE;

		if (!p)
			continue;
		/* the same bytes as another algorithm's: the same id. The
		 * patches are kept, not hashed: when the first algorithm
		 * finds it, nothing more is done. */
		for (i = 0; i < d->patches->len && !seen; i++)
			seen = g_string_equal(d->patches->pdata[i], p);
		if (seen) {
			g_string_free(p, TRUE);
			continue;
		}
		g_ptr_array_add(d->patches, p);
		if (!(o = dig_git(pid, p, 4096)))
			continue;
		id = gitrun_first_line(o->str);
		g_string_free(o, TRUE);
		if (!id)
			continue;
		*strchrnul(id, ' ') = 0;
		for (i = 0; i < d->patchids->len && !seen; i++)
			seen = !strcmp(d->patchids->pdata[i], id);
		if (seen || !patchid_ok(id))
			continue;
		g_ptr_array_add(d->patchids, g_steal_pointer(&id));
		return TRUE;
	}
	/* every algorithm tried: no patch is compared again */
	g_ptr_array_set_size(d->patches, 0);
	return FALSE;
}

/* A change-id b4 would write: letters, digits, '.', '_', '+' and '-'. */
static gboolean
change_id_ok(const char *v, size_t n)
{
	size_t i;

	if (!n || n > DIG_CHANGE_ID_MAX)
		return FALSE;
	for (i = 0; i < n; i++)
		if (!g_ascii_isalnum(v[i]) && !strchr("._+-", v[i]))
			return FALSE;
	return TRUE;
}

/* The value of the line "change-id: VALUE" in @body: 1 and a copy in
 * @id when it is one b4 writes, 0 when there is no such line, -1 when
 * its value is not one (too long, quotes...) */
static int
change_id_in(const char *body, char **id)
{
	const char *p = body;

	while (p && *p) {
		const char *end = strchrnul(p, '\n'), *v;
		size_t n;

		if (g_str_has_prefix(p, "change-id:")) {
			v = p + strlen("change-id:");
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			n = (size_t)(end - v);
			while (n && g_ascii_isspace(v[n - 1]))
				n--;
			if (!change_id_ok(v, n))
				return -1;
			*id = g_strndup(v, n);
			return 1;
		}
		p = *end ? end + 1 : NULL;
	}
	return 0;
}

char *
dig_change_id(struct thread *t, struct message *m)
{
	char *id = NULL;
	int k, r;

	for (k = 0; m && k < DIG_CHANGE_ID_DEPTH; k++) {
		r = change_id_in(message_body(m), &id);
		if (r > 0)
			return id;
		if (r < 0) {
			lore_info("NOTE: the series' change-id is not one b4 "
				  "writes: not searched, the other revisions "
				  "found by title and sender");
			return NULL;
		}
		m = thread_parent(t, m);
	}
	return NULL;
}

/* Does @m carry the line "change-id: @id"? (the search is a phrase of
 * words: it also finds "change-id: ID-more" and quoted copies) */
static gboolean
has_change_id(struct message *m, const char *id)
{
	g_autofree char *v = NULL;

	return change_id_in(message_body(m), &v) > 0 && !strcmp(v, id);
}

int
dig_by_change_id(struct gather *g, const char *id, const struct dig *d,
		 struct thread *all, guint *n)
{
	g_autofree char *q =
	    d->until ? g_strdup_printf("nq:\"change-id:%s\" AND d:..%s", id,
				       d->until)
		     : g_strdup_printf("nq:\"change-id:%s\"", id);
	struct thread *hits = thread_new();
	GError *err = NULL;
	guint i;
	int rc = dig_search(g, q, hits);

	/* only the archive failing stops dig: a search it refuses (said)
	 * leaves the titles to find the revisions, as before */
	if (rc != LORE_ETEMP)
		rc = LORE_OK;
	for (i = 0; rc == LORE_OK && i < hits->msgs->len; i++) {
		struct message *m = hits->msgs->pdata[i];

		if (thread_get(all, m->msgid) || !has_change_id(m, id) ||
		    *n >= DIG_MAX_THREADS)
			continue;
		(*n)++;
		if (gather_more(g, m->msgid, all, &err) == LORE_ETEMP)
			rc = lore_err_take(g_steal_pointer(&err));
		g_clear_error(&err);
	}
	thread_free(hits);
	return rc;
}
