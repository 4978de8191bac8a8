/*
 * pullreq: what a [GIT PULL] mail names, read from git request-pull's
 * text and from hand-written forms; hostile URLs and refs refused.
 */
#include "mail/pullreq.h"
#include "tap.h"

static const char request_pull[] =
    "Hi Linus,\n\n"
    "The following changes since commit "
    "1234567890abcdef1234567890abcdef12345678:\n\n"
    "  Linux 6.8-rc1 (2024-01-21 14:11:32 -0800)\n\n"
    "are available in the Git repository at:\n\n"
    "  git://git.kernel.org/pub/scm/linux/kernel/git/foo/foo.git "
    "tags/foo-6.8\n\n"
    "for you to fetch changes up to "
    "ABCDEF0123456789abcdef0123456789ABCDEF01:\n\n"
    "  foo: fix the bar (2024-01-25 10:00:00 +0100)\n\n"
    "----------------------------------------------------------------\n"
    "foo fixes\n"
    "----------------------------------------------------------------\n"
    "Ann Author (2):\n"
    "      foo: one\n"
    "      foo: two\n\n"
    "Bob Builder (1):\n"
    "      foo: fix the bar\n\n"
    " drivers/foo/foo.c | 10 +++++++---\n"
    " drivers/foo/bar.c |  2 +-\n"
    " 2 files changed, 8 insertions(+), 4 deletions(-)\n";

struct row {
	const char *name, *text;
	const char *url, *ref, *base, *tip;
};

static const struct row rows[] = {
    {"URL alone under 'repository at:', ref on the next line",
     "are available in the Git repository at:\n\n"
     "  https://example.org/r.git\n  for-next\n\nThanks\n",
     "https://example.org/r.git", "for-next", NULL, NULL},
    {"URL alone under 'repository at:', no ref",
     "are available in the Git repository at:\n"
     "  ssh://git@example.org/r.git\n\nThanks\n",
     "ssh://git@example.org/r.git", NULL, NULL, NULL},
    {"hand-written: URL and ref on one line, in prose",
     "Please pull:\n\n    https://example.org/r.git  fixes-2024\n\n"
     "The tip is 89abcdef0 (fetch changes up to 89abcdef0:)\n",
     "https://example.org/r.git", "fixes-2024", NULL, "89abcdef0"},
    {"b4's backslash between URL and ref", "git://example.org/r.git \\\n",
     "git://example.org/r.git", NULL, NULL, NULL},
    {"URL and ref joined by a backslash",
     "  git://example.org/r.git \\ refs/tags/v1.0\n", "git://example.org/r.git",
     "refs/tags/v1.0", NULL, NULL},
    {"a URL alone then a blank line: no ref from the prose after",
     "see\n  https://example.org/r.git\n\nThanks\n",
     "https://example.org/r.git", NULL, NULL, NULL},
    {"URL+ref wins over an earlier URL alone",
     "https://lore.example.org/x\nand\n"
     "git://example.org/r.git main\n",
     "git://example.org/r.git", "main", NULL, NULL},
    {"quoted lines are not read", "> git://example.org/r.git main\n", NULL,
     NULL, NULL, NULL},
    {"ext:: transport refused", "  ext::sh -c touch% /tmp/x main\n", NULL, NULL,
     NULL, NULL},
    {"file:// refused", "  file:///etc/repo main\n", NULL, NULL, NULL, NULL},
    {"a host that is an option refused", "  ssh://-oProxyCommand=evil/x main\n",
     NULL, NULL, NULL, NULL},
    {"a ref that is an option refused, the URL kept alone",
     "  git://example.org/r.git --upload-pack=evil\n", NULL, NULL, NULL, NULL},
    {"a ref with '..' refused", "  git://example.org/r.git a..b\n", NULL, NULL,
     NULL, NULL},
    {"a too short id is no id",
     "changes since commit abcd:\n  git://example.org/r.git main\n",
     "git://example.org/r.git", "main", NULL, NULL},
    {"a 41-digit id is no id",
     "changes up to 0123456789012345678901234567890123456789a:\n"
     "  git://example.org/r.git main\n",
     "git://example.org/r.git", "main", NULL, NULL},
    {"CRLF line ends",
     "changes since commit abcdef1:\r\n  git://example.org/r.git main\r\n",
     "git://example.org/r.git", "main", "abcdef1", NULL},
};

static void
check_request_pull(void)
{
	struct pullreq p;

	tap_ok(pullreq_parse(request_pull, &p), "request-pull: parsed");
	tap_is_str(p.url,
		   "git://git.kernel.org/pub/scm/linux/kernel/git/foo/"
		   "foo.git",
		   "request-pull: URL");
	tap_is_str(p.ref, "tags/foo-6.8", "request-pull: ref");
	tap_is_str(p.base, "1234567890abcdef1234567890abcdef12345678",
		   "request-pull: base");
	tap_is_str(p.tip, "abcdef0123456789abcdef0123456789abcdef01",
		   "request-pull: tip, lower case");
	tap_is_int(p.commits, 3, "request-pull: shortlog counts summed");
	tap_ok(p.stat, "request-pull: diffstat found");
	tap_is_int(p.files, 2, "request-pull: files");
	tap_is_int(p.insertions, 8, "request-pull: insertions");
	tap_is_int(p.deletions, 4, "request-pull: deletions");
	pullreq_clear(&p);
}

static void
check_stat_lines(void)
{
	guint f, i, d;

	tap_ok(
	    pullreq_stat_line(" 1 file changed, 1 insertion(+)", &f, &i, &d) &&
		f == 1 && i == 1 && d == 0,
	    "stat line: one file, insertions only");
	tap_ok(
	    pullreq_stat_line(" 3 files changed, 2 deletions(-)", &f, &i, &d) &&
		f == 3 && i == 0 && d == 2,
	    "stat line: deletions only");
	tap_ok(!pullreq_stat_line(" 3 files changed, 2 apples(-)", &f, &i, &d),
	       "stat line: other words refused");
	tap_ok(!pullreq_stat_line(" 12345678901 files changed", &f, &i, &d),
	       "stat line: a number past 9 digits refused");
}

int
main(void)
{
	guint k;
	GString *big = g_string_new(NULL);
	struct pullreq p;

	check_request_pull();
	for (k = 0; k < G_N_ELEMENTS(rows); k++) {
		const struct row *r = &rows[k];
		gboolean got = pullreq_parse(r->text, &p);

		tap_ok(got == (r->url != NULL), "%s: %s", r->name,
		       r->url ? "parsed" : "refused");
		tap_is_str(p.url, r->url, "%s: URL", r->name);
		tap_is_str(p.ref, r->ref, "%s: ref", r->name);
		tap_is_str(p.base, r->base, "%s: base", r->name);
		tap_is_str(p.tip, r->tip, "%s: tip", r->name);
		pullreq_clear(&p);
	}
	check_stat_lines();
	/* bounds: a URL past PULLREQ_MAX_URL and a shortlog that adds up */
	g_string_append(big, "  git://example.org/");
	for (k = 0; k < PULLREQ_MAX_URL; k++)
		g_string_append_c(big, 'a');
	g_string_append(big, " main\n");
	tap_ok(!pullreq_parse(big->str, &p), "a URL too long is refused");
	g_string_assign(big, "  git://example.org/r.git main\n");
	for (k = 0; k < 10; k++)
		g_string_append(big, "X (999999999):\n");
	tap_ok(pullreq_parse(big->str, &p) && p.commits == 10000000,
	       "a huge shortlog count saturates, never wraps");
	pullreq_clear(&p);
	g_string_free(big, TRUE);
	return tap_done();
}
