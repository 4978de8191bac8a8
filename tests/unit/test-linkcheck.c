/*
 * Symbolic links that leave the repository (linkcheck.c), table-driven:
 * the target judged from the link's folder, then the links of a whole
 * am-ready mbox in git's diff format.
 */
#include "git/linkcheck.h"
#include "tap.h"

#include <glib.h>
#include <string.h>

static const struct {
	const char *path, *target;
	gboolean escapes;
} links[] = {
    {"l", "/etc/passwd", TRUE},
    {"l", "x", FALSE},
    {"l", "..", TRUE},
    {"l", "../x", TRUE},
    {"a/l", "../x", FALSE},
    {"a/l", "../../x", TRUE},
    {"a/b/l", "../../x", FALSE},
    {"a/b/l", "../../../x", TRUE},
    {"a/l", "b/../../x", FALSE},
    {"a/l", "b/../../../x", TRUE},
    {"a/l", "./.././x", FALSE},
    {"a/l", ".//..//..", TRUE},
    {"l", "x/../..", TRUE},
    {"l", "...", FALSE},
    {"l", "", FALSE},
};

#define HDR "From: A <a@b.c>\nSubject: [PATCH] %s\nMessage-ID: <%s@x>\n\n"

static const struct {
	const char *what, *diff;
	int hits;
	const char *path, *target;
} mboxes[] = {
    {"a new link up and out",
     "diff --git a/d/l b/d/l\nnew file mode 120000\nindex 0000000..1111111\n"
     "--- /dev/null\n+++ b/d/l\n@@ -0,0 +1 @@\n+../../out\n"
     "\\ No newline at end of file\n",
     1, "d/l", "../../out"},
    {"a new link inside",
     "diff --git a/d/l b/d/l\nnew file mode 120000\nindex 0000000..1111111\n"
     "--- /dev/null\n+++ b/d/l\n@@ -0,0 +1 @@\n+../in\n"
     "\\ No newline at end of file\n",
     0, NULL, NULL},
    {"a regular file with the same text",
     "diff --git a/l b/l\nnew file mode 100644\nindex 0000000..1111111\n"
     "--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n",
     0, NULL, NULL},
    {"a link's target changed",
     "diff --git a/l b/l\nindex 1111111..2222222 120000\n--- a/l\n+++ b/l\n"
     "@@ -1 +1 @@\n-in\n\\ No newline at end of file\n+/etc\n"
     "\\ No newline at end of file\n",
     1, "l", "/etc"},
    {"a file made a link",
     "diff --git a/l b/l\nold mode 100644\nnew mode 120000\n"
     "index 1111111..2222222\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-text\n"
     "+../x\n\\ No newline at end of file\n",
     1, "l", "../x"},
    {"a link deleted",
     "diff --git a/l b/l\ndeleted file mode 120000\nindex 1111111..0000000\n"
     "--- a/l\n+++ /dev/null\n@@ -1 +0,0 @@\n-/etc\n"
     "\\ No newline at end of file\n",
     0, NULL, NULL},
    {"a link then a file: only the link",
     "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1111111\n"
     "--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/x\n"
     "\\ No newline at end of file\n"
     "diff --git a/f b/f\nnew file mode 100644\nindex 0000000..1111111\n"
     "--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+/y\n-- \n2.39\n",
     1, "l", "/x"},
};

/* A link's mode that is not in the mail's bytes as they lie, only in its
 * text once decoded: each must still be found. */
static void
encoded_links(void)
{
	static const char *const diff =
	    "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1111111\n"
	    "--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc\n"
	    "\\ No newline at end of file\n";
	g_autofree char *b64 =
	    g_base64_encode((const guchar *)diff, strlen(diff));
	const struct {
		const char *what, *fields, *body;
	} cases[] = {
	    {"base64", "Content-Transfer-Encoding: base64\n", b64},
	    {"quoted-printable, the mode cut by a soft break",
	     "Content-Transfer-Encoding: quoted-printable\n",
	     "diff --git a/l b/l\nnew file mode 1200=\n00\n"
	     "index 0000000..1111111\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 "
	     "@@\n+/etc\n"},
	    {"format=flowed; delsp=yes, the mode on two lines",
	     "Content-Type: text/plain; charset=utf-8; format=flowed; "
	     "delsp=yes\n",
	     "diff --git a/l b/l\nnew file mode 1200 \n00\n"
	     "index 0000000..1111111\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 "
	     "@@\n+/etc\n"},
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		GString *mbox =
		    g_string_new("From x@y Mon Sep 17 00:00:00 2001\n");
		GPtrArray *hits;

		g_string_append_printf(mbox,
				       "From: A <a@b.c>\nSubject: [PATCH] x\n"
				       "Message-ID: <e%u@x>\nMIME-Version: "
				       "1.0\n%s\n%s\n",
				       i, cases[i].fields, cases[i].body);
		hits = linkcheck_scan(mbox);
		tap_is_int(hits->len, 1, "%s: found", cases[i].what);
		g_ptr_array_unref(hits);
		g_string_free(mbox, TRUE);
	}
}

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(links); i++)
		tap_ok(linkcheck_escapes(links[i].path, links[i].target) ==
			   links[i].escapes,
		       "'%s' -> '%s' %s", links[i].path, links[i].target,
		       links[i].escapes ? "leaves the tree" : "stays inside");
	for (i = 0; i < G_N_ELEMENTS(mboxes); i++) {
		GString *mbox =
		    g_string_new("From x@y Mon Sep 17 00:00:00 2001\n");
		GPtrArray *hits;

		g_string_append_printf(mbox, HDR, mboxes[i].what, "m");
		g_string_append(mbox, "text\n---\n");
		g_string_append(mbox, mboxes[i].diff);
		hits = linkcheck_scan(mbox);
		tap_is_int(hits->len, mboxes[i].hits, "%s: %d", mboxes[i].what,
			   mboxes[i].hits);
		if (mboxes[i].hits && hits->len) {
			const struct linkcheck_hit *h = hits->pdata[0];

			tap_is_str(h->path, mboxes[i].path, "%s: the path",
				   mboxes[i].what);
			tap_is_str(h->target, mboxes[i].target,
				   "%s: the target", mboxes[i].what);
		}
		g_ptr_array_unref(hits);
		g_string_free(mbox, TRUE);
	}
	encoded_links();
	return tap_done();
}
