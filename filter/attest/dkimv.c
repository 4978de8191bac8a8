/*
 * dkimv.c - DKIM signatures checked with libopendkim: it does the RFC 6376
 * work (simple and relaxed canonicalization, rsa-sha256 and ed25519-sha256,
 * the h= and l= rules, the From field that must be signed); the key comes
 * from our own look-up (dnstxt.c) so that the server, the cache and the
 * time limit are ours. A signature whose l= leaves text after the signed
 * part counts as bad: that text could be a whole added hunk.
 */
#include "attest/dkimv.h"
#include "core/dynlib.h"
#include "core/util.h"

#include <opendkim/dkim.h>
#include <string.h>

/*
 * libopendkim, loaded on first use (core/dynlib.h): a run that checks no
 * DKIM signature never maps it or OpenSSL. The code below calls it by its
 * own names, each a call through dkimlib's pointers, once dkimv_new() has
 * loaded it.
 */
#define DKIMLIB_FUNCTIONS(X, lib)                                              \
	X(lib, dkim_init)                                                      \
	X(lib, dkim_close)                                                     \
	X(lib, dkim_options)                                                   \
	X(lib, dkim_set_key_lookup)                                            \
	X(lib, dkim_verify)                                                    \
	X(lib, dkim_set_user_context)                                          \
	X(lib, dkim_get_user_context)                                          \
	X(lib, dkim_chunk)                                                     \
	X(lib, dkim_eom)                                                       \
	X(lib, dkim_free)                                                      \
	X(lib, dkim_getsiglist)                                                \
	X(lib, dkim_sig_getdomain)                                             \
	X(lib, dkim_sig_getselector)                                           \
	X(lib, dkim_sig_getflags)                                              \
	X(lib, dkim_sig_getbh)                                                 \
	X(lib, dkim_sig_geterror)                                              \
	X(lib, dkim_sig_getcanonlen)                                           \
	X(lib, dkim_sig_getsigntime)                                           \
	X(lib, dkim_sig_gettagvalue)

static struct dkimlib {
	struct dynlib dl;
	DKIMLIB_FUNCTIONS(DYNLIB_POINTER, _)
} dkimlib;

static const struct dynlib_sym syms[] = {
    DKIMLIB_FUNCTIONS(DYNLIB_SYM, dkimlib)};

/* the soname of libopendkim 2.10 and 2.11 */
static struct dkimlib dkimlib = {.dl = DYNLIB_INIT("libopendkim.so.11", syms)};

#define DKIMLIB_CALL(f) DYNLIB_CALL(dkimlib, f)
#define dkim_init DKIMLIB_CALL(dkim_init)
#define dkim_close DKIMLIB_CALL(dkim_close)
#define dkim_options DKIMLIB_CALL(dkim_options)
#define dkim_set_key_lookup DKIMLIB_CALL(dkim_set_key_lookup)
#define dkim_verify DKIMLIB_CALL(dkim_verify)
#define dkim_set_user_context DKIMLIB_CALL(dkim_set_user_context)
#define dkim_get_user_context DKIMLIB_CALL(dkim_get_user_context)
#define dkim_chunk DKIMLIB_CALL(dkim_chunk)
#define dkim_eom DKIMLIB_CALL(dkim_eom)
#define dkim_free DKIMLIB_CALL(dkim_free)
#define dkim_getsiglist DKIMLIB_CALL(dkim_getsiglist)
#define dkim_sig_getdomain DKIMLIB_CALL(dkim_sig_getdomain)
#define dkim_sig_getselector DKIMLIB_CALL(dkim_sig_getselector)
#define dkim_sig_getflags DKIMLIB_CALL(dkim_sig_getflags)
#define dkim_sig_getbh DKIMLIB_CALL(dkim_sig_getbh)
#define dkim_sig_geterror DKIMLIB_CALL(dkim_sig_geterror)
#define dkim_sig_getcanonlen DKIMLIB_CALL(dkim_sig_getcanonlen)
#define dkim_sig_getsigntime DKIMLIB_CALL(dkim_sig_getsigntime)
#define dkim_sig_gettagvalue DKIMLIB_CALL(dkim_sig_gettagvalue)

struct dkimv {
	DKIM_LIB *lib;
	struct dnstxt *dns;
	size_t keymax; /* the longest key record libopendkim takes, or 0 */
};

static enum dnstxt_status
lookup(struct dkimv *v, const char *sel, const char *dom, const char **txt)
{
	g_autofree char *name = NULL;

	*txt = "no key in DNS";
	if (!sel || !dom)
		return DNSTXT_NOTFOUND;
	name = g_strdup_printf("%s._domainkey.%s", sel, dom);
	if (strlen(name) > 253)
		return DNSTXT_NOTFOUND;
	return dnstxt_lookup(v->dns, name, txt);
}

/* The tags of a key record that a verifier reads (RFC 6376 3.6.1, and g=
 * of RFC 4871); the others, n= (notes for people) and unknown ones, are
 * ignored by rule. */
static gboolean
key_tag(const char *name, size_t len)
{
	return len == 1 && strchr("ghkpstv", *name);
}

char *
dkimv_key_record(const char *txt)
{
	g_auto(GStrv) specs = g_strsplit(txt, ";", -1);
	GString *out = g_string_new(NULL);
	guint i;

	for (i = 0; specs[i]; i++) {
		char *spec = g_strstrip(specs[i]);
		const char *eq = strchr(spec, '=');
		size_t n = eq ? (size_t)(eq - spec) : 0;

		while (n && g_ascii_isspace(spec[n - 1]))
			n--;
		/* a tag without "=" stays: the record's syntax error is
		 * libopendkim's to see */
		if (!*spec || (eq && !key_tag(spec, n)))
			continue;
		if (out->len)
			g_string_append_c(out, ';');
		g_string_append(out, spec);
	}
	return g_string_free(out, FALSE);
}

/*
 * The key record @txt as libopendkim is given it, in @max bytes at most:
 * as published, or, when that is too long, without the tags no verifier
 * reads (a record padded with notes). NULL when it does not fit.
 */
static char *
key_fit(const char *txt, size_t max)
{
	char *r;

	if (strlen(txt) <= max)
		return g_strdup(txt);
	r = dkimv_key_record(txt);
	if (strlen(r) <= max)
		return r;
	g_free(r);
	return NULL;
}

/* libopendkim asks for SELECTOR._domainkey.DOMAIN through this, with a
 * buffer of its own size (1025 bytes in libopendkim 2.11). */
static DKIM_CBSTAT
key_lookup(DKIM *dkim, DKIM_SIGINFO *sig, u_char *buf, size_t buflen)
{
	struct dkimv *v = dkim_get_user_context(dkim);
	const char *sel = (const char *)dkim_sig_getselector(sig);
	const char *dom = (const char *)dkim_sig_getdomain(sig);
	g_autofree char *rec = NULL;
	const char *txt;

	if (!buflen)
		return DKIM_CBSTAT_NOTFOUND;
	v->keymax = buflen - 1;
	switch (lookup(v, sel, dom, &txt)) {
	case DNSTXT_OK:
		/* never cut short: a key cut is another key, or none */
		if (!(rec = key_fit(txt, v->keymax)))
			return DKIM_CBSTAT_NOTFOUND;
		memcpy(buf, rec, strlen(rec) + 1);
		return DKIM_CBSTAT_CONTINUE;
	default:
		/* TRYAGAIN would stop the whole message: judge() tells a
		 * missing key from a silent server by the cached answer */
		return DKIM_CBSTAT_NOTFOUND;
	}
}

struct dkimv *
dkimv_new(struct dnstxt *dns, GError **err)
{
	struct dkimv *v;
	unsigned int flags = DKIM_LIBFLAGS_FIXCRLF;

	if (!dynlib_load(&dkimlib.dl, err))
		return NULL;
	v = g_new0(struct dkimv, 1);
	v->dns = dns;
	v->lib = dkim_init(NULL, NULL);
	if (!v->lib) {
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "libopendkim could not start");
		g_free(v);
		return NULL;
	}
	dkim_options(v->lib, DKIM_OP_SETOPT, DKIM_OPTS_FLAGS, &flags,
		     sizeof(flags));
	dkim_set_key_lookup(v->lib, key_lookup);
	return v;
}

void
dkimv_free(struct dkimv *v)
{
	if (!v)
		return;
	dkim_close(v->lib);
	g_free(v);
}

static void
sig_clear(gpointer p)
{
	struct dkimv_sig *s = p;

	g_free(s->domain);
	g_free(s->why);
	g_free(s->hdrs);
}

/* Why the key of @sig was not had: the answer is cached, so this asks the
 * server nothing. */
static char *
no_key_why(struct dkimv *v, DKIM_SIGINFO *sig)
{
	const char *sel = (const char *)dkim_sig_getselector(sig);
	const char *dom = (const char *)dkim_sig_getdomain(sig);
	g_autofree char *rec = NULL, *name = NULL, *safe = NULL;
	const char *txt;
	enum dnstxt_status st = lookup(v, sel, dom, &txt);

	if (st == DNSTXT_FAIL)
		return g_strdup("DNS did not answer");
	if (st == DNSTXT_NOTFOUND ||
	    (st == DNSTXT_OK &&
	     (!v->keymax || (rec = key_fit(txt, v->keymax)))))
		return g_strdup("no key in DNS");
	/* sel and dom are set: lookup() found something */
	name = g_strdup_printf("%s._domainkey.%s", sel, dom);
	safe = lore_term_safe(name, -1);
	if (st == DNSTXT_TOOBIG)
		return g_strdup_printf("the key record at %s is too large: "
				       "over %d bytes",
				       safe, DNSTXT_MAX_ANSWER);
	return g_strdup_printf("the key record at %s is too large: %zu bytes, "
			       "libopendkim takes %zu at most",
			       safe, strlen(txt), v->keymax);
}

/* Is the signing time (t=) further than @max_days from @date? */
static gboolean
stale(DKIM_SIGINFO *sig, gint64 date, guint max_days)
{
	uint64_t when;
	gint64 drift;

	if (!max_days || date <= 0 ||
	    dkim_sig_getsigntime(sig, &when) != DKIM_STAT_OK ||
	    when > G_MAXINT64)
		return FALSE;
	drift = (gint64)when - date;
	return drift > (gint64)max_days * 86400 ||
	       drift < -(gint64)max_days * 86400;
}

static void
judge(struct dkimv *v, DKIM *dkim, DKIM_SIGINFO *sig, gint64 date,
      guint max_days, struct dkimv_sig *out)
{
	const char *dom = (const char *)dkim_sig_getdomain(sig);
	int e = dkim_sig_geterror(sig);
	ssize_t msglen = -1, canonlen = -1, signlen = -1;

	out->domain = lore_term_safe(dom ? dom : "?", -1);
	out->hdrs = g_strdup(
	    (const char *)dkim_sig_gettagvalue(sig, FALSE, (u_char *)"h"));
	if ((dkim_sig_getflags(sig) & DKIM_SIGFLAG_PASSED) &&
	    dkim_sig_getbh(sig) == DKIM_SIGBH_MATCH) {
		dkim_sig_getcanonlen(dkim, sig, &msglen, &canonlen, &signlen);
		if (signlen >= 0 && msglen > canonlen) {
			out->verdict = DKIMV_BADSIG;
			out->why =
			    g_strdup("text after the l= length is not signed");
		} else if (stale(sig, date, max_days)) {
			out->verdict = DKIMV_BADSIG;
			out->why = g_strdup(
			    "signed too long before or after its Date");
		} else {
			out->verdict = DKIMV_PASS;
		}
		return;
	}
	if (e == DKIM_SIGERROR_NOKEY || e == DKIM_SIGERROR_KEYFAIL) {
		out->verdict = DKIMV_NOKEY;
		out->why = no_key_why(v, sig);
		return;
	}
	out->verdict = DKIMV_BADSIG;
	out->why = g_strdup(dkim_sig_getbh(sig) == DKIM_SIGBH_MISMATCH
				? "the body changed after signing"
				: "the signature does not match");
}

GArray *
dkimv_check(struct dkimv *v, const char *raw, size_t len, gint64 date,
	    guint max_days)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(struct dkimv_sig));
	DKIM_SIGINFO **sigs = NULL;
	DKIM_STAT st;
	DKIM *dkim;
	int i, n = 0;

	g_array_set_clear_func(out, sig_clear);
	dkim = dkim_verify(v->lib, (const unsigned char *)"lore-am", NULL, &st);
	if (!dkim)
		return out;
	dkim_set_user_context(dkim, v);
	st = dkim_chunk(dkim, (u_char *)raw, len);
	if (st == DKIM_STAT_OK)
		st = dkim_chunk(dkim, NULL, 0);
	if (st == DKIM_STAT_OK || st == DKIM_STAT_NOSIG)
		dkim_eom(dkim, NULL);
	if (dkim_getsiglist(dkim, &sigs, &n) != DKIM_STAT_OK)
		n = 0;
	for (i = 0; i < n; i++) {
		struct dkimv_sig s = {0};

		judge(v, dkim, sigs[i], date, max_days, &s);
		g_array_append_val(out, s);
	}
	dkim_free(dkim);
	return out;
}
