/*
 * thread_prune() called again for the same target does nothing unless
 * messages came in since (the sources prune before checking a series,
 * main.c after gathering): a message added in between is still judged,
 * and another target or --no-parent prunes afresh.
 */
#include "tap.h"
#include "thread.h"

#include <gmime/gmime.h>

static void
add(struct thread *t, const char *id, const char *parent)
{
	g_autofree char *raw = g_strdup_printf(
	    "From: A <a@example.org>\nSubject: s\nMessage-ID: <%s>\n"
	    "%s%s%s\nbody\n",
	    id, parent ? "In-Reply-To: <" : "", parent ? parent : "",
	    parent ? ">\n" : "");

	thread_add_raw(t, raw, strlen(raw), "test");
}

int
main(void)
{
	struct thread *t = thread_new();

	g_mime_init();
	add(t, "root@x", NULL);
	add(t, "a@x", "root@x");
	add(t, "b@x", "a@x");
	add(t, "other@x", NULL);
	tap_is_int(thread_prune(t, "b@x", FALSE), 1, "first prune drops 1");
	tap_is_int(t->msgs->len, 3, "3 kept");
	tap_is_int(thread_prune(t, "b@x", FALSE), 0, "same prune again: none");
	add(t, "c@x", "b@x");
	add(t, "stray@x", NULL);
	tap_is_int(thread_prune(t, "b@x", FALSE), 1,
		   "after two more messages: the stray one dropped");
	tap_ok(thread_get(t, "c@x") && !thread_get(t, "stray@x"),
	       "the reply kept, the stray message gone");
	tap_is_int(thread_prune(t, "b@x", TRUE), 2,
		   "--no-parent prunes afresh: root and a dropped");
	tap_is_int(t->msgs->len, 2, "b and c kept");
	thread_free(t);
	g_mime_shutdown();
	return tap_done();
}
