/*
 * curllib.c - libcurl's table for core/dynlib.c: its soname and the
 * functions curllib.h lists.
 */
#include "source/curllib.h"

struct curllib curllib;

static const struct dynlib_sym syms[] = {
    CURLLIB_FUNCTIONS(DYNLIB_SYM, curllib)};

/* libcurl's soname has been libcurl.so.4 since 2006 */
struct curllib curllib = {.dl = DYNLIB_INIT("libcurl.so.4", syms)};
