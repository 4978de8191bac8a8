/* The pre-images a revision starts from, read from its patches' diff
 * headers (git/preimage.h), table-driven: each case lists the files read
 * as "MODE PRE PATH" lines, or the words of the refusal. */
#include "git/preimage.h"
#include "tap.h"

#include <gmime/gmime.h>
#include <string.h>

#define MAIL(n)                                                                \
	"From x@y Thu Jan  1 00:00:00 1970\nFrom: Pat <pat@example.com>\n"     \
	"Subject: [PATCH] " n "\nMessage-Id: <" n "@example.com>\n\n---\n"
#define HUNK "@@ -1 +1 @@\n-one\n+ONE\n"
#define X(index)                                                               \
	"diff --git a/x.c b/x.c\n" index "\n--- a/x.c\n+++ b/x.c\n" HUNK

static const struct {
	const char *what, *mbox;
	const char *want; /* "MODE PRE PATH" a line; NULL: refused */
	const char *refused;
} cases[] = {
    {"a change", MAIL("a") X("index 1234567..89abcde 100644"),
     "100644 1234567 x.c\n", NULL},
    {"an executable's full ids",
     MAIL("b") X("index 1234567890123456789012345678901234567890.."
		 "1234567890123456789012345678901234567891 100755"),
     "100755 1234567890123456789012345678901234567890 x.c\n", NULL},
    {"a second change of a file starts from the first's",
     MAIL("c") X("index 1234567..89abcde 100644") MAIL("c2")
	 X("index 89abcde..0000001 100644"),
     "100644 1234567 x.c\n", NULL},
    {"a new file, then changed: nothing needed",
     MAIL("d") "diff --git a/n.c b/n.c\nnew file mode 100644\n"
	       "index 0000000..1234567\n--- /dev/null\n+++ b/n.c\n"
	       "@@ -0,0 +1 @@\n+one\n" MAIL(
		   "d2") "diff --git a/n.c b/n.c\nindex 1234567..89abcde "
			 "100644\n"
			 "--- a/n.c\n+++ b/n.c\n" HUNK,
     "", NULL},
    {"a rename with a change, names with a blank",
     MAIL("e") "diff --git a/old name.c b/new name.c\nsimilarity index 90%\n"
	       "rename from old name.c\nrename to new name.c\n"
	       "index 1234567..89abcde 100644\n--- a/old name.c\t\n"
	       "+++ b/new name.c\t\n" HUNK,
     "100644 1234567 old name.c\n", NULL},
    {"a quoted name, the old mode line's mode",
     MAIL("f") "diff --git \"a/t\\303\\251st.c\" \"b/t\\303\\251st.c\"\n"
	       "old mode 100755\nnew mode 100644\nindex 1234567..89abcde\n"
	       "--- \"a/t\\303\\251st.c\"\n+++ \"b/t\\303\\251st.c\"\n" HUNK,
     "100755 1234567 t\xc3\xa9st.c\n", NULL},
    {"a deleted file, a pure rename, a mode change, a submodule",
     MAIL("g") "diff --git a/gone.c b/gone.c\ndeleted file mode 100644\n"
	       "index 1234567..0000000\n--- a/gone.c\n+++ /dev/null\n"
	       "@@ -1 +0,0 @@\n-one\n"
	       "diff --git a/a.c b/b.c\nsimilarity index 100%\n"
	       "rename from a.c\nrename to b.c\n"
	       "diff --git a/m.c b/m.c\nold mode 100644\nnew mode 100755\n"
	       "diff --git a/sub b/sub\nindex 1234567..89abcde 160000\n"
	       "--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit 1\n"
	       "+Subproject commit 2\n",
     "100644 1234567 gone.c\n", NULL},
    {"a binary file",
     MAIL("h") "diff --git a/b.bin b/b.bin\n"
	       "index 1234567..89abcde 100644\n"
	       "GIT binary patch\nliteral 1\nIcmZo@00001\n\n",
     "100644 1234567 b.bin\n", NULL},
    {"CRLF ends",
     MAIL("i") "diff --git a/x.c b/x.c\r\n"
	       "index 1234567..89abcde 100644\r\n--- a/x.c\r\n"
	       "+++ b/x.c\r\n@@ -1 +1 @@\r\n-one\r\n+ONE\r\n",
     "100644 1234567 x.c\n", NULL},
    {"no index lines",
     MAIL("j") "diff --git a/x.c b/x.c\n--- a/x.c\n"
	       "+++ b/x.c\n" HUNK,
     "", NULL},
    {"not hex", MAIL("k") X("index zz34567..89abcde 100644"), NULL,
     "the index line of 'x.c' is not git's ('index zz34567..89abcde "
     "100644')"},
    {"too short", MAIL("l") X("index 123456..89abcde 100644"), NULL,
     "the index line of 'x.c' is not git's ('index 123456..89abcde "
     "100644')"},
    {"too long",
     MAIL("m") X("index 12345678901234567890123456789012345678901234567890"
		 "123456789012345..89abcde"),
     NULL,
     "the index line of 'x.c' is not git's ('index "
     "12345678901234567890123456789012345678901234567890123456789012345..89"
     "abcde')"},
    {"something after the mode", MAIL("n") X("index 1234567..89abcde 100644 x"),
     NULL,
     "the index line of 'x.c' is not git's ('index 1234567..89abcde 100644 "
     "x')"},
    {"a folder's mode", MAIL("o") X("index 1234567..89abcde 040000"), NULL,
     "the index line of 'x.c' gives mode 040000, not a file's"},
    {"two index lines",
     MAIL("p") "diff --git a/x.c b/x.c\nindex 1234567..89abcde 100644\n"
	       "index 7654321..89abcde 100644\n--- a/x.c\n+++ b/x.c\n" HUNK,
     NULL, "a file's diff header gives one of its lines twice"},
    {"a name up a folder",
     MAIL("q") "diff --git a/../x.c b/../x.c\nindex 1234567..89abcde 100644\n"
	       "--- a/../x.c\n+++ b/../x.c\n" HUNK,
     NULL, "a file name git would not take ('../x.c')"},
    {"a name in .git",
     MAIL("r") "diff --git a/.GIT/config b/.GIT/config\n"
	       "index 1234567..89abcde 100644\n--- a/.GIT/config\n"
	       "+++ b/.GIT/config\n" HUNK,
     NULL, "a file name git would not take ('.GIT/config')"},
};

static char *
listed(const struct preimage_set *set)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < set->files->len; i++) {
		const struct preimage *f = set->files->pdata[i];

		g_string_append_printf(s, "%s %s %s\n", f->mode, f->pre,
				       f->path);
	}
	return g_string_free(s, FALSE);
}

int
main(void)
{
	unsigned i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		GString *mbox = g_string_new(cases[i].mbox);
		struct preimage_set set;
		gboolean ok = preimage_read(mbox, &set);
		g_autofree char *got = listed(&set);

		tap_ok(ok == (cases[i].want != NULL), "%s: %s", cases[i].what,
		       cases[i].want ? "read" : "refused");
		if (cases[i].want)
			tap_is_str(got, cases[i].want, "%s: the files",
				   cases[i].what);
		else
			tap_is_str(set.refused, cases[i].refused, "%s: said so",
				   cases[i].what);
		preimage_clear(&set);
		g_string_free(mbox, TRUE);
	}
	{
		/* the whole old text of a file its hunk holds */
		GString *mbox = g_string_new(
		    MAIL("s") "diff --git a/s.c b/s.c\n"
			      "index 1234567..89abcde 100644\n--- a/s.c\n"
			      "+++ b/s.c\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n"
			      " three\n");
		struct preimage_set set;

		preimage_read(mbox, &set);
		tap_is_str(set.files->len
			       ? ((struct preimage *)set.files->pdata[0])->old
			       : NULL,
			   "one\ntwo\nthree\n",
			   "a hunk from line 1: the old text");
		preimage_clear(&set);
		g_string_free(mbox, TRUE);
	}
	g_mime_shutdown();
	return tap_done();
}
