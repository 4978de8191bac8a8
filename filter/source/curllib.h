/*
 * curllib.h - libcurl is loaded on first use (curllib.c), not linked: the
 * libcurl functions keep their <curl/curl.h> names and types. When the
 * library cannot be loaded, curl_easy_init() returns NULL and
 * curllib_error() says why.
 */
#ifndef LORE_CURLLIB_H
#define LORE_CURLLIB_H

/*
 * Why libcurl could not be loaded ("cannot load libcurl.so.4: ..."), or
 * NULL when it was loaded or not tried yet. The string is curllib.c's.
 */
const char *curllib_error(void);

#endif
