/*
 * fuzz.h - what the libFuzzer harnesses share: one-time GMime set-up, the
 * entry points libFuzzer (or standalone.c) calls, and fuzz_assert(), which
 * aborts so that a broken invariant is a crash the fuzzer keeps.
 *
 * Each harness is one fuzz-NAME.c defining LLVMFuzzerTestOneInput(); it
 * owns everything it allocates and frees it before returning, so the
 * fuzzer's leak check holds.
 */
#ifndef LORE_FUZZ_H
#define LORE_FUZZ_H

#include <glib.h>
#include <gmime/gmime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_assert(cond)                                                  \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: invariant broken: %s\n",   \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

static inline void
fuzz_init(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	g_mime_init();
	lore_quiet = 1;
}

/* The input as a C string, cut at its first NUL as C callers see it. */
static inline char *
fuzz_cstr(const uint8_t *data, size_t size)
{
	return g_strndup((const char *)data, size);
}

/* Text for a terminal: valid UTF-8 and no control characters at all. */
static inline void
fuzz_check_term_safe(const char *s)
{
	const char *p;

	fuzz_assert(g_utf8_validate(s, -1, NULL));
	for (p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		fuzz_assert(c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0));
		fuzz_assert(g_unichar_type(c) != G_UNICODE_FORMAT);
	}
}

#endif
