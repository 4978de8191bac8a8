/*
 * fuzz-url.c - the archive URLs made from a user's mask and a hostile
 * Message-ID (url.c): the input's first line is a mask (or a message's
 * URL), the rest the id. Whatever the id holds, it stays one escaped path
 * segment of the URL asked for: it never changes the host or the path
 * before it, and makes no query or fragment.
 */
#include "fuzz.h"

#include "source/url.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

/* Only the unreserved bytes and %XX escapes, never "." or "..". */
static void
check_escaped(const char *e, const char *id)
{
	const char *p;

	fuzz_assert(strlen(e) <= 3 * strlen(id));
	for (p = e; *p; p++) {
		if (*p == '%') {
			fuzz_assert(g_ascii_isxdigit(p[1]) &&
				    g_ascii_isxdigit(p[2]));
			continue;
		}
		fuzz_assert(g_ascii_isalnum(*p) || strchr("-._~", *p) ||
			    g_ascii_isxdigit(*p));
	}
	fuzz_assert(strcmp(e, ".") && strcmp(e, ".."));
}

/*
 * The URL made of @mask (checked) and @id: the archive's base, then the
 * escaped id and the leaf; the host and the path before the id are the
 * mask's, and nothing from the id makes a query or a fragment.
 */
static void
check_for_id(const char *mask, const char *id)
{
	g_autofree char *url = url_for_id(mask, id, "t.mbox.gz");
	g_autofree char *base = url_mask_base(mask);
	g_autofree char *r1 = url_root(mask), *r2 = NULL;

	if (!url) {
		/* only an empty id or one of dots names nothing */
		fuzz_assert(!id[strspn(id, ".")]);
		return;
	}
	r2 = url_root(url);
	fuzz_assert(r1 && r2 && !strcmp(r1, r2));
	fuzz_assert(g_str_has_prefix(url, base));
	fuzz_assert(g_str_has_suffix(url, "/t.mbox.gz"));
	fuzz_assert(!strpbrk(url, "?#"));
	fuzz_assert(url_is_http(url));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	char *nl = strchr(s, '\n');
	const char *mask = s, *id = nl ? nl + 1 : "";
	g_autofree char *esc = NULL, *checked = NULL, *root = NULL;
	g_autofree char *joined = NULL, *search = NULL, *archive = NULL;
	GError *err = NULL;

	if (nl)
		*nl = '\0';
	esc = url_escape_id(id);
	check_escaped(esc, id);
	checked = url_mask_check(mask, &err);
	if (checked) {
		g_autofree char *again = url_mask_check(checked, NULL);
		g_autofree char *base = url_mask_base(checked);

		/* canonical: checking it again changes nothing */
		fuzz_assert(again && !strcmp(again, checked));
		/* the scheme in any case, as RFC 3986 and curl take it */
		fuzz_assert(!g_ascii_strncasecmp(checked, "http://", 7) ||
			    !g_ascii_strncasecmp(checked, "https://", 8));
		fuzz_assert(!strpbrk(checked, "?#"));
		fuzz_assert(base && url_is_http(base));
		check_for_id(checked, id);
		search = url_search(checked, id);
		fuzz_assert(!search || g_str_has_prefix(search, base));
	} else {
		fuzz_assert(err && err->message);
	}
	g_clear_error(&err);
	root = url_root(mask);
	fuzz_assert(!root || g_str_has_suffix(root, "/"));
	joined = url_join(mask, "t.mbox.gz");
	fuzz_assert(!joined || g_str_has_suffix(joined, "/t.mbox.gz"));
	archive = url_archive_mask(mask, id, &err);
	if (archive) {
		/* what a message's URL names is a mask like any other */
		g_autofree char *ok = url_mask_check(archive, NULL);

		fuzz_assert(ok);
	}
	g_clear_error(&err);
	return 0;
}
