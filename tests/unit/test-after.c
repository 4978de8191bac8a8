/*
 * The pure parts of the stage after the writer, table-driven: b4's merge
 * message text of a cover letter (mergemsg.c), patchwork's hash of a diff
 * (track.c, against hashes b4 0.12 computed), the old side of a file from
 * its hunks (prep3way.c), --range-diff's OLD..NEW and --check's grades.
 */
#include "git/check.h"
#include "git/mergemsg.h"
#include "git/prep3way.h"
#include "git/rangediff.h"
#include "tap.h"
#include "git/track.h"

#include <glib.h>
#include <string.h>

static const struct {
	const char *what, *body, *want;
} covers[] = {
    {"blurb, shortlog and a base-commit trailer",
     "Two pieces.\n\nPat (2):\n  a: b\n  c: d\n\nbase-commit: abc\n-- \n2.39\n",
     "Two pieces.\n\nPat (2):\n  a: b\n  c: d\n\n"},
    {"everything below --- goes", "Text.\n---\nbelow\n", "Text.\n"},
    {"one paragraph of trailers only", "Acked-by: A <a@b.c>\n", ""},
    {"the first paragraph stays even when it looks like headers",
     "From: X <x@y.z>\n\nBody.\n", "From: X <x@y.z>\n\nBody.\n"},
    {"extended info after a trailer goes with it",
     "Text.\n\nSigned-off-by: A <a@b.c>\n[for the bits]\nnot a trailer\n",
     "Text.\n\nnot a trailer\n"},
    {"a diff without ---", "Fix.\n\ndiff --git a/x b/x\n", "Fix.\n"},
};

static const struct {
	const char *what, *diff, *want;
} hashes[] = {
    /* from b4.LoreMessage.get_patchwork_hash() of b4 0.12 */
    {"a new file",
     "diff --git a/part1.c b/part1.c\nnew file mode 100644\n"
     "index 0000000..1b8e1b4\n--- /dev/null\n+++ b/part1.c\n@@ -0,0 +1 @@\n"
     "+content 1 of part\n",
     "3cb2a20462ee1234f4f2fcca6672a0e6b6dfc3a2"},
    {"a hunk elsewhere, its heading and no newline at the end",
     "diff --git a/x.c b/x.c\nindex 1111111..2222222 100644\n--- a/x.c\n"
     "+++ b/x.c\n@@ -10,3 +10,4 @@ int f()\n a\n-b\n+B\n+C\n c\n"
     "\\ No newline at end of file\n",
     "0671f1d48e9421291b79b526af8d59810b667fd1"},
};

static const struct {
	const char *what, *diff, *want;
} olds[] = {
    {"one hunk from line 1", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", "a\nb\nc\n"},
    {"two hunks with no gap",
     "@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -3,1 +3,1 @@\n-c\n+C\n", "a\nb\nc\n"},
    {"a gap: not the whole file", "@@ -2,2 +2,2 @@\n-b\n+B\n c\n", NULL},
    {"no newline at the end",
     "@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+A\n", "a"},
    {"lines added after the last old line", "@@ -1,1 +1,3 @@\n a\n+b\n+c\n",
     "a\n"},
    {"not a hunk", "diff --git a/x b/x\n", NULL},
};

static const struct {
	const char *spec;
	gboolean ok;
	int a, b;
} specs[] = {
    {"", TRUE, 0, 0},	   {"1..2", TRUE, 1, 2}, {"v3..v1", TRUE, 3, 1},
    {"2..2", FALSE, 0, 0}, {"1..", TRUE, 1, 0},	 {"x..2", FALSE, 0, 0},
    {"1-2", FALSE, 0, 0},  {"..2", FALSE, 0, 0}, {"1..x", FALSE, 0, 0},
};

static const struct {
	const char *out;
	int st, grade;
} grades[] = {
    {"", 0, 0},
    {"-:3: WARNING: long line\n", 0, 1},
    {"-:3: CHECK: spacing\n", 0, 1},
    {"-:3: ERROR: trailing whitespace\n", 1, 2},
    {"", 1, 2},
    {"something said\n", 0, 1},
};

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(covers); i++) {
		char *got = mergemsg_cover_text(covers[i].body);

		tap_is_str(got, covers[i].want, "cover text: %s",
			   covers[i].what);
		g_free(got);
	}
	for (i = 0; i < G_N_ELEMENTS(hashes); i++) {
		char *got =
		    track_pwhash(hashes[i].diff, strlen(hashes[i].diff));

		tap_is_str(got, hashes[i].want, "pwhash: %s", hashes[i].what);
		g_free(got);
	}
	for (i = 0; i < G_N_ELEMENTS(olds); i++) {
		char *got =
		    prep3way_old_side(olds[i].diff, strlen(olds[i].diff));

		tap_is_str(got, olds[i].want, "old side: %s", olds[i].what);
		g_free(got);
	}
	for (i = 0; i < G_N_ELEMENTS(specs); i++) {
		int a = -1, b = -1;
		gboolean ok = rangediff_parse(specs[i].spec, &a, &b);

		tap_ok(ok == specs[i].ok &&
			   (!ok || (a == specs[i].a && b == specs[i].b)),
		       "--range-diff='%s'", specs[i].spec);
	}
	for (i = 0; i < G_N_ELEMENTS(grades); i++)
		tap_is_int(check_grade(grades[i].out, grades[i].st),
			   grades[i].grade, "check grade %u (exit %d)", i,
			   grades[i].st);
	return tap_done();
}
