/*
 * dkimv.c - DKIM signatures checked with libopendkim: it does the RFC 6376
 * work (simple and relaxed canonicalization, rsa-sha256 and ed25519-sha256,
 * the h= and l= rules, the From field that must be signed); the key comes
 * from our own look-up (dnstxt.c) so that the server, the cache and the
 * time limit are ours. A signature whose l= leaves text after the signed
 * part counts as bad: that text could be a whole added hunk.
 */
#include "attest/dkimv.h"
#include "core/util.h"

#include <opendkim/dkim.h>
#include <string.h>

/* the soname of libopendkim 2.10 and 2.11 */
#define DKIMV_LIB "libopendkim.so.11"

static struct {
	__typeof__(dkim_init) *init;
	__typeof__(dkim_close) *close;
	__typeof__(dkim_options) *options;
	__typeof__(dkim_set_key_lookup) *set_key_lookup;
	__typeof__(dkim_verify) *verify;
	__typeof__(dkim_set_user_context) *set_user_context;
	__typeof__(dkim_get_user_context) *get_user_context;
	__typeof__(dkim_chunk) *chunk;
	__typeof__(dkim_eom) *eom;
	__typeof__(dkim_free) *free;
	__typeof__(dkim_getsiglist) *getsiglist;
	__typeof__(dkim_sig_getdomain) *sig_getdomain;
	__typeof__(dkim_sig_getselector) *sig_getselector;
	__typeof__(dkim_sig_getflags) *sig_getflags;
	__typeof__(dkim_sig_getbh) *sig_getbh;
	__typeof__(dkim_sig_geterror) *sig_geterror;
	__typeof__(dkim_sig_getcanonlen) *sig_getcanonlen;
	__typeof__(dkim_sig_getsigntime) *sig_getsigntime;
	__typeof__(dkim_sig_gettagvalue) *sig_gettagvalue;
} lib;

/* clang-format off */
static const struct lore_sym syms[] = {
	{ "dkim_init", (gpointer *)&lib.init },
	{ "dkim_close", (gpointer *)&lib.close },
	{ "dkim_options", (gpointer *)&lib.options },
	{ "dkim_set_key_lookup", (gpointer *)&lib.set_key_lookup },
	{ "dkim_verify", (gpointer *)&lib.verify },
	{ "dkim_set_user_context", (gpointer *)&lib.set_user_context },
	{ "dkim_get_user_context", (gpointer *)&lib.get_user_context },
	{ "dkim_chunk", (gpointer *)&lib.chunk },
	{ "dkim_eom", (gpointer *)&lib.eom },
	{ "dkim_free", (gpointer *)&lib.free },
	{ "dkim_getsiglist", (gpointer *)&lib.getsiglist },
	{ "dkim_sig_getdomain", (gpointer *)&lib.sig_getdomain },
	{ "dkim_sig_getselector", (gpointer *)&lib.sig_getselector },
	{ "dkim_sig_getflags", (gpointer *)&lib.sig_getflags },
	{ "dkim_sig_getbh", (gpointer *)&lib.sig_getbh },
	{ "dkim_sig_geterror", (gpointer *)&lib.sig_geterror },
	{ "dkim_sig_getcanonlen", (gpointer *)&lib.sig_getcanonlen },
	{ "dkim_sig_getsigntime", (gpointer *)&lib.sig_getsigntime },
	{ "dkim_sig_gettagvalue", (gpointer *)&lib.sig_gettagvalue },
};

static struct lore_lib libdkim = { .soname = DKIMV_LIB,
				   .syms = syms,
				   .n = G_N_ELEMENTS(syms) };
/* clang-format on */

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
	struct dkimv *v = lib.get_user_context(dkim);
	const char *sel = (const char *)lib.sig_getselector(sig);
	const char *dom = (const char *)lib.sig_getdomain(sig);
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

	if (!lore_lib_need(&libdkim)) {
		g_set_error(err, LORE_ERROR, LORE_ETEMP, "cannot load %s: %s",
			    DKIMV_LIB, libdkim.failed);
		return NULL;
	}
	v = g_new0(struct dkimv, 1);
	v->dns = dns;
	v->lib = lib.init(NULL, NULL);
	if (!v->lib) {
		g_set_error(err, LORE_ERROR, LORE_ETEMP,
			    "libopendkim could not start");
		g_free(v);
		return NULL;
	}
	lib.options(v->lib, DKIM_OP_SETOPT, DKIM_OPTS_FLAGS, &flags,
		    sizeof(flags));
	lib.set_key_lookup(v->lib, key_lookup);
	return v;
}

void
dkimv_free(struct dkimv *v)
{
	if (!v)
		return;
	lib.close(v->lib);
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
	const char *sel = (const char *)lib.sig_getselector(sig);
	const char *dom = (const char *)lib.sig_getdomain(sig);
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
	    lib.sig_getsigntime(sig, &when) != DKIM_STAT_OK ||
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
	const char *dom = (const char *)lib.sig_getdomain(sig);
	int e = lib.sig_geterror(sig);
	ssize_t msglen = -1, canonlen = -1, signlen = -1;

	out->domain = lore_term_safe(dom ? dom : "?", -1);
	out->hdrs = g_strdup(
	    (const char *)lib.sig_gettagvalue(sig, FALSE, (u_char *)"h"));
	if ((lib.sig_getflags(sig) & DKIM_SIGFLAG_PASSED) &&
	    lib.sig_getbh(sig) == DKIM_SIGBH_MATCH) {
		lib.sig_getcanonlen(dkim, sig, &msglen, &canonlen, &signlen);
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
	out->why = g_strdup(lib.sig_getbh(sig) == DKIM_SIGBH_MISMATCH
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
	dkim = lib.verify(v->lib, (const unsigned char *)"lore-am", NULL, &st);
	if (!dkim)
		return out;
	lib.set_user_context(dkim, v);
	st = lib.chunk(dkim, (u_char *)raw, len);
	if (st == DKIM_STAT_OK)
		st = lib.chunk(dkim, NULL, 0);
	if (st == DKIM_STAT_OK || st == DKIM_STAT_NOSIG)
		lib.eom(dkim, NULL);
	if (lib.getsiglist(dkim, &sigs, &n) != DKIM_STAT_OK)
		n = 0;
	for (i = 0; i < n; i++) {
		struct dkimv_sig s = {0};

		judge(v, dkim, sigs[i], date, max_days, &s);
		g_array_append_val(out, s);
	}
	lib.free(dkim);
	return out;
}
