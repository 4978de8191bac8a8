/*
 * curllib.h - libcurl, loaded on first use (core/dynlib.h) instead of
 * linked: linking it maps some 26 more libraries (TLS, HTTP/2, IDN, LDAP,
 * Kerberos, SSH, ...) into every run and relocates them before main():
 * starting lore-am cost 20.0 M instructions and 10.9 MB resident instead
 * of 4.7 M and 5.0 MB, also for the runs that never fetch anything, and
 * the mail filter starts once per incoming mail.
 *
 * fetch.c includes this after <curl/curl.h> and calls libcurl by its own
 * names, each a call through curllib's pointers, once curllib_start()
 * has said yes. curl_easy_setopt() and
 * curl_easy_getinfo() lose curl's compile-time type checks (macros of the
 * same names): each argument must have the type its option's number says
 * (long, object pointer, function pointer or curl_off_t), as libcurl reads
 * it.
 */
#ifndef LORE_CURLLIB_H
#define LORE_CURLLIB_H

#include "core/dynlib.h"

#include <curl/curl.h>

/* Every libcurl function fetch.c calls. */
#define CURLLIB_FUNCTIONS(X, lib)                                              \
	X(lib, curl_global_init)                                               \
	X(lib, curl_easy_init)                                                 \
	X(lib, curl_easy_setopt)                                               \
	X(lib, curl_easy_perform)                                              \
	X(lib, curl_easy_getinfo)                                              \
	X(lib, curl_easy_cleanup)                                              \
	X(lib, curl_easy_strerror)

struct curllib {
	struct dynlib dl;
	CURLLIB_FUNCTIONS(DYNLIB_POINTER, _)
};

extern struct curllib curllib;

/*
 * libcurl loaded and started: curl_global_init() called once for the
 * process (thread-safe), here and nowhere else. FALSE with @err
 * (DYNLIB_ERROR_MISSING): "cannot load libcurl.so.4: REASON", or
 * "libcurl failed to start: REASON" when curl_global_init() failed, each
 * time it is asked.
 */
gboolean curllib_start(GError **err);

#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init DYNLIB_CALL(curllib, curl_global_init)
#define curl_easy_init DYNLIB_CALL(curllib, curl_easy_init)
#define curl_easy_setopt DYNLIB_CALL(curllib, curl_easy_setopt)
#define curl_easy_perform DYNLIB_CALL(curllib, curl_easy_perform)
#define curl_easy_getinfo DYNLIB_CALL(curllib, curl_easy_getinfo)
#define curl_easy_cleanup DYNLIB_CALL(curllib, curl_easy_cleanup)
#define curl_easy_strerror DYNLIB_CALL(curllib, curl_easy_strerror)

#endif
