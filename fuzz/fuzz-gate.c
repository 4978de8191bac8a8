/*
 * fuzz-gate.c - the gate's reading of a patch: the commit message cut at
 * git's patch break, its trailer block, the Fixes: ids and quoted
 * subjects, the sign-offs and Co-developed-by:, Reported-by:/Closes:, a
 * backport's "commit X upstream.", then the summary's lines and the JSON
 * document. The input is a subject line, an author line ("Name
 * <address>") and the am-ready body; the run is told it is in no git
 * tree, so no git process is ever started. The same bytes are read as
 * git cat-file --batch-command's answers too, each object read as a
 * commit for its subject (what a Fixes: id's commit says). The trailer
 * block the gate reads in place must be the one body_split() takes off
 * the same message.
 */
#include "fuzz.h"

#include "core/util.h"
#include "gate/gate-int.h"
#include "trailers/bodyparts.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	/* the summary's lines are built and made safe, not printed */
	lore_quiet = 1;
	return 0;
}

/* The JSON is one line of valid UTF-8, no control byte, its brackets
 * balanced outside its strings, each string closed. */
static void
check_json(const GString *j)
{
	gboolean in_str = FALSE, esc = FALSE;
	int depth = 0;
	gsize i;

	fuzz_assert(g_utf8_validate(j->str, j->len, NULL));
	for (i = 0; i < j->len; i++) {
		guchar c = j->str[i];

		fuzz_assert(c >= 0x20 && c != 0x7f);
		if (in_str) {
			if (esc)
				esc = FALSE;
			else if (c == '\\')
				esc = TRUE;
			else if (c == '"')
				in_str = FALSE;
			continue;
		}
		if (c == '"')
			in_str = TRUE;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			fuzz_assert(--depth >= 0);
	}
	fuzz_assert(!in_str && depth == 0);
}

/* The trailer block read in place (gate_trailers()) is the one
 * body_split() takes off the same message. */
static void
check_trailers(const struct gate_patch *p)
{
	struct body_parts bp;
	guint k;

	body_split(p->message, &bp);
	fuzz_assert(p->trailers->len == bp.trailers->len);
	for (k = 0; k < p->trailers->len; k++) {
		const struct trailer *a = p->trailers->pdata[k],
				     *b = bp.trailers->pdata[k];

		fuzz_assert(!strcmp(a->name, b->name));
		fuzz_assert(!strcmp(a->value, b->value));
		fuzz_assert(!g_strcmp0(a->raw, b->raw));
		fuzz_assert(!g_strcmp0(a->extinfo, b->extinfo));
	}
	body_parts_clear(&bp);
}

static void
check_patch(const struct gate_patch *p)
{
	guint k;

	check_trailers(p);

	fuzz_assert(p->mark <= GATE_FAIL);
	fuzz_assert(!p->first_fail == (p->mark != GATE_FAIL));
	for (k = 0; k < p->finds->len; k++) {
		const struct gate_finding *f = p->finds->pdata[k];
		g_autofree char *safe = lore_term_safe(f->text, -1);

		fuzz_assert(f->mark != GATE_PASS && f->mark <= p->mark);
		fuzz_assert(f->check < GATE_C_N);
		fuzz_assert(!strpbrk(safe, "\n\r\x1b"));
	}
	/* nothing was asked of a tree that is not there */
	fuzz_assert(!(p->ran & (1u << GATE_C_BACKPORT)));
}

/* The input as cat-file's answers: each one within it, each subject
 * one line; the reading moves on or stops. */
static void
check_answers(const char *s, size_t size)
{
	g_autoptr(GString) out = g_string_new_len(s, (gssize)size);
	size_t pos = 0, last, blen;
	gboolean contents = FALSE;

	for (;;) {
		g_autofree char *oid = NULL, *type = NULL;
		char *body;

		last = pos;
		type = gate_cat_answer(out, &pos, contents, &oid, &body, &blen);
		if (!type)
			break;
		fuzz_assert(pos > last && pos <= size);
		if (body) {
			g_autofree char *subj = NULL;

			fuzz_assert(body >= out->str &&
				    body + blen <= out->str + size);
			subj = gate_commit_subject(body, blen);
			fuzz_assert(!strchr(subj, '\n'));
		}
		contents = !contents;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	struct gate_opts o = {0};
	g_auto(GStrv) parts = g_strsplit(s, "\n", 3);
	g_autofree char *name = NULL, *email = NULL;
	const char *author = parts[0] && parts[1] ? parts[1] : "";
	const char *lt = strrchr(author, '<'), *gt;
	struct gate *g;
	GString *j = g_string_new(NULL);
	guint i;

	check_answers(s, strlen(s));
	o.policy = size & 1 ? GATE_HARDFAIL : GATE_WARN;
	o.add_my_sob = (size & 2) != 0;
	o.user_name = "Test Maintainer";
	o.user_email = "maintainer@example.org";
	o.tree_known = TRUE;
	o.in_tree = FALSE;
	o.later = TRUE;
	o.json = TRUE;
	if (lt && (gt = strchr(lt, '>'))) {
		name = g_strstrip(g_strndup(author, lt - author));
		email = g_strndup(lt + 1, gt - lt - 1);
	}
	g = gate_new(&o);
	gate_series(g, 1, 1, 1, 0, NULL, parts[0]);
	gate_add(g, parts[0] ? parts[0] : "", name ? name : author,
		 email ? email : "",
		 parts[0] && parts[1] && parts[2] ? parts[2] : "");
	gate_attest(g, "none");
	fuzz_assert(
	    gate_run(g) ==
	    (g->fails && o.policy == GATE_HARDFAIL ? LORE_EGATE : LORE_OK));
	for (i = 0; i < g->patches->len; i++)
		check_patch(g->patches->pdata[i]);
	gate_check_result(g, 0, "warnings", s);
	gate_branch(g, parts[0] ? parts[0] : "", GATE_NOTE, s);
	gate_json_build(g, LORE_EGATE, j);
	check_json(j);
	/* the text lines too (made, made safe, not printed under -q) */
	g->o.json = FALSE;
	gate_report(g, 0);
	g_string_free(j, TRUE);
	gate_free(g);
	return 0;
}
