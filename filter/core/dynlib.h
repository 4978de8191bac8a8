/*
 * dynlib.h - the optional libraries (libcurl, libnotmuch, libopendkim,
 * libsodium, GPGME), and GMime, loaded with dlopen when a run first needs
 * one, instead of being linked: linking them maps and relocates dozens of
 * libraries before main() in every run, also in the ones that never
 * fetch, check a signature or read a MIME tree. (SQLite, loaded so
 * before, is linked in statically: core/sqlitelib.h.)
 *
 * One style for all six. A library's module (source/curllib.h, ...) has
 * one list of the functions lore-am calls, by their own names, and makes
 * of it a struct of pointers of their own types, the table that fills
 * them, and a macro for each name that calls through its pointer:
 *
 *     #define CURLLIB_FUNCTIONS(X, lib) X(lib, curl_easy_init) ...
 *     struct curllib {
 *             struct dynlib dl;
 *             CURLLIB_FUNCTIONS(DYNLIB_POINTER, _)
 *     };
 *     extern struct curllib curllib;
 *     #define curl_easy_init DYNLIB_CALL(curllib, curl_easy_init)
 *
 *     (curllib.c)
 *     static const struct dynlib_sym syms[] = {
 *             CURLLIB_FUNCTIONS(DYNLIB_SYM, curllib)};
 *     struct curllib curllib = {.dl = DYNLIB_INIT("libcurl.so.4", syms)};
 *
 * so that its callers write the library's API as its documentation has
 * it, type-checked against its header. The one call to load is
 * dynlib_load(), before the first call into the library; the one report
 * of a library that is not there is its error, "cannot load SONAME:
 * REASON", which each caller says in its own words (what the missing
 * library means for the run is the caller's: see lore-am(1)).
 *
 * No function of lore-am is named after a library's, and the binary
 * exports no symbol for a loaded library to bind to.
 *
 * Ownership: a struct dynlib is static data of its module; a library
 * once loaded stays loaded until the process exits.
 */
#ifndef LORE_DYNLIB_H
#define LORE_DYNLIB_H

#include <glib.h>

#define DYNLIB_ERROR (dynlib_error_quark())
GQuark dynlib_error_quark(void);

/* DYNLIB_ERROR's one code: the library cannot be loaded, lacks one of the
 * functions of its table, or (said by its module) cannot start. */
enum { DYNLIB_ERROR_MISSING };

/* A function to look up, and the pointer its address goes to. */
struct dynlib_sym {
	const char *name;
	gpointer *slot;
};

struct dynlib {
	const char *soname;
	const struct dynlib_sym *syms;
	guint n;
	gboolean own_first; /* its own symbols bound first: see below */
	gsize state; /* 0 not tried, then DYNLIB_LOADED or DYNLIB_FAILED */
	char *why;   /* "cannot load SONAME: REASON" when failed */
};

/* A member of a library's struct: a pointer of the function's own type,
 * named after it with a "p_" in front (so that the name's redirecting
 * macro does not reach it). */
#define DYNLIB_POINTER(lib, f) __typeof__(f) *p_##f;
/* A line of the table filling the struct @lib's pointers (@f is not
 * expanded: its redirecting macro may be defined already). */
#define DYNLIB_SYM(lib, f) {#f, (gpointer *)&(lib).p_##f},
/* The call through @lib's pointer to @f. */
#define DYNLIB_CALL(lib, f) (*(lib).p_##f)
/* struct dynlib for the library @name (its soname), its table the array
 * @table. */
#define DYNLIB_INIT(name, table)                                               \
	{                                                                      \
		.soname = (name), .syms = (table), .n = G_N_ELEMENTS(table)    \
	}
/*
 * The same, for a library whose references to its own functions are
 * bound to them first (dlopen's RTLD_DEEPBIND, where there is one), not
 * after a search of the program and every library it links. For one
 * built without -Bsymbolic, whose relocations at load mostly name its
 * own functions, the search through the libraries lore-am links is most
 * of loading it (libsqlite3, loaded so before it was linked in: 2.5 M
 * instructions, 0.9 M bound its own first; bench/RESULTS.md). The price: a
 * function it uses that LD_PRELOAD or the program replaces (malloc, fsync) is
 * its own dependencies' (libc's), not the replacement; no library
 * lore-am loads relies on such a replacement. Built with a sanitizer,
 * which refuses RTLD_DEEPBIND, the library is bound as the others.
 */
#define DYNLIB_INIT_OWN_FIRST(name, table)                                     \
	{                                                                      \
		.soname = (name), .syms = (table), .n = G_N_ELEMENTS(table),   \
		.own_first = TRUE                                              \
	}

/*
 * Load @l and fill every pointer of its table, the first time it is
 * asked (thread-safe); later calls give the first answer. On failure
 * nothing stays loaded, every pointer is NULL, and @err says "cannot
 * load SONAME: REASON" (DYNLIB_ERROR_MISSING), each time it is asked.
 */
gboolean dynlib_load(struct dynlib *l, GError **err);

#endif
