/* Copies of one Message-ID (table-driven): the List-Id rank under a
 * preference, the measures of a list's changes, the order of two copies,
 * and the thread keeping the same copy whichever comes first. */
#include "thread/copyrank.h"
#include "tap.h"
#include "thread/thread.h"

#include <gmime/gmime.h>

static const struct {
	const char *pref; /* NULL: the default */
	const char *list_id;
	guint rank;
} ranks[] = {
    {NULL, "<linux-kernel.vger.kernel.org>", 2},
    {NULL, "Linux Kernel <LINUX-KERNEL.vger.kernel.org>", 2},
    {NULL, "<lkml.feeds.kernel.org>", 0},
    {NULL, "<x.linux.dev>", 1},
    {NULL, "<x.example.org>", 3},
    {NULL, NULL, 3},
    {NULL, "no brackets.kernel.org", 3},
    {NULL, "<>", 3},
    {"a.example.org, *", "<a.example.org>", 0},
    {"a.example.org, *", "<b.example.org>", 1},
    {"*, a.example.org", "<a.example.org>", 0},
    {"*, a.example.org", "<b.example.org>", 1},
    {"a.example.org", "<b.example.org>", 1},
    {"x*,,y*", "<y.example.org>", 1},
    {"[ab].example.org", "<b.example.org>", 0},
    {"", "<lkml.feeds.kernel.org>", 0},
};

static struct message *
mail(const char *id, const char *list_id, const char *extra,
     const char *subject, const char *text)
{
	GString *m = g_string_new(NULL);
	struct message *msg;

	g_string_append_printf(m, "From: A <a@example.org>\nMessage-ID: <%s>\n",
			       id);
	if (list_id)
		g_string_append_printf(m, "List-Id: %s\n", list_id);
	g_string_append_printf(m, "%sSubject: %s\n\n%s", extra, subject, text);
	msg = message_parse(m->str, m->len, NULL);
	g_string_free(m, TRUE);
	return msg;
}

/* which of @a and @b the thread keeps, added in both orders: "a", "b",
 * or "order" when it depends on the order */
static const char *
kept(struct message *(*a)(void), struct message *(*b)(void))
{
	struct thread *t1 = thread_new(), *t2 = thread_new();
	const char *r1, *r2;

	thread_add(t1, a(), "a");
	thread_add(t1, b(), "b");
	thread_add(t2, b(), "b");
	thread_add(t2, a(), "a");
	r1 = thread_get(t1, "x@y")->origin;
	r2 = thread_get(t2, "x@y")->origin;
	thread_free(t1);
	thread_free(t2);
	return strcmp(r1, r2) ? "order" : r1;
}

static struct message *
plain(void)
{
	return mail("x@y", "<l.example.org>", "", "[PATCH] t", "text\n");
}
static struct message *
more_fields(void)
{
	return mail("x@y", "<l.example.org>",
		    "List-Post: <mailto:l@example.org>\n", "[PATCH] t",
		    "text\n");
}
static struct message *
tagged(void)
{
	return mail("x@y", "<l.example.org>", "", "[l] [PATCH] t", "text\n");
}
static struct message *
footer(void)
{
	return mail("x@y", "<l.example.org>", "", "[PATCH] t",
		    "text\n--\nl mailing list\n");
}
static struct message *
feeds(void)
{
	return mail("x@y", "<l.feeds.kernel.org>",
		    "List-Post: <mailto:l@example.org>\n", "[l] [PATCH] t",
		    "text\n--\nl mailing list\n");
}
static struct message *
other_byte(void)
{
	return mail("x@y", "<l.example.org>", "X-A: 2\n", "[PATCH] t",
		    "text\n");
}
static struct message *
one_byte(void)
{
	return mail("x@y", "<l.example.org>", "X-A: 1\n", "[PATCH] t",
		    "text\n");
}

int
main(void)
{
	struct copyrank r;
	guint i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(ranks); i++) {
		struct message *m = mail("x@y", ranks[i].list_id, "", "s", "");

		copyrank_setup(ranks[i].pref);
		copyrank_of(m, &r);
		tap_is_int(r.listid, ranks[i].rank, "'%s' under '%s'",
			   ranks[i].list_id ? ranks[i].list_id : "(none)",
			   ranks[i].pref ? ranks[i].pref : "(default)");
		message_free(m);
	}
	copyrank_setup(NULL);
	{
		struct message *m = more_fields();

		copyrank_of(m, &r);
		tap_is_int(r.list_fields, 2, "List-Id and List-Post: 2 fields");
		message_free(m);
	}
	tap_is_str(kept(plain, more_fields), "a", "fewer List-* fields win");
	tap_is_str(kept(plain, tagged), "a", "no subject tag wins");
	tap_is_str(kept(footer, plain), "b", "no footer wins");
	tap_is_str(kept(plain, feeds), "b",
		   "the preferred List-Id wins over every change");
	tap_is_str(kept(one_byte, other_byte), "a",
		   "else the lower SHA-256, in either order");
	{
		struct thread *t = thread_new();
		GPtrArray *alts;

		thread_add(t, plain(), "a");
		thread_add(t, footer(), "b");
		thread_add(t, feeds(), "c");
		thread_add(t, plain(), "d"); /* the same bytes again */
		alts = thread_alternates(t, thread_get(t, "x@y"));
		tap_is_int(alts->len, 0,
			   "no alternate of another List-Id rank");
		g_ptr_array_unref(alts);
		tap_is_int(g_hash_table_size(t->copies), 1, "one id's copies");
		tap_is_int(
		    ((GPtrArray *)g_hash_table_lookup(t->copies, "x@y"))->len,
		    2, "the same bytes twice are kept once");
		thread_free(t);
	}
	{
		struct thread *t = thread_new();
		GPtrArray *alts;

		for (i = 0; i < THREAD_MAX_COPIES + 3; i++) {
			g_autofree char *x = g_strdup_printf("X-N: %u\n", i);

			thread_add(
			    t, mail("x@y", "<l.example.org>", x, "s", ""), "m");
		}
		alts = thread_alternates(t, thread_get(t, "x@y"));
		tap_is_int(alts->len, THREAD_MAX_COPIES,
			   "at most THREAD_MAX_COPIES others are kept");
		g_ptr_array_unref(alts);
		thread_free(t);
	}
	{
		struct thread *t = thread_new(), *a = thread_new();

		thread_add(t, footer(), "local");
		thread_add(a, plain(), "lore");
		thread_merge(t, a);
		tap_is_str(thread_get(t, "x@y")->origin, "local",
			   "a local copy stays before the archive's, though "
			   "it has more changes");
		tap_is_int(t->dups, 1, "and the archive's is dropped");
		thread_add(a, feeds(), "lore");
		thread_merge(t, a);
		tap_is_str(thread_get(t, "x@y")->origin, "local",
			   "whatever its List-Id");
		thread_free(a);
		thread_free(t);
	}
	{
		struct thread *t = thread_new(), *a = thread_new();
		GPtrArray *alts;

		thread_add(a, plain(), "lore");
		thread_add(a, footer(), "lore");
		thread_merge(t, a);
		alts = thread_alternates(t, thread_get(t, "x@y"));
		tap_is_int(alts->len, 1,
			   "the archive's copies of an id "
			   "only it has come along");
		g_ptr_array_unref(alts);
		thread_add(t, footer(), "local");
		tap_is_str(thread_get(t, "x@y")->origin, "local",
			   "a local copy takes the archive's place");
		alts = thread_alternates(t, thread_get(t, "x@y"));
		tap_is_int(alts->len, 0, "and the archive's are no choice");
		g_ptr_array_unref(alts);
		thread_free(a);
		thread_free(t);
	}
	return tap_done();
}
