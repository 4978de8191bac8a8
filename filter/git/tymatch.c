/*
 * tymatch.c - b4 ty's get_all_commits() and auto_locate_series() in C,
 * with one `git log -p` for all the commits where b4 runs `git diff` for
 * each: every record is "\0ID\nSUBJECT\nMESSAGE\0DIFF" (a commit message
 * holds no NUL, git refuses one; a text diff neither, a binary file is
 * one line), and the diff's patchwork hash is track.c's, b4's.
 */
#include "git/tymatch.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/track.h"

#include <string.h>

struct ty_commit {
	char *id, *subject;
	char *hash;	     /* its diff's patchwork hash */
	GPtrArray *trackers; /* Message-Id: and Link: values (char *) */
};

static void
commit_free(struct ty_commit *c)
{
	g_free(c->id);
	g_free(c->subject);
	g_free(c->hash);
	g_ptr_array_unref(c->trackers);
	g_free(c);
}

/* ^\s*(message-id|link):[ \t]+(\S+)\s*$, as b4 reads a message */
static void
trackers(const char *msg, GPtrArray *out)
{
	g_auto(GStrv) lines = g_strsplit(msg, "\n", -1);
	guint i;

	for (i = 0; lines[i]; i++) {
		const char *l = lines[i], *v, *end;

		while (g_ascii_isspace(*l))
			l++;
		if (!g_ascii_strncasecmp(l, "message-id:", 11))
			v = l + 11;
		else if (!g_ascii_strncasecmp(l, "link:", 5))
			v = l + 5;
		else
			continue;
		if (*v != ' ' && *v != '\t')
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		for (end = v; *end && !g_ascii_isspace(*end); end++)
			;
		if (end == v || *lore_strip((char *)end) != '\0')
			continue;
		g_ptr_array_add(out, g_strndup(v, end - v));
	}
}

static void
add_commit(struct ty_branch *b, const char *head, const char *diff, gsize dlen)
{
	struct ty_commit *c = g_new0(struct ty_commit, 1);
	const char *nl = strchr(head, '\n');
	const char *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
	char *hash = track_pwhash(diff, dlen);
	struct ty_commit *old = g_hash_table_lookup(b->by_hash, hash);
	guint i;

	c->id = g_strndup(head, nl ? (gsize)(nl - head) : strlen(head));
	c->subject =
	    nl ? g_strndup(nl + 1, nl2 ? (gsize)(nl2 - nl - 1) : strlen(nl + 1))
	       : g_strdup("");
	c->trackers = g_ptr_array_new_with_free_func(g_free);
	if (nl2)
		trackers(nl2 + 1, c->trackers);
	g_ptr_array_add(b->commits, c);
	/* a Python dict: a key seen again keeps its place, its new value */
	for (i = 0; old && i < b->order->len; i++)
		if (b->order->pdata[i] == old)
			b->order->pdata[i] = c;
	if (!old)
		g_ptr_array_add(b->order, c);
	c->hash = g_strdup(hash);
	g_hash_table_replace(b->by_hash, hash, c);
}

/* the commits `git log @argv` lists, each record as ty_branch_load()
 * asks for them; NULL with @err when git fails */
static struct ty_branch *
load(const char *const *argv, const char *what, GError **err)
{
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	struct ty_branch *b;
	const char *p, *end;

	if (gitrun(NULL, argv, NULL, 0, out, e, err) != 0) {
		g_autofree char *line = gitrun_first_line(e->str);

		if (err && !*err)
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "git log %s: %s", what, line);
		g_string_free(out, TRUE);
		g_string_free(e, TRUE);
		return NULL;
	}
	b = g_new0(struct ty_branch, 1);
	b->commits =
	    g_ptr_array_new_with_free_func((GDestroyNotify)commit_free);
	b->by_hash =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	b->order = g_ptr_array_new();
	end = out->str + out->len;
	p = memchr(out->str, '\0', out->len);
	while (p && p < end) {
		const char *head = p + 1;
		const char *hend = memchr(head, '\0', end - head);
		const char *dend;

		if (!hend)
			break;
		dend = memchr(hend + 1, '\0', end - hend - 1);
		if (!dend)
			dend = end;
		add_commit(b, head, hend + 1, dend - hend - 1);
		p = dend;
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return b;
}

#define TY_LOG_FORMAT "--format=%x00%H%n%s%n%B%x00"
/* git log's diffs as git made them, whatever the user's config asks of
 * git log: no colour, no external diff, no textconv driver */
#define TY_LOG                                                                 \
	"log", "--no-color", "--no-ext-diff", "--no-textconv", "-p",           \
	    TY_LOG_FORMAT

struct ty_branch *
ty_branch_load(const char *branch, const char *since, const char *committer,
	       GError **err)
{
	g_autofree char *who = g_strdup_printf("--committer=%s", committer);
	g_autofree char *when = g_strdup_printf("--since=%s", since);
	const char *const argv[] = {TY_LOG, who,  when, "--end-of-options",
				    branch, "--", NULL};

	return load(argv, branch, err);
}

struct ty_branch *
ty_range_load(const char *range, GError **err)
{
	const char *const argv[] = {TY_LOG, "--no-merges", "--end-of-options",
				    range,  "--",	   NULL};

	return load(argv, range, err);
}

void
ty_branch_free(struct ty_branch *b)
{
	if (!b)
		return;
	g_ptr_array_unref(b->order);
	g_hash_table_destroy(b->by_hash);
	g_ptr_array_unref(b->commits);
	g_free(b);
}

guint
ty_branch_count(const struct ty_branch *b)
{
	return b->commits->len;
}

/* b4's second try for a patch: the subject, else a trailer naming it */
static const char *
by_words(const struct ty_branch *b, const struct ty_patch *p)
{
	guint i, k;

	for (i = 0; i < b->order->len; i++) {
		const struct ty_commit *c = b->order->pdata[i];

		if (!strcmp(c->subject, p->title))
			return c->id;
		for (k = 0; *p->msgid && k < c->trackers->len; k++)
			if (strstr(c->trackers->pdata[k], p->msgid))
				return c->id;
	}
	return NULL;
}

GPtrArray *
ty_match(const struct ty_branch *b, const struct ty_series *s, guint *found)
{
	GPtrArray *out = g_ptr_array_new();
	guint i;

	*found = 0;
	for (i = 0; i < s->npatches; i++) {
		const struct ty_patch *p = &s->patches[i];
		const struct ty_commit *c =
		    g_hash_table_lookup(b->by_hash, p->hash);
		const char *id = c ? c->id : by_words(b, p);

		g_ptr_array_add(out, (char *)id);
		*found += id != NULL;
	}
	return out;
}

struct ty_patch *
ty_branch_patches(const struct ty_branch *b)
{
	struct ty_patch *p = g_new0(struct ty_patch, b->commits->len + 1);
	guint i, n = b->commits->len;

	for (i = 0; i < n; i++) {
		const struct ty_commit *c = b->commits->pdata[n - 1 - i];

		p[i] = (struct ty_patch){c->subject, c->hash, "", NULL};
	}
	return p;
}
