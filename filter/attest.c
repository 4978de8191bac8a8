/*
 * attest.c - the attestation policy and its lines in the summary, in the
 * shape of b4's (b4/__init__.py's attestation checks): a mark, the kind of
 * signature and the identity. A message without a signature shows nothing;
 * one that cannot be checked (offline, the library missing) says so once.
 */
#include "attest.h"
#include "dkimv.h"
#include "dnstxt.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

struct attest {
	enum attest_policy policy;
	gboolean offline;
	guint max_days; /* attestation-staleness-days, 0: not checked */
	struct dnstxt *dns;
	struct dkimv *dkim;
	gboolean tried; /* dkimv_new was called */
	gboolean said;	/* "not checked" was said */
	int outcome;	/* 0 none, 1 pass, -1 fail */
};

static const char *const policies[] = {"off", "check", "softfail", "hardfail"};

int
attest_new(struct config *cfg, gboolean off, gboolean offline,
	   struct attest **out)
{
	const char *v =
	    config_get(cfg, "attestation-policy", "attestation-policy");
	const char *ns = g_getenv("LORE_AM_NAMESERVER");
	struct attest *a = g_new0(struct attest, 1);
	GError *err = NULL;
	guint64 days;
	guint i;

	*out = NULL;
	a->policy = ATTEST_SOFTFAIL;
	for (i = 0; v && i < G_N_ELEMENTS(policies); i++)
		if (!g_ascii_strcasecmp(v, policies[i]))
			break;
	if (v && i == G_N_ELEMENTS(policies)) {
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("attestation-policy '%s' is not off, check, softfail "
			 "or hardfail",
			 s);
		g_free(a);
		return LORE_EUSAGE;
	}
	if (v)
		a->policy = i;
	v = config_get(cfg, "attestation-staleness-days",
		       "attestation-staleness-days");
	a->max_days = 30; /* b4's default */
	if (v && !g_ascii_string_to_unsigned(v, 10, 0, 36500, &days, NULL)) {
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err(
		    "attestation-staleness-days '%s' is not a number of days",
		    s);
		g_free(a);
		return LORE_EUSAGE;
	}
	if (v)
		a->max_days = days;
	if (off)
		a->policy = ATTEST_OFF;
	a->offline = offline;
	if (!ns || !*ns)
		ns = config_get(cfg, "nameserver", NULL);
	if (a->policy != ATTEST_OFF && !offline &&
	    !(a->dns = dnstxt_new(ns && *ns ? ns : NULL, &err))) {
		g_autofree char *s = lore_term_safe(err->message, -1);

		lore_err("%s", s);
		g_error_free(err);
		g_free(a);
		return LORE_EUSAGE;
	}
	*out = a;
	return LORE_OK;
}

void
attest_free(struct attest *a)
{
	if (!a)
		return;
	dkimv_free(a->dkim);
	dnstxt_free(a->dns);
	g_free(a);
}

const char *
attest_outcome(const struct attest *a)
{
	if (!a || !a->outcome)
		return "none";
	return a->outcome > 0 ? "pass" : "fail";
}

/* A failure: in the summary, or alone with its message's name under -q. */
static void
say_failure(const struct attest *a, const char *label, const char *line)
{
	if (a->policy == ATTEST_CHECK)
		lore_info("    %s", line);
	else if (lore_quiet && a->policy != ATTEST_HARDFAIL)
		lore_err("%s: %s", label, line);
	else if (lore_quiet)
		return;
	else
		fprintf(stderr, "    %s\n", line);
}

/* The library or the network is missing: say it once, fail under hardfail. */
static int
not_checked(struct attest *a, const char *label, const char *why)
{
	if (a->policy == ATTEST_HARDFAIL) {
		lore_err("%s: DKIM not checked (%s): nothing written "
			 "(attestation-policy hardfail)",
			 label, why);
		a->outcome = -1;
		return LORE_ENOTFOUND;
	}
	if (!a->said)
		lore_info("  DKIM not checked: %s", why);
	a->said = TRUE;
	return LORE_OK;
}

int
attest_message(struct attest *a, const struct message *msg, const char *label,
	       gboolean say_label)
{
	g_autofree char *sighdr = NULL, *name = NULL;
	GArray *sigs;
	int rc = LORE_OK;
	guint i;

	if (!a || a->policy == ATTEST_OFF)
		return LORE_OK;
	/* an unsigned message costs one header scan, never the library */
	sighdr = message_header(msg, "DKIM-Signature");
	if (!sighdr)
		return LORE_OK;
	name = lore_term_safe(label, -1);
	if (a->offline)
		return not_checked(a, name, "--offline does no DNS");
	if (!a->tried) {
		GError *err = NULL;

		a->tried = TRUE;
		a->dkim = dkimv_new(a->dns, &err);
		if (!a->dkim) {
			lore_err("warning: %s", err->message);
			g_error_free(err);
		}
	}
	if (!a->dkim)
		return not_checked(a, name, "libopendkim missing");
	sigs = dkimv_check(a->dkim, msg->raw, msg->len, msg->date, a->max_days);
	if (say_label && sigs->len)
		lore_info("  %s", name);
	for (i = 0; i < sigs->len; i++) {
		struct dkimv_sig *s = &g_array_index(sigs, struct dkimv_sig, i);
		g_autofree char *line = NULL;

		if (s->verdict == DKIMV_PASS) {
			lore_info("    ✓ Signed: DKIM/%s", s->domain);
			if (!a->outcome)
				a->outcome = 1;
			continue;
		}
		line = g_strdup_printf("✗ %s: DKIM/%s (%s)",
				       s->verdict == DKIMV_NOKEY ? "No key"
								 : "BADSIG",
				       s->domain, s->why);
		a->outcome = -1;
		say_failure(a, name, line);
		if (a->policy == ATTEST_HARDFAIL && !rc) {
			lore_err("%s: %s: nothing written (attestation-policy "
				 "hardfail)",
				 name, line);
			rc = LORE_ENOTFOUND;
		}
	}
	g_array_unref(sigs);
	return rc;
}
