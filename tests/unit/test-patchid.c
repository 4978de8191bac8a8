/* patch-id: our value equals `git patch-id --stable` on the same text. */
#include "mail/patchid.h"
#include "tap.h"

#include <string.h>
#include <unistd.h>

static const char *const diffs[] = {
    "Subject: one file\n---\n a.c | 1 +\n\ndiff --git a/a.c b/a.c\n"
    "index 111..222 100644\n--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,3 @@\n "
    "line1\n+added\n line2\n",
    /* two files, with white space that must not matter */
    "diff --git a/a.c b/a.c\nindex 1..2 100644\n--- a/a.c\n+++ b/a.c\n"
    "@@ -1 +1 @@\n-old  line\n+new\tline\n"
    "diff --git a/b.c b/b.c\nnew file mode 100644\nindex 0000000..3 \n--- "
    "/dev/null\n+++ b/b.c\n"
    "@@ -0,0 +1,2 @@\n+x\n+y\n-- \n2.40.0\n",
    /* no newline at end of file */
    "diff --git a/c b/c\nindex 1..2 100644\n--- a/c\n+++ b/c\n@@ -1 +1 "
    "@@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
};

static char *
git_patch_id(const char *text)
{
	const char *argv[] = {"git", "patch-id", "--stable", NULL};
	char *out = NULL;
	GPid pid;
	gint in, o;
	GIOChannel *ch;
	gsize n;

	if (!g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
				      G_SPAWN_SEARCH_PATH |
					  G_SPAWN_DO_NOT_REAP_CHILD,
				      NULL, NULL, &pid, &in, &o, NULL, NULL))
		return NULL;
	if (write(in, text, strlen(text)) < 0)
		return NULL;
	close(in);
	ch = g_io_channel_unix_new(o);
	g_io_channel_read_to_end(ch, &out, &n, NULL);
	g_io_channel_unref(ch);
	close(o);
	g_spawn_close_pid(pid);
	if (out && strlen(out) >= 40)
		out[40] = '\0';
	return out;
}

/* Two patches have the same files exactly when their patch-ids are
 * equal; the patch-id from the files kept is the same value. */
static void
files_cases(const char *swapped)
{
	struct patchid_files *f[G_N_ELEMENTS(diffs)], *s, *ws;
	/* diffs[1] with other blanks, index lines and hunk positions */
	const char *moved =
	    "a note\n---\ndiff --git a/a.c b/a.c\nindex 9..8 100644\n"
	    "--- a/a.c\n+++ b/a.c\n@@ -10 +12 @@\n-old line\n+new   line\n"
	    "diff --git a/b.c b/b.c\nnew file mode 100644\nindex 0000000..7\n"
	    "--- /dev/null\n+++ b/b.c\n@@ -0,0 +1,2 @@\n+x\n+ y\n";
	unsigned i, j;

	for (i = 0; i < G_N_ELEMENTS(diffs); i++) {
		char *a = patchid_stable(diffs[i]), *b;

		f[i] = patchid_files_new(diffs[i]);
		b = f[i] ? patchid_files_stable(f[i]) : NULL;
		tap_is_str(b, a, "diff %u: the patch-id of its files", i);
		g_free(a);
		g_free(b);
	}
	for (i = 0; i < G_N_ELEMENTS(diffs); i++)
		for (j = 0; j < G_N_ELEMENTS(diffs); j++)
			tap_ok(patchid_files_equal(f[i], f[j]) == (i == j),
			       "diffs %u and %u: %s files", i, j,
			       i == j ? "the same" : "other");
	s = patchid_files_new(swapped);
	ws = patchid_files_new(moved);
	tap_ok(s && patchid_files_equal(f[1], s) &&
		   patchid_files_hash(f[1]) == patchid_files_hash(s),
	       "the same files in the other order");
	tap_ok(ws && patchid_files_equal(f[1], ws) &&
		   patchid_files_hash(f[1]) == patchid_files_hash(ws),
	       "blanks, index lines and hunk positions do not count");
	tap_ok(patchid_files_new("no diff here\n") == NULL,
	       "no diff, no files");
	for (i = 0; i < G_N_ELEMENTS(diffs); i++)
		patchid_files_free(f[i]);
	patchid_files_free(s);
	patchid_files_free(ws);
}

int
main(void)
{
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(diffs); i++) {
		char *ours = patchid_stable(diffs[i]);
		char *theirs = git_patch_id(diffs[i]);

		tap_ok(ours != NULL, "diff %u has a patch-id", i);
		tap_is_str(ours, theirs,
			   "diff %u: same value as git patch-id --stable", i);
		g_free(ours);
		g_free(theirs);
	}
	tap_ok(patchid_stable("no diff here\n") == NULL,
	       "no diff, no patch-id");
	{
		char *a = patchid_stable(diffs[1]);
		/* the same two files in the other order */
		const char *swapped =
		    "diff --git a/b.c b/b.c\nnew file mode 100644\nindex "
		    "0000000..3 \n--- /dev/null\n+++ b/b.c\n"
		    "@@ -0,0 +1,2 @@\n+x\n+y\n"
		    "diff --git a/a.c b/a.c\nindex 1..2 100644\n--- a/a.c\n+++ "
		    "b/a.c\n"
		    "@@ -1 +1 @@\n-old  line\n+new\tline\n";
		char *b = patchid_stable(swapped);

		tap_is_str(a, b, "--stable: file order does not matter");
		g_free(a);
		g_free(b);
		files_cases(swapped);
	}
	return tap_done();
}
