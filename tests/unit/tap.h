/*
 * tap.h - a minimal TAP producer for the C unit tests: table-driven checks
 * print "ok N - ..." lines; tap_done() prints the plan and returns the
 * exit status. Header-only: each test program includes it once.
 */
#ifndef LORE_TAP_H
#define LORE_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define tap_ok(cond, ...)                                                  \
	do {                                                               \
		int ok_ = !!(cond);                                        \
		tap_n++;                                                   \
		if (!ok_)                                                  \
			tap_failed++;                                      \
		printf("%sok %d - ", ok_ ? "" : "not ", tap_n);            \
		printf(__VA_ARGS__);                                       \
		putchar('\n');                                             \
	} while (0)

#define tap_is_str(got, want, ...)                                         \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		int same_ = (g_ && w_) ? !strcmp(g_, w_) : g_ == w_;       \
		tap_ok(same_, __VA_ARGS__);                                \
		if (!same_)                                                \
			printf("#   got: '%s'\n#   expected: '%s'\n",      \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");    \
	} while (0)

#define tap_is_int(got, want, ...)                                         \
	do {                                                               \
		long g_ = (got), w_ = (want);                              \
		tap_ok(g_ == w_, __VA_ARGS__);                             \
		if (g_ != w_)                                              \
			printf("#   got: %ld\n#   expected: %ld\n", g_, w_); \
	} while (0)

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
