/*
 * say.h - a summary line built from mail's text: formatted, then made
 * safe for a terminal as a whole (lore_term_safe()), then said with
 * lore_info() (nothing under -q). For the lines whose every part may
 * come from a hostile mail (the gate's, --explain's).
 *
 * Ownership: nothing is kept.
 */
#ifndef LORE_SAY_H
#define LORE_SAY_H

#include <glib.h>

void lore_say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/*
 * -d (b4's --debug), set once by main.c: lore_dbg() says what the run
 * does ("lore-am: debug: " and the line, made terminal-safe) on stderr,
 * even under -q; without -d it says nothing.
 */
extern int lore_debug;
void lore_dbg(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

#endif
