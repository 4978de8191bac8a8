/*
 * curllib.c - libcurl's table for core/dynlib.c: its soname and the
 * functions curllib.h lists; and libcurl's one start (curllib_start()).
 */
#include "source/curllib.h"

struct curllib curllib;

static const struct dynlib_sym syms[] = {
    CURLLIB_FUNCTIONS(DYNLIB_SYM, curllib)};

/* libcurl's soname has been libcurl.so.4 since 2006 */
struct curllib curllib = {.dl = DYNLIB_INIT("libcurl.so.4", syms)};

/* 0 not started, then 1 started or 2 failed (g_once) */
static gsize started;
static CURLcode start_rc;

gboolean
curllib_start(GError **err)
{
	if (!dynlib_load(&curllib.dl, err))
		return FALSE;
	if (g_once_init_enter(&started)) {
		start_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
		g_once_init_leave(&started, start_rc == CURLE_OK ? 1 : 2);
	}
	if (started == 1)
		return TRUE;
	g_set_error(err, DYNLIB_ERROR, DYNLIB_ERROR_MISSING,
		    "libcurl failed to start: %s",
		    curl_easy_strerror(start_rc));
	return FALSE;
}
