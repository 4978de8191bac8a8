/*
 * patchid.h - the value `git patch-id --stable` prints for a diff, computed
 * here (no subprocess): a patch re-sent unchanged in a later revision keeps
 * its value, so review trailers given to it can carry over.
 */
#ifndef LORE_PATCHID_H
#define LORE_PATCHID_H

#include <glib.h>

/* 40 hex digits (g_free), or NULL when @text holds no diff. */
char *patchid_stable(const char *text);

#endif
