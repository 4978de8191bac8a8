/*
 * say.c - lore_say(): printf, then lore_term_safe() on the whole line,
 * so that no argument (a subject, a trailer, a Message-ID) can move the
 * cursor or hide text, then lore_info(); lore_dbg() the same for -d.
 */
#include "core/say.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>

int lore_debug;

void
lore_dbg(const char *fmt, ...)
{
	g_autofree char *text = NULL, *safe = NULL;
	va_list ap;

	if (!lore_debug)
		return;
	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	safe = lore_term_safe(text, -1);
	fprintf(stderr, "lore-am: debug: %s\n", safe);
}

void
lore_say(const char *fmt, ...)
{
	g_autofree char *text = NULL, *safe = NULL;
	va_list ap;

	if (lore_quiet)
		return;
	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	safe = lore_term_safe(text, -1);
	lore_info("%s", safe);
}
