/* The prerequisite lines of a cover letter (series/prereq.h), every form
 * and the hostile ones, table-driven: each case lists what is read as
 * "kind value[:vN]" lines. */
#include "series/prereq.h"
#include "tap.h"

#include <string.h>

#define PID1 "0123456789abcdef0123456789abcdef01234567"
#define PID2 "89abcdef0123456789abcdef0123456789abcdef"

static const struct {
	const char *body;
	const char *want; /* "kind value" a line, in order */
	const char *base, *prereq_base;
	guint malformed;
} cases[] = {
    /* git format-patch --base */
    {"cover\n\nbase-commit: 1234567890abcdef\nprerequisite-patch-id: " PID1
     "\nprerequisite-patch-id: " PID2 "\n",
     "patch-id " PID1 "\npatch-id " PID2 "\n", "1234567890abcdef", NULL, 0},
    /* b4 prep: a change-id with its revision, a message-id, its base
     * (which b4 writes and never reads) */
    {"---\nbase-commit: ABCDEF1\nchange-id: 20240101-me-1a2b\n"
     "prerequisite-change-id: 20231201-dep-9f8e:v3\n"
     "prerequisite-base-commit: fedcba9876\n"
     "prerequisite-message-id: <20231201-dep-v3-0-abc@example.org>\n",
     "change-id 20231201-dep-9f8e:v3\n"
     "message-id 20231201-dep-v3-0-abc@example.org\n",
     "abcdef1", "fedcba9876", 0},
    {"Prerequisite-Change-Id: 20231201-dep-9f8e\n",
     "change-id 20231201-dep-9f8e\n", NULL, NULL, 0},
    /* patchwork ids, with git-pw's title after them */
    {"Depends-on: series-30123 (\"net/foo: bar\")\nDepends-on: patch-77\n",
     "patchwork id series-30123\npatchwork id patch-77\n", NULL, NULL, 0},
    /* QEMU's Based-on:, a URL in Depends-on: */
    {"Based-on: <20240102.a@b.example>\n"
     "Depends-on: https://lore.kernel.org/all/x.y@z.example/\n",
     "message-id 20240102.a@b.example\nmessage-id x.y@z.example\n", NULL, NULL,
     0},
    /* prose */
    {"This series is based on <abc.1@host.example>, please apply\n"
     "It depends on https://lore.kernel.org/r/dep.2@host.example.\n"
     "Based on v6.8-rc1 and https://git.kernel.org/x/y.git/log/?h=next\n",
     "message-id abc.1@host.example\nmessage-id dep.2@host.example\n", NULL,
     NULL, 0},
    /* never in a diff, a quote or an indented line */
    {"+prerequisite-patch-id: " PID1 "\n> based on <q@x.example>\n"
     " prerequisite-message-id: <i@x.example>\n+ depends on <d@x.example>\n",
     "", NULL, NULL, 0},
    /* the same prerequisite twice is one */
    {"prerequisite-message-id: <a@b>\nBased-on: a@b\n"
     "prerequisite-patch-id: " PID1 "\nprerequisite-patch-id: " PID1 "\n",
     "message-id a@b\npatch-id " PID1 "\n", NULL, NULL, 0},
    /* malformed values: counted, never kept */
    {"prerequisite-patch-id: 1234\nprerequisite-patch-id: " PID1 "zz\n"
     "prerequisite-change-id: has space\nprerequisite-change-id: x:v\n"
     "prerequisite-change-id: x:v0\nprerequisite-message-id: <no-at>\n"
     "Depends-on: series-\nDepends-on: series-12x\n"
     "prerequisite-message-id: <a b@c>\nbase-commit: xyz\n",
     "", NULL, NULL, 10},
    /* CRLF line ends; upper-case hex lowered */
    {"prerequisite-patch-id: "
     "0123456789ABCDEF0123456789ABCDEF01234567"
     "\r\nbase-commit: AbCdEf0\r\n",
     "patch-id " PID1 "\n", "abcdef0", NULL, 0},
    /* the first base-commit counts */
    {"base-commit: 1111111\nbase-commit: 2222222\n", "", "1111111", NULL, 0},
    {"", "", NULL, NULL, 0},
};

static char *
dump(const struct prereqs *ps)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < ps->items->len; i++) {
		const struct prereq *p = ps->items->pdata[i];

		g_string_append_printf(s, "%s %s", prereq_kind_name(p->kind),
				       p->value);
		if (p->revision)
			g_string_append_printf(s, ":v%d", p->revision);
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

/* 70 prerequisites: 64 kept, 6 counted; a line past the limit is none */
static void
bounds(void)
{
	static const char nul[] = "based on <a@b>\0x\nBased-on: <c@d>\n";
	GString *b = g_string_new(NULL);
	struct prereqs *ps;
	guint i;

	for (i = 0; i < 70; i++)
		g_string_append_printf(b, "prerequisite-message-id: <%u@x>\n",
				       i);
	g_string_append(b, "prerequisite-message-id: <");
	for (i = 0; i < PREREQ_LINE_MAX; i++)
		g_string_append_c(b, 'a');
	g_string_append(b, "@long>\n");
	ps = prereq_parse(b->str, b->len);
	tap_is_int(ps->items->len, PREREQ_MAX, "at most %d kept", PREREQ_MAX);
	tap_is_int(ps->dropped, 6, "the rest counted");
	tap_is_int(ps->malformed, 0, "the overlong line is no line of ours");
	tap_is_int(((struct prereq *)ps->items->pdata[3])->line, 4,
		   "each knows its line");
	prereqs_free(ps);
	g_string_free(b, TRUE);
	/* a NUL inside: the line is skipped, the next one read */
	ps = prereq_parse(nul, sizeof(nul) - 1);
	tap_is_int(ps->items->len, 1, "a line with a NUL is skipped");
	tap_is_str(((struct prereq *)ps->items->pdata[0])->value, "c@d",
		   "the next line read");
	prereqs_free(ps);
}

/* the quick look that spares a series without prerequisites the parse */
static void
may_hold(void)
{
	static const struct {
		const char *text;
		gboolean want;
	} t[] = {
	    {"prerequisite-patch-id: 1234\n", TRUE},
	    {"PREREQUISITE-MESSAGE-ID: <a@b>\n", TRUE},
	    {"Based-on: <a@b>\n", TRUE},
	    {"this is BASED ON <a@b>\n", TRUE},
	    {"Depends-on: series-1\n", TRUE},
	    {"it depends on https://x/a@b/\n", TRUE},
	    {"quite a database, a bad debase\n", FALSE},
	    {"base-commit: 1234567\nchange-id: x\n", FALSE},
	    {"equisite-\nrerequisite", FALSE},
	    {"", FALSE},
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(t); i++) {
		struct prereqs *ps = prereq_parse(t[i].text, strlen(t[i].text));

		tap_is_int(prereq_may_hold(t[i].text, strlen(t[i].text)),
			   t[i].want, "may hold %u", i);
		/* never FALSE where the parser finds one */
		if (ps->items->len || ps->base_commit == NULL)
			tap_ok(
			    !ps->items->len ||
				prereq_may_hold(t[i].text, strlen(t[i].text)),
			    "may hold %u: none missed", i);
		prereqs_free(ps);
	}
}

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct prereqs *ps =
		    prereq_parse(cases[i].body, strlen(cases[i].body));
		g_autofree char *got = dump(ps);

		tap_is_str(got, cases[i].want, "case %u: prerequisites", i);
		tap_is_str(ps->base_commit, cases[i].base,
			   "case %u: base-commit", i);
		tap_is_str(ps->prereq_base, cases[i].prereq_base,
			   "case %u: prerequisite-base-commit", i);
		tap_is_int(ps->malformed, cases[i].malformed,
			   "case %u: malformed lines", i);
		prereqs_free(ps);
	}
	bounds();
	may_hold();
	return tap_done();
}
