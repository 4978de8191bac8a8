/*
 * url.h - the URLs lore-am asks a public-inbox archive for, built from a
 * user's mask ("https://lore.kernel.org/all/%s") and a Message-ID. The id
 * is percent-escaped so that, whatever a hostile mail puts in it, it stays
 * one path segment: it can never change the host, the path around it, the
 * query or the fragment of the request.
 *
 * Pure functions: every char * returned is newly allocated (g_free).
 */
#ifndef LORE_URL_H
#define LORE_URL_H

#include <glib.h>

/*
 * @id as one path segment: every byte but A-Z a-z 0-9 - . _ ~ becomes %XX
 * (so '/' is %2F, '%' is %25, '+' is %2B, '@' is %40, as public-inbox
 * decodes them); an id made only of dots has them escaped too, so that it
 * is never a "." or ".." segment.
 */
char *url_escape_id(const char *id);

/*
 * Check a user's mask and put it in canonical form: http:// or https://
 * only, a host, no query or fragment, and "%s" in the path. A mask without
 * "%s" is a base URL: "/%s" is added ("https://host/list" ->
 * "https://host/list/%s"). NULL and @err (LORE_EUSAGE) when unusable.
 */
char *url_mask_check(const char *mask, GError **err);

/*
 * The mask filled with the escaped id, then "/" and @leaf ("t.mbox.gz").
 * NULL for an empty id or one made only of dots: URL normalisation (RFC
 * 3986 6.2.2) turns even "%2E%2E" into "..", so no URL names it safely.
 */
char *url_for_id(const char *mask, const char *id, const char *leaf);

/* The archive itself: the mask up to its "%s" ("https://host/all/"). */
char *url_mask_base(const char *mask);

/* "scheme://host[:port]/" of @url, or NULL when it is not http(s). */
char *url_root(const char *url);

/* TRUE when @url is an absolute http:// or https:// URL with a host. */
gboolean url_is_http(const char *url);

/*
 * A folder URL (a redirect's Location, "https://host/list/ID/") with
 * @leaf appended, a '/' added between when missing; query and fragment
 * dropped. NULL when @dir is not http(s).
 */
char *url_join(const char *dir, const char *leaf);

/* The archive's search: "<base>?x=m&q=<query, escaped>". */
char *url_search(const char *mask, const char *query);

/* The longest host name a URL may give: DNS's 255 bytes. */
#define URL_HOST_MAX 255

/*
 * The archive a message's URL names, read as b4 reads it: for
 * "SCHEME://HOST[:PORT]/LIST/ID/..." (whatever follows ID: "/T/#u",
 * "/t.mbox.gz") whose ID segment is @id, the mask
 * "SCHEME://HOST[:PORT]/LIST/%s". NULL and no error for any other URL
 * ("https://patch.msgid.link/ID", a longer or shorter path, an odd list
 * name): it names the message, not an archive. NULL and @err
 * (LORE_EUSAGE) for one that is not safe to ask: a user or password in
 * it (the message never shows them), a host that is not a host name or
 * longer than URL_HOST_MAX bytes, a port that is not one.
 */
char *url_archive_mask(const char *url, const char *id, GError **err);

#endif
