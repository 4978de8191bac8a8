/*
 * fuzz-thread.c - the whole pipeline on a hostile mailbox: mbox split,
 * thread (dedup, prune, order), series (revisions, cover, re-rolls),
 * trailers (follow-ups collected, carried, merged), the am-ready message of
 * every patch and the file names. The am-ready headers must be exactly the ones
 * lore-am writes: no mail can smuggle in a header or a trailer of its own
 * through a line break.
 */
#include "fuzz.h"

#include "write/am.h"
#include "series/cherrypick.h"
#include "trailers/followup.h"
#include "trailers/trailer.h"
#include "mail/mailinfo.h"
#include "mail/mbox.h"
#include "series/series.h"
#include "thread/thread.h"
#include "write/writer.h"
#include "core/util.h"

#include <string.h>

static struct followup_opts opts;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	opts.add_trailers = TRUE;
	opts.add_my_sob = TRUE;
	opts.add_link = TRUE;
	opts.link_trailer = "Link: https://patch.msgid.link/%s";
	opts.cc_trailers = TRUE;
	opts.trailer_order = "fixes*,reviewed*,*";
	opts.ignore_from = g_ptr_array_new();
	opts.user_name = "Test Maintainer";
	opts.user_email = "maintainer@example.org";
	return 0;
}

static void
add_one(const char *msg, size_t len, void *data)
{
	thread_add_raw(data, msg, len, "fuzz");
}

/* Where the patch starts (git's patch break), or the end of @am. */
static gssize
am_text_end(const char *am)
{
	size_t pos = 0, len = strlen(am), ll;
	const char *l;

	while (lore_next_line(am, len, &pos, &l, &ll))
		if (mailinfo_is_patch_break(l, ll))
			return l - am;
	return len;
}

static void
check_headers(const char *am)
{
	static const char *const names[] = {
	    "Subject: ",
	    "From: ",
	    "Date: ",
	    "Message-Id: <",
	    "MIME-Version: 1.0\n",
	    "Content-Type: ",
	    "Content-Transfer-Encoding: ",
	};
	const char *p = am;
	guint seen = 0, i;

	if (getenv("FUZZ_DEBUG"))
		fprintf(stderr, "---- am-ready message\n%s----\n", am);
	/* the headers and the commit message are UTF-8; the patch keeps
	 * the bytes it was sent with, as git applies them */
	fuzz_assert(g_utf8_validate(am, am_text_end(am), NULL));
	while (*p && *p != '\n') {
		const char *nl = strchr(p, '\n');

		fuzz_assert(nl != NULL);
		if (*p != ' ') {
			for (i = 0; i < G_N_ELEMENTS(names); i++)
				if (g_str_has_prefix(p, names[i]))
					break;
			fuzz_assert(i < G_N_ELEMENTS(names));
			fuzz_assert(!(seen & (1u << i)));
			seen |= 1u << i;
		}
		p = nl + 1;
	}
	fuzz_assert(seen == (1u << G_N_ELEMENTS(names)) - 1);
}

static void
check_slug(const char *slug)
{
	const char *p;

	fuzz_assert(*slug && g_utf8_validate(slug, -1, NULL));
	fuzz_assert(g_utf8_strlen(slug, -1) <= 100);
	for (p = slug; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		fuzz_assert(c == '_' || g_unichar_isalnum(c));
	}
}

static void
write_series(struct followups *f, struct series *ser, const char *target)
{
	GString *mbox = g_string_new(NULL);
	GHashTable *pick;
	GArray *miss;
	char *slug;
	guint i;

	for (i = 0; i < ser->slots->len; i++) {
		struct series_entry *e =
		    &g_array_index(ser->slots, struct series_entry, i);
		struct am_note note = {0};
		GPtrArray *fu;
		char *msg, *safe;

		if (!e->p)
			continue;
		fu = followup_for(f, ser, e);
		msg = am_message(e, fu, &opts, i == 0, &note);
		check_headers(msg);
		safe = lore_term_safe(note.subject, -1);
		fuzz_check_term_safe(safe);
		g_free(safe);
		writer_mbox_add(mbox, msg, i & 1);
		writer_has_from_line(msg);
		g_free(msg);
		g_ptr_array_free(fu, TRUE);
		am_note_clear(&note);
	}
	miss = series_missing(ser);
	g_array_unref(miss);
	pick = cherrypick_parse(ser, "1-2,4-", target, NULL);
	if (pick)
		g_hash_table_destroy(pick);
	pick = cherrypick_parse(ser, "_", target, NULL);
	if (pick)
		g_hash_table_destroy(pick);
	slug = writer_slug(ser);
	check_slug(slug);
	g_free(slug);
	slug = writer_branch_slug(ser);
	check_slug(slug);
	g_free(slug);
	g_string_free(mbox, TRUE);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct thread *t = thread_new();
	struct series_set *s;
	struct followups *f;
	GPtrArray *ordered;
	GArray *revs;
	char *target;
	guint i;

	mbox_split((const char *)data, size, add_one, t);
	if (!t->msgs->len)
		goto out;
	/* the first message is the one piped in; odd sizes use --no-parent */
	target = g_strdup(((struct message *)t->msgs->pdata[0])->msgid);
	thread_prune(t, target, size & 1);
	fuzz_assert(thread_get(t, target) != NULL);
	ordered = thread_ordered(t);
	fuzz_assert(ordered->len == t->msgs->len);
	g_ptr_array_free(ordered, TRUE);

	s = series_analyse(t, trailer_reply_sends);
	f = followup_collect(s, size & 2);
	revs = series_revisions(s);
	for (i = 0; i < revs->len && i < 4; i++) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));

		fuzz_assert(ser != NULL);
		write_series(f, ser, target);
	}
	g_array_unref(revs);
	if (series_get(s, 0))
		fuzz_assert(series_get(s, 0) == series_get(s, 0));
	followup_free(f);
	series_set_free(s);
	g_free(target);
out:
	thread_free(t);
	return 0;
}
