/*
 * fuzz-trailer.c - the trailer parser: trailers found in a reply and in a
 * commit message, person matching, the hygiene checks on them, and the
 * body cut into message, trailer block, basement and signature and put
 * back together.
 */
#include "fuzz.h"

#include "mail/body.h"
#include "trailers/bodyparts.h"
#include "mail/message.h"
#include "trailers/hygiene.h"
#include "trailers/trailer.h"

#include <string.h>

static struct message *sender;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char msg[] = "From: Rev Iewer <rev@example.org>\n"
				  "Message-ID: <r@x>\n"
				  "Subject: Re: [PATCH] x\n\nbody\n";

	fuzz_init();
	sender = message_parse(msg, sizeof(msg) - 1, NULL);
	return 0;
}

static void
check_trailers(GPtrArray *list)
{
	guint i;

	for (i = 0; i < list->len; i++) {
		struct trailer *t = list->pdata[i];
		g_autofree char *s = trailer_string(t, TRUE);
		struct trailer *c = trailer_copy(t);
		const char *p = s;

		fuzz_assert(t->name && *t->name && t->value);
		/* a commit message's own trailer is written as it was, its
		 * indentation included */
		while (t->raw && g_ascii_isspace(*p))
			p++;
		fuzz_assert(g_str_has_prefix(p, t->name));
		/* a trailer never spans lines except for its [extinfo] */
		fuzz_assert(!strchr(t->name, '\n'));
		fuzz_assert(trailer_eq(t, c));
		trailer_sender_ok(t, sender);
		trailer_email_eq(t, "rev+tag@sub.example.org");
		/* the hygiene checks read the same hostile values */
		g_free(hygiene_link_msgid(t->value));
		hygiene_fixes_ok(t->value);
		hygiene_gmane_addr(t->addr_email);
		fuzz_assert(!strcmp(t->lname, "link") ||
			    !hygiene_link_in(list, t));
		trailer_free(c);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	GPtrArray *found = trailer_array_new();
	GPtrArray *others = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *reply;
	struct body_parts bp;
	char *rebuilt;

	trailer_find(s, FALSE, found, others);
	check_trailers(found);
	g_ptr_array_set_size(found, 0);
	trailer_find(s, TRUE, found, NULL);
	check_trailers(found);

	reply = trailer_from_reply(sender, s);
	check_trailers(reply);

	body_split(s, &bp);
	fuzz_assert(bp.message && bp.basement && bp.signature && bp.trailers);
	rebuilt = body_rebuild(&bp, reply);
	fuzz_assert(g_utf8_validate(rebuilt, -1, NULL) ||
		    !g_utf8_validate(s, -1, NULL));
	g_free(rebuilt);
	body_parts_clear(&bp);

	body_has_diff(s);
	body_has_diffstat(s);

	g_ptr_array_free(reply, TRUE);
	g_ptr_array_free(found, TRUE);
	g_ptr_array_free(others, TRUE);
	return 0;
}
