/*
 * curllib.c - libcurl, loaded with GModule on its first use instead of being
 * linked. Linking it maps some 26 more libraries (TLS, HTTP/2, IDN, LDAP,
 * Kerberos, SSH, ...) into every run and relocates them before main():
 * starting lore-am cost 20.0 M instructions and 10.9 MB resident instead of
 * 4.7 M and 5.0 MB, also for the runs that never fetch anything, and the
 * mail filter starts once per incoming mail.
 *
 * The libcurl functions fetch.c calls are defined here under libcurl's own
 * names (the API is <curl/curl.h>), so fetch.c and curl's compile-time type
 * checks stay as they are: each loads the library once and calls the real
 * function. When libcurl cannot be loaded, curl_easy_init() returns NULL and
 * fetch.c reports curllib_error().
 */
#include "source/curllib.h"

#include "core/util.h"

#include <curl/curl.h>
#include <stdarg.h>

/* libcurl's soname has been libcurl.so.4 since 2006 */
#define CURLLIB_NAME "libcurl.so.4"

static struct {
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
} lib;

static const struct lore_sym syms[] = {
    {"curl_global_init", (gpointer *)&lib.global_init},
    {"curl_easy_init", (gpointer *)&lib.easy_init},
    {"curl_easy_setopt", (gpointer *)&lib.easy_setopt},
    {"curl_easy_perform", (gpointer *)&lib.easy_perform},
    {"curl_easy_getinfo", (gpointer *)&lib.easy_getinfo},
    {"curl_easy_cleanup", (gpointer *)&lib.easy_cleanup},
    {"curl_easy_strerror", (gpointer *)&lib.easy_strerror},
};

static struct lore_lib libcurl = {
    .soname = CURLLIB_NAME, .syms = syms, .n = G_N_ELEMENTS(syms)};

static char *failed; /* "cannot load ...": kept until the process ends */

const char *
curllib_error(void)
{
	return failed;
}

static gboolean
load(void)
{
	if (lore_lib_need(&libcurl))
		return TRUE;
	if (!failed)
		failed = g_strdup_printf("cannot load %s: %s", CURLLIB_NAME,
					 libcurl.failed);
	return FALSE;
}

/* The parenthesised names keep curl.h's function-like macros away. */

CURLcode(curl_global_init)(long flags)
{
	return load() ? lib.global_init(flags) : CURLE_FAILED_INIT;
}

CURL *(curl_easy_init)(void)
{
	return load() ? lib.easy_init() : NULL;
}

/*
 * The one argument after @option has the type its number says, as libcurl
 * reads it itself: long, object pointer, function pointer, curl_off_t or
 * blob pointer.
 */
CURLcode(curl_easy_setopt)(CURL *curl, CURLoption option, ...)
{
	va_list ap;
	CURLcode rc;

	if (!load())
		return CURLE_FAILED_INIT;
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = lib.easy_setopt(curl, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = lib.easy_setopt(curl, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = lib.easy_setopt(curl, option, va_arg(ap, void (*)(void)));
	else if (option < CURLOPTTYPE_BLOB)
		rc = lib.easy_setopt(curl, option, va_arg(ap, curl_off_t));
	else
		rc = lib.easy_setopt(curl, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

CURLcode(curl_easy_perform)(CURL *curl)
{
	return load() ? lib.easy_perform(curl) : CURLE_FAILED_INIT;
}

/* Every CURLINFO takes one pointer to where the answer goes. */
CURLcode(curl_easy_getinfo)(CURL *curl, CURLINFO info, ...)
{
	va_list ap;
	CURLcode rc;

	if (!load())
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	rc = lib.easy_getinfo(curl, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

void(curl_easy_cleanup)(CURL *curl)
{
	if (load())
		lib.easy_cleanup(curl);
}

const char *(curl_easy_strerror)(CURLcode code)
{
	return load() ? lib.easy_strerror(code) : "libcurl could not be loaded";
}
