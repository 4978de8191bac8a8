/*
 * nmlib.c - libnotmuch's table for core/dynlib.c: the soname of the major
 * version notmuch.h describes, and the functions nmlib.h lists.
 */
#ifndef LORE_NO_NOTMUCH

#include "source/nmlib.h"

struct nmlib nmlib;

static const struct dynlib_sym syms[] = {NMLIB_FUNCTIONS(DYNLIB_SYM, nmlib)};

struct nmlib nmlib = {
    .dl = DYNLIB_INIT("libnotmuch.so." G_STRINGIFY(LIBNOTMUCH_MAJOR_VERSION),
		      syms)};

#endif
