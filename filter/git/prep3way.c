/*
 * prep3way.c - b4 am -3's preparation done with git's own object format:
 * a file whose hunks start at line 1 and follow each other with no gap
 * shows its whole old text (context and "-" lines), unless lines follow
 * the last hunk; hashing that text as git does ("blob LEN\0" + text,
 * SHA-1) and comparing with the patch's abbreviated blob id tells which.
 * A match is written with `git hash-object -w --stdin`.
 */
#include "git/prep3way.h"
#include "core/gitrun.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* "@@ -A[,B] +C[,D] @@": A and B (B is 1 when left out) */
static gboolean
hunk_old(const char *l, size_t n, long *start, long *count)
{
	char *end;

	if (n < 4 || strncmp(l, "@@ -", 4))
		return FALSE;
	*start = strtol(l + 4, &end, 10);
	*count = 1;
	if (*end == ',')
		*count = strtol(end + 1, &end, 10);
	return *end == ' ' && *start >= 0 && *count >= 0;
}

char *
prep3way_old_side(const char *diff, size_t len)
{
	GString *old = g_string_new(NULL);
	long next = 1, start, count, left = 0;
	gboolean any = FALSE, last_was_old = FALSE;
	const char *l;
	size_t pos = 0, n;

	while (lore_next_line(diff, len, &pos, &l, &n)) {
		if (left == 0) {
			/* lines added after the last old line of a hunk */
			if (n && l[0] == '+' && any) {
				last_was_old = FALSE;
				continue;
			}
			if (n && l[0] == '\\' && any) {
				if (last_was_old && old->len)
					g_string_truncate(old, old->len - 1);
				last_was_old = FALSE;
				continue;
			}
			if (!hunk_old(l, n, &start, &count))
				break;
			if (start != next || count == 0)
				goto fail;
			next = start + count;
			left = count;
			any = TRUE;
			continue;
		}
		if (n && (l[0] == ' ' || l[0] == '-')) {
			g_string_append_len(old, l + 1, n - 1);
			g_string_append_c(old, '\n');
			left--;
			last_was_old = TRUE;
		} else if (n && l[0] == '+') {
			last_was_old = FALSE;
		} else if (n && l[0] == '\\') {
			/* "\ No newline at end of file" after an old line */
			if (last_was_old && old->len)
				g_string_truncate(old, old->len - 1);
		} else if (n == 0) {
			/* a context line whose blank was eaten by mail */
			g_string_append_c(old, '\n');
			left--;
		} else {
			goto fail;
		}
	}
	if (!any || left)
		goto fail;
	return g_string_free(old, FALSE);
fail:
	g_string_free(old, TRUE);
	return NULL;
}

/* git's blob id of @text */
static char *
blob_id(const GString *text)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	g_autofree char *hdr = g_strdup_printf("blob %zu", text->len);
	char *id;

	g_checksum_update(c, (const guchar *)hdr, strlen(hdr) + 1);
	g_checksum_update(c, (const guchar *)text->str, text->len);
	id = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	return id;
}

char *
prep3way_write_blob(const char *dir, const char *text, const char *pre)
{
	const char *const write[] = {"hash-object", "-w", "--stdin", NULL};
	GString *t = g_string_new(text), *out = NULL, *e = NULL;
	g_autofree char *id = blob_id(t);
	char *full = NULL;

	if (!g_str_has_prefix(id, pre))
		goto out;
	out = g_string_new(NULL);
	e = g_string_new(NULL);
	if (gitrun(dir, write, t->str, t->len, out, e, NULL) == 0)
		full = gitrun_first_line(out->str);
	if (full && !g_str_has_prefix(full, pre))
		g_clear_pointer(&full, g_free);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
out:
	g_string_free(t, TRUE);
	return full;
}

struct section {
	char *path, *pre; /* pre: abbreviated blob id */
	char *old;	  /* the rebuilt old text, or NULL */
};

static void
section_free(gpointer p)
{
	struct section *s = p;

	g_free(s->path);
	g_free(s->pre);
	g_free(s->old);
	g_free(s);
}

/* Every file section of one patch mail with a pre-image blob. */
static void
one_mail(const char *msg, size_t len, void *data)
{
	GPtrArray *secs = data;
	struct message *m = message_parse(msg, len, NULL);
	struct section *cur = NULL;
	const char *body, *l;
	size_t pos = 0, blen, n, at;

	if (!m)
		return;
	body = message_body(m);
	blen = strlen(body);
	while (at = pos, lore_next_line(body, blen, &pos, &l, &n)) {
		if (n > 11 && !strncmp(l, "diff --git ", 11)) {
			cur = NULL;
		} else if (n > 6 && !strncmp(l, "index ", 6)) {
			size_t k = strspn(l + 6, "0123456789abcdef");

			cur = NULL;
			if (k >= 7 && l[6 + k] == '.' &&
			    strspn(l + 6, "0") < k) {
				cur = g_new0(struct section, 1);
				cur->pre = g_strndup(l + 6, k);
				g_ptr_array_add(secs, cur);
			}
		} else if (cur && n > 6 && !strncmp(l, "--- a/", 6)) {
			const char *tab = memchr(l, '\t', n);

			cur->path =
			    g_strndup(l + 6, (tab ? tab : l + n) - l - 6);
		} else if (cur && n > 4 && !strncmp(l, "@@ -", 4)) {
			cur->old = prep3way_old_side(body + at, blen - at);
			cur = NULL;
		}
	}
	message_free(m);
}

guint
prep3way_run(const GString *mbox)
{
	const char *const check[] = {"cat-file", "--batch-check", NULL};
	GPtrArray *secs = g_ptr_array_new_with_free_func(section_free);
	GString *in = g_string_new(NULL), *out = g_string_new(NULL);
	GString *e = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	guint i, missing = 0, built = 0, failed = 0;

	mbox_split(mbox->str, mbox->len, one_mail, secs);
	for (i = 0; i < secs->len; i++)
		g_string_append_printf(in, "%s\n",
				       ((struct section *)secs->pdata[i])->pre);
	if (!secs->len ||
	    gitrun(NULL, check, in->str, in->len, out, e, NULL) != 0)
		goto out;
	lines = g_strsplit(out->str, "\n", -1);
	for (i = 0; i < secs->len && lines[i]; i++) {
		struct section *s = secs->pdata[i];
		g_autofree char *p =
		    lore_term_safe(s->path ? s->path : "?", -1);
		g_autofree char *id = NULL;

		/* "ID blob SIZE" when there; "NAME missing"/"ambiguous" not */
		if (g_str_has_suffix(lines[i], " missing") == FALSE &&
		    g_str_has_suffix(lines[i], " ambiguous") == FALSE)
			continue;
		missing++;
		if (s->old &&
		    (id = prep3way_write_blob(NULL, s->old, s->pre))) {
			built++;
			continue;
		}
		lore_info("-3: cannot prepare %s (blob %s is not here and the "
			  "patch does not hold the whole file)",
			  p, s->pre);
		failed++;
	}
	if (missing)
		lore_info("-3: %u pre-image blob%s missing, %u rebuilt from "
			  "the patches",
			  missing, missing == 1 ? "" : "s", built);
out:
	g_ptr_array_free(secs, TRUE);
	g_string_free(in, TRUE);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return failed;
}
