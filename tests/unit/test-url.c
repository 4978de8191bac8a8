/*
 * URL building (table-driven): Message-IDs from hostile mail must stay one
 * path segment; masks are checked; redirect and search URLs are built
 * right.
 */
#include "source/url.h"
#include "tap.h"

#include <string.h>

static const struct {
	const char *id, *esc;
} ids[] = {
    {"20240101.1234-1-a@example.com", "20240101.1234-1-a%40example.com"},
    {"a/b@x", "a%2Fb%40x"},
    {"../../etc/passwd@x", "..%2F..%2Fetc%2Fpasswd%40x"},
    {"..@x", "..%40x"},
    {"q?x=1@h", "q%3Fx%3D1%40h"},
    {"frag#top@h", "frag%23top%40h"},
    {"100%@h", "100%25%40h"},
    {"%2F@h", "%252F%40h"},
    {"a+b@h", "a%2Bb%40h"},
    {"sp ace@h", "sp%20ace%40h"},
    {"ctl\r\nHost: evil@h", "ctl%0D%0AHost%3A%20evil%40h"},
    {"tab\t\x01\x7f@h", "tab%09%01%7F%40h"},
    {"user@evil.com:80", "user%40evil.com%3A80"},
    {"@evil.com", "%40evil.com"},
    {"h\\back@h", "h%5Cback%40h"},
    {"<angle>@h", "%3Cangle%3E%40h"},
    {"semi;colon,comma=eq&amp$!'()*@h",
     "semi%3Bcolon%2Ccomma%3Deq%26amp%24%21%27%28%29%2A%40h"},
    {"utf8-\xc3\xa9@h", "utf8-%C3%A9%40h"},
    {"keep-._~AZaz09", "keep-._~AZaz09"},
};

static const struct {
	const char *in, *out; /* out NULL: refused */
} masks[] = {
    {"https://lore.kernel.org/all/%s", "https://lore.kernel.org/all/%s"},
    {"https://lore.kernel.org/netdev", "https://lore.kernel.org/netdev/%s"},
    {"https://lore.kernel.org/netdev/", "https://lore.kernel.org/netdev/%s"},
    {"http://127.0.0.1:8080", "http://127.0.0.1:8080/%s"},
    {"HTTPS://Example.org/%s/", "HTTPS://Example.org/%s/"},
    {"ftp://example.org/%s", NULL},
    {"file:///etc/%s", NULL},
    {"example.org/%s", NULL},
    {"https:///%s", NULL},
    {"https://%s.example.org/", NULL},
    {"https://example.org/%s/%s", NULL},
    {"https://example.org/?q=%s", NULL},
    {"https://example.org/%s#x", NULL},
    {"https://example.org/a b/%s", NULL},
    {"https://example.org/100%%/%s", "https://example.org/100%%/%s"},
};

/* url_archive_mask(): out NULL with err 0: not an archive URL; err 1:
 * refused */
static const struct {
	const char *url, *id, *out;
	int err;
} archives[] = {
    {"https://lore.example.org/netdev/a@b/", "a@b",
     "https://lore.example.org/netdev/%s", 0},
    {"https://lore.example.org/netdev/a@b/T/#u", "a@b",
     "https://lore.example.org/netdev/%s", 0},
    {"http://127.0.0.1:8080/list-b/a%40b/t.mbox.gz", "a@b",
     "http://127.0.0.1:8080/list-b/%s", 0},
    {"https://h/r/a@b", "a@b", "https://h/r/%s", 0},
    {"https://[::1]:99/all/a@b", "a@b", "https://[::1]:99/all/%s", 0},
    {"https://h/100%25/a@b", "a@b", "https://h/100%%25/%s", 0},
    {"https://patch.msgid.link/a@b", "a@b", NULL, 0},
    {"https://h/a@b/", "a@b", NULL, 0},
    {"https://h/pub/lists/a@b/", "a@b", NULL, 0},
    {"https://h/list/other@b/", "a@b", NULL, 0},
    {"https://h/../a@b/", "a@b", NULL, 0},
    {"https://h/l;x/a@b/", "a@b", NULL, 0},
    {"https://h?x/l/a@b/", "a@b", NULL, 0},
    {"ftp://h/l/a@b/", "a@b", NULL, 0},
    {"https://u:pw@h/l/a@b/", "a@b", NULL, 1},
    {"https://u@h/l/a@b/", "a@b", NULL, 1},
    {"https://h_x/l/a@b/", "a@b", NULL, 1},
    {"https://-h/l/a@b/", "a@b", NULL, 1},
    {"https://h:/l/a@b/", "a@b", NULL, 1},
    {"https://h:65536/l/a@b/", "a@b", NULL, 1},
    {"https://h:8x/l/a@b/", "a@b", NULL, 1},
    {"https://[]/l/a@b/", "a@b", NULL, 1},
    {"https://[::1/l/a@b/", "a@b", NULL, 1},
    {"https://h\evil/l/a@b/", "a@b", NULL, 1},
};

/* The URL built for @id must keep host, port, path shape and no query. */
static void
check_shape(const char *mask, const char *host, int port, const char *pre,
	    const char *id)
{
	g_autofree char *url = url_for_id(mask, id, "t.mbox.gz");
	g_autofree char *esc = url_escape_id(id);
	g_autofree char *want = g_strconcat(pre, esc, "/t.mbox.gz", NULL);
	GUri *u = g_uri_parse(url, G_URI_FLAGS_ENCODED, NULL);
	g_auto(GStrv) segs = NULL;
	g_autofree char *back = NULL;
	gboolean ok;
	guint n;

	ok = u && !g_strcmp0(g_uri_get_host(u), host) &&
	     g_uri_get_port(u) == port && !g_uri_get_query(u) &&
	     !g_uri_get_fragment(u) && !g_uri_get_userinfo(u) &&
	     !strcmp(g_uri_get_path(u), want);
	if (ok) {
		segs = g_strsplit(g_uri_get_path(u), "/", -1);
		n = g_strv_length(segs);
		/* "", pre's segments..., id, "t.mbox.gz" */
		back = g_uri_unescape_string(segs[n - 2], NULL);
		ok = back && !strcmp(back, id) && strcmp(segs[n - 2], ".") &&
		     strcmp(segs[n - 2], "..");
	}
	tap_ok(ok, "'%s' with %s stays one segment under %s (%s)", esc, mask,
	       host, url);
	if (u)
		g_uri_unref(u);
}

int
main(void)
{
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(ids); i++) {
		g_autofree char *e = url_escape_id(ids[i].id);

		tap_is_str(e, ids[i].esc, "escape '%s'", ids[i].esc);
		check_shape("https://lore.kernel.org/all/%s", "lore.kernel.org",
			    -1, "/all/", ids[i].id);
		check_shape("http://127.0.0.1:8080/list/%s/", "127.0.0.1", 8080,
			    "/list/", ids[i].id);
	}
	for (i = 0; i < G_N_ELEMENTS(masks); i++) {
		GError *err = NULL;
		g_autofree char *m = url_mask_check(masks[i].in, &err);

		tap_is_str(m, masks[i].out, "mask '%s'", masks[i].in);
		tap_ok(!m == !!err, "mask '%s': error set iff refused",
		       masks[i].in);
		g_clear_error(&err);
	}
	for (i = 0; i < G_N_ELEMENTS(archives); i++) {
		GError *err = NULL;
		g_autofree char *m =
		    url_archive_mask(archives[i].url, archives[i].id, &err);

		tap_is_str(m, archives[i].out, "archive of '%s'",
			   archives[i].url);
		tap_ok(!!err == archives[i].err &&
			   (!err || !strstr(err->message, "pw@")),
		       "archive of '%s': refused iff unsafe, no password shown",
		       archives[i].url);
		g_clear_error(&err);
	}
	{
		g_autofree char *long_host = g_strnfill(300, 'a');
		g_autofree char *u =
		    g_strdup_printf("https://%s/l/a@b/", long_host);
		GError *err = NULL;
		g_autofree char *m = url_archive_mask(u, "a@b", &err);

		tap_ok(!m && err && strstr(err->message, "longer than 255"),
		       "archive: a host over 255 bytes is refused");
		g_clear_error(&err);
	}
	{
		g_autofree char *a =
		    url_for_id("https://h/all/%s", "x@y", NULL);
		g_autofree char *dots = url_escape_id("..");
		g_autofree char *b = url_mask_base("https://h/all/%s");
		g_autofree char *c = url_mask_base("https://h/100%%/%s");
		g_autofree char *d = url_root("https://lore.kernel.org/all/x/");
		g_autofree char *e = url_root("http://127.0.0.1:9/");
		g_autofree char *f = url_root("http://h:1?q#f");
		g_autofree char *g = url_root("ftp://h/x");
		g_autofree char *h =
		    url_join("http://h:1/l/x%2Fy/", "t.mbox.gz");
		g_autofree char *j = url_join("http://h:1/l/x", "t.mbox.gz");
		g_autofree char *k = url_join("http://h/l/x/?a#b", "t.mbox.gz");
		g_autofree char *l = url_join("javascript:alert(1)", "t");
		g_autofree char *s = url_search("https://h/all/%s",
						"s:\"a b&c=d#\" AND f:x+y@z");

		tap_is_str(a, "https://h/all/x%40y/",
			   "url_for_id without leaf");
		tap_ok(!url_for_id("https://h/all/%s", "..", "t.mbox.gz") &&
			   !url_for_id("https://h/all/%s", ".", NULL) &&
			   !url_for_id("https://h/all/%s", "", NULL),
		       "no URL for ids made only of dots, or empty");
		tap_is_str(dots, "%2E%2E", "dots alone are escaped");
		tap_is_str(b, "https://h/all/", "mask base");
		tap_is_str(c, "https://h/100%/", "mask base with %%%%");
		tap_is_str(d, "https://lore.kernel.org/", "root of a path");
		tap_is_str(e, "http://127.0.0.1:9/", "root keeps the port");
		tap_is_str(f, "http://h:1/", "root drops query and fragment");
		tap_is_str(g, NULL, "no root for ftp");
		tap_is_str(h, "http://h:1/l/x%2Fy/t.mbox.gz", "join a folder");
		tap_is_str(j, "http://h:1/l/x/t.mbox.gz", "join adds a slash");
		tap_is_str(k, "http://h/l/x/t.mbox.gz", "join drops the query");
		tap_is_str(l, NULL, "join refuses non-http");
		tap_is_str(
		    s,
		    "https://h/all/"
		    "?x=m&q=s%3A%22a%20b%26c%3Dd%23%22%20AND%20f%3Ax%2By%40z",
		    "search URL: the query cannot add parameters");
		tap_ok(url_is_http("http://h") && !url_is_http("http://") &&
			   !url_is_http("http:///x") &&
			   !url_is_http("gopher://h"),
		       "url_is_http");
	}
	return tap_done();
}
