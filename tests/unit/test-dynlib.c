/* core/dynlib.c with real libraries: zlib's (which the tests link too, to
 * compare), one that does not exist, one without a function asked for;
 * the answer given once, to every thread. */
#include "core/dynlib.h"
#include "tap.h"

#include <zlib.h>

#define ZLIB_FUNCTIONS(X, lib) X(lib, zlibVersion) X(lib, crc32)

static struct zlib {
	struct dynlib dl;
	ZLIB_FUNCTIONS(DYNLIB_POINTER, _)
} zl;
static const struct dynlib_sym zsyms[] = {ZLIB_FUNCTIONS(DYNLIB_SYM, zl)};
static struct zlib zl = {.dl = DYNLIB_INIT("libz.so.1", zsyms)};

/* the same table for a library that is not there */
static struct zlib none;
static const struct dynlib_sym nsyms[] = {ZLIB_FUNCTIONS(DYNLIB_SYM, none)};
static struct zlib none = {.dl = DYNLIB_INIT("liblore-am-none.so.0", nsyms)};

/* zlib, asked for a function it does not have as well */
static struct {
	struct dynlib dl;
	gpointer zlibVersion, missing;
} part;
static const struct dynlib_sym psyms[] = {
    {"zlibVersion", &part.zlibVersion},
    {"lore_am_no_such_function", &part.missing},
};

/* zlib again, loaded by several threads at once */
static struct zlib race;
static const struct dynlib_sym rsyms[] = {ZLIB_FUNCTIONS(DYNLIB_SYM, race)};
static struct zlib race = {.dl = DYNLIB_INIT("libz.so.1", rsyms)};

static gpointer
race_load(gpointer unused)
{
	return GINT_TO_POINTER(dynlib_load(&race.dl, NULL) && race.p_crc32 &&
			       race.p_zlibVersion);
}

int
main(void)
{
	GError *err = NULL;
	GThread *th[8];
	char *first;
	guint i, all = 0;

	tap_ok(dynlib_load(&zl.dl, &err) && !err, "libz.so.1 loads");
	tap_is_str(DYNLIB_CALL(zl, zlibVersion)(), zlibVersion(),
		   "its zlibVersion() is zlib's");
	tap_is_int(DYNLIB_CALL(zl, crc32)(0, (const Bytef *)"lore", 4),
		   crc32(0, (const Bytef *)"lore", 4), "and crc32() too");
	tap_ok(dynlib_load(&zl.dl, NULL), "asked again: yes");

	tap_ok(!dynlib_load(&none.dl, &err), "a library not there: no");
	tap_ok(err && g_error_matches(err, DYNLIB_ERROR, DYNLIB_ERROR_MISSING),
	       "DYNLIB_ERROR_MISSING");
	tap_ok(err && g_str_has_prefix(err->message,
				       "cannot load liblore-am-none.so.0: "),
	       "\"cannot load SONAME: REASON\" (%s)", err ? err->message : "");
	first = g_strdup(err ? err->message : "");
	g_clear_error(&err);
	tap_ok(!dynlib_load(&none.dl, &err) && err &&
		   !strcmp(err->message, first),
	       "asked again: the same answer, said again");
	tap_ok(!none.p_zlibVersion && !none.p_crc32, "no pointer filled");
	g_clear_error(&err);
	g_free(first);

	part.dl = (struct dynlib)DYNLIB_INIT("libz.so.1", psyms);
	tap_ok(!dynlib_load(&part.dl, &err), "a function missing: no");
	tap_ok(err &&
		   g_str_has_prefix(err->message, "cannot load libz.so.1: ") &&
		   strstr(err->message, "lore_am_no_such_function"),
	       "the error names the function (%s)", err ? err->message : "");
	tap_ok(!part.zlibVersion && !part.missing,
	       "the pointers already found are cleared");
	g_clear_error(&err);

	for (i = 0; i < G_N_ELEMENTS(th); i++)
		th[i] = g_thread_new("load", race_load, NULL);
	for (i = 0; i < G_N_ELEMENTS(th); i++)
		all += GPOINTER_TO_INT(g_thread_join(th[i]));
	tap_is_int(all, G_N_ELEMENTS(th), "eight threads at once: all loaded");
	return tap_done();
}
