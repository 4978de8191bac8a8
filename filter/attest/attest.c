/*
 * attest.c - the attestation policy and its lines in the summary, in the
 * shape of b4's (b4/__init__.py's attestation checks): a mark, the kind of
 * signature and the identity. A message without a signature shows nothing;
 * one that cannot be checked (offline, the library missing) says so once.
 * As in b4, a developer key missing from the keyrings is shown but fails
 * nothing, not even under hardfail: most developers publish no key.
 */
#include "attest/attest.h"
#include "attest/dkimv.h"
#include "attest/dnstxt.h"
#include "mail/mailinfo.h"
#include "attest/patatt.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>

struct attest {
	enum attest_policy policy;
	gboolean offline;
	gboolean no_dkim; /* attestation-check-dkim = no: DKIM not looked at */
	guint max_days;	  /* attestation-staleness-days, 0: not checked */
	char *ns;	  /* the nameserver named, or NULL: the system's */
	struct dnstxt *dns; /* made at the first DKIM signature */
	struct dkimv *dkim;
	gboolean tried;	       /* dkimv_new was called */
	guint said;	       /* "not checked" was said: 1 DKIM, 2 patatt */
	struct patatt *patatt; /* made for the first developer signature */
	int outcome;	       /* 0 none, 1 pass, -1 fail */
	GString *mark;	       /* a follow-up's mark is made, not shown */
	gboolean quiet;	       /* attest_holds(): nothing shown or counted */
	gboolean held, broke;  /* what a quiet check found */
	GHashTable *replies;   /* follow-up message -> its mark (char *) */
};

static const char *const policies[] = {"off", "check", "softfail", "hardfail"};

int
attest_policy_read(struct config *cfg, enum attest_policy *out)
{
	const char *v =
	    config_get(cfg, "attestation-policy", "attestation-policy");
	guint i;

	*out = ATTEST_SOFTFAIL; /* b4's default */
	for (i = 0; v && i < G_N_ELEMENTS(policies); i++)
		if (!g_ascii_strcasecmp(v, policies[i]))
			break;
	if (v && i == G_N_ELEMENTS(policies)) {
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("attestation-policy '%s' is not off, check, softfail "
			 "or hardfail",
			 s);
		return LORE_EUSAGE;
	}
	if (v)
		*out = i;
	return LORE_OK;
}

int
attest_new(struct config *cfg, gboolean off, gboolean offline,
	   struct attest **out)
{
	const char *ns = g_getenv("LORE_AM_NAMESERVER");
	struct attest *a = g_new0(struct attest, 1);
	const char *v;
	guint64 days;

	*out = NULL;
	if (attest_policy_read(cfg, &a->policy)) {
		g_free(a);
		return LORE_EUSAGE;
	}
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
	/* b4's switch: patatt signatures only (a list that breaks DKIM) */
	v = config_get(cfg, "attestation-check-dkim", "attestation-check-dkim");
	a->no_dkim = v && !config_bool(v);
	if (off)
		a->policy = ATTEST_OFF;
	a->offline = offline;
	if (!ns || !*ns)
		ns = config_get(cfg, "nameserver", NULL);
	/* b4's list of resolvers, tried in order */
	if (!ns || !*ns)
		ns = config_get(cfg, "attestation-dns-resolvers",
				"attestation-dns-resolvers");
	/* read now, used (and judged) at the first DKIM signature */
	a->ns = g_strdup(ns && *ns ? ns : NULL);
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
	patatt_free(a->patatt);
	if (a->replies)
		g_hash_table_unref(a->replies);
	g_free(a->ns);
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

/* A failed signature: shown; when it @counts (a No key of a developer
 * signature does not, as in b4) the outcome is fail and, under hardfail,
 * the first one is the run's error line. */
static int
failed(struct attest *a, const char *name, const char *kind, const char *who,
       const char *why, gboolean counts, int rc)
{
	g_autofree char *line = NULL;

	if (a->quiet) {
		a->broke |= counts;
		return rc;
	}
	line = g_strdup_printf("✗ %s: %s (%s)", kind, who, why);
	if (!a->mark) {
		say_failure(a, name, line);
	} else if (a->policy != ATTEST_CHECK && counts) {
		/* b4 marks a follow-up's failure under softfail and hardfail;
		 * a reviewer's key missing is the usual case: no mark */
		g_string_printf(a->mark, "✗ %s", who);
		if (lore_quiet && a->policy == ATTEST_SOFTFAIL)
			lore_err("%s: %s", name, line);
	}
	if (!counts)
		return rc;
	a->outcome = -1;
	if (a->policy == ATTEST_HARDFAIL && !rc) {
		lore_err("%s: %s: nothing written (attestation-policy "
			 "hardfail)",
			 name, line);
		rc = LORE_ENOTFOUND;
	}
	return rc;
}

/* The library or the network is missing: say it once, fail under hardfail
 * (a follow-up's signature not checked is neither). */
static int
not_checked(struct attest *a, const char *name, const char *what,
	    const char *why, guint once)
{
	if (a->mark || a->quiet)
		return LORE_OK;
	if (a->policy == ATTEST_HARDFAIL) {
		lore_err("%s: %s not checked (%s): nothing written "
			 "(attestation-policy hardfail)",
			 name, what, why);
		a->outcome = -1;
		return LORE_ENOTFOUND;
	}
	if (!(a->said & once))
		lore_info("  %s not checked: %s", what, why);
	a->said |= once;
	return LORE_OK;
}

static void
passed(struct attest *a, const char *who)
{
	if (a->quiet) {
		a->held = TRUE;
		return;
	}
	if (a->mark)
		g_string_printf(a->mark, "✓ %s", who);
	else
		lore_info("    ✓ Signed: %s", who);
	if (!a->outcome)
		a->outcome = 1;
}

static void
label_once(const char *name, gboolean *say_label)
{
	if (*say_label)
		lore_info("  %s", name);
	*say_label = FALSE;
}

/*
 * RFC 6376 8.15: a field RFC 5322 allows once, added above the signed one,
 * is the one lore-am and git am read, while the signature, checked on the
 * last (5.4.2), holds all the same. A good signature vouches for the
 * message only when its h= list @hdrs names each such field as many times
 * as @msg has it (patatt's h= is read the same way). The reason it does
 * not, or NULL (g_free).
 */
static char *
uncovered(const struct message *msg, const char *hdrs)
{
	g_auto(GStrv) names = NULL;
	guint i, j;

	if (!msg->once_twice)
		return NULL;
	names = g_strsplit(hdrs ? hdrs : "", ":", -1);
	for (j = 0; names[j]; j++)
		g_strstrip(names[j]);
	for (i = 0; message_once_fields[i]; i++) {
		const char *f = message_once_fields[i];
		guint have = message_header_count(msg, f), covered = 0;

		if (have < 2)
			continue;
		for (j = 0; names[j]; j++)
			covered += !g_ascii_strcasecmp(names[j], f);
		if (covered < have)
			return g_strdup_printf("a second %s: header that the "
					       "signature does not cover",
					       f);
	}
	return NULL;
}

static int
check_dkim(struct attest *a, const struct message *msg, const char *name,
	   gboolean *say_label)
{
	GArray *sigs;
	int rc = LORE_OK;
	guint i;

	if (a->offline)
		return not_checked(a, name, "DKIM", "--offline does no DNS", 1);
	if (!a->tried) {
		GError *err = NULL;

		/* a bad nameserver is a usage error, but only for a run
		 * that has a DKIM signature to ask it about */
		if (!(a->dns = dnstxt_new(a->ns, &err))) {
			g_autofree char *s = lore_term_safe(err->message, -1);

			lore_err("%s", s);
			g_error_free(err);
			return LORE_EUSAGE;
		}
		a->tried = TRUE;
		a->dkim = dkimv_new(a->dns, &err);
		if (!a->dkim) {
			lore_err("warning: %s", err->message);
			g_error_free(err);
		}
	}
	if (!a->dkim)
		return not_checked(a, name, "DKIM", "libopendkim missing", 1);
	sigs = dkimv_check(a->dkim, msg->raw, msg->len, msg->date, a->max_days);
	if (sigs->len)
		label_once(name, say_label);
	for (i = 0; i < sigs->len; i++) {
		struct dkimv_sig *s = &g_array_index(sigs, struct dkimv_sig, i);
		g_autofree char *who = g_strdup_printf("DKIM/%s", s->domain);
		g_autofree char *dup = NULL;

		if (s->verdict == DKIMV_PASS &&
		    !(dup = uncovered(msg, s->hdrs)))
			passed(a, who);
		else
			rc = failed(a, name,
				    s->verdict == DKIMV_NOKEY ? "No key"
							      : "BADSIG",
				    who, dup ? dup : s->why, TRUE, rc);
	}
	g_array_unref(sigs);
	return rc;
}

/* patatt's X-Developer-Signature: no DNS, so --offline checks it too. */
static int
check_patatt(struct attest *a, const struct message *msg, const char *name,
	     gboolean *say_label)
{
	struct mailinfo mi = {0};
	GArray *sigs;
	int rc = LORE_OK;
	guint i;

	if (!a->patatt)
		a->patatt = patatt_new();
	/* the text the writer read (always so for what is written) spares
	 * a git mailinfo per signature that holds */
	if (msg->body_done)
		mailinfo_run(msg, msg->patch_text ? msg->patch_text : msg->body,
			     &mi);
	sigs =
	    patatt_check(a->patatt, msg->raw, msg->len, msg->from_email,
			 msg->body_done ? &mi : NULL, msg->date, a->max_days);
	if (msg->body_done)
		mailinfo_clear(&mi);
	if (sigs->len)
		label_once(name, say_label);
	for (i = 0; i < sigs->len; i++) {
		struct patatt_sig *s =
		    &g_array_index(sigs, struct patatt_sig, i);
		g_autofree char *who =
		    g_strdup_printf("%s/%s", s->algo, s->identity);
		g_autofree char *by = NULL, *dup = NULL;

		switch (s->verdict) {
		case PATATT_PASS:
			if ((dup = uncovered(msg, s->hdrs))) {
				rc = failed(a, name, "BADSIG", who, dup, TRUE,
					    rc);
				continue;
			}
			/* b4's rule: a good signature by someone else than
			 * the sender says whose it is */
			if (msg->from_email &&
			    !g_ascii_strcasecmp(msg->from_email, s->identity))
				passed(a, who);
			else {
				by = g_strdup_printf(
				    "%s (From: %s)", who,
				    msg->from_email ? msg->from_email : "");
				passed(a, by);
			}
			continue;
		case PATATT_UNCHECKED:
			rc = rc ? rc : not_checked(a, name, who, s->why, 2);
			continue;
		case PATATT_NOKEY:
			rc = failed(a, name, "No key", who, s->why, FALSE, rc);
			continue;
		case PATATT_BADSIG:
			rc = failed(a, name, "BADSIG", who, s->why, TRUE, rc);
			continue;
		}
	}
	g_array_unref(sigs);
	return rc;
}

int
attest_message(struct attest *a, const struct message *msg, const char *label,
	       gboolean say_label)
{
	g_autofree char *dkim = NULL, *dev = NULL, *name = NULL;
	int rc = LORE_OK, prc = LORE_OK;

	if (!a || a->policy == ATTEST_OFF)
		return LORE_OK;
	/* an unsigned message costs nothing more: message_parse() saw its
	 * field names */
	if (msg->dkim_signed && !a->no_dkim)
		dkim = message_header(msg, "DKIM-Signature");
	if (msg->dev_signed)
		dev = message_header(msg, "X-Developer-Signature");
	if (!dkim && !dev)
		return LORE_OK;
	name = lore_term_safe(label, -1);
	if (dkim)
		rc = check_dkim(a, msg, name, &say_label);
	if (dev)
		prc = check_patatt(a, msg, name, &say_label);
	return rc ? rc : prc;
}

int
attest_followup(struct attest *a, const struct message *msg,
		const char *trailer, char **mark)
{
	g_autofree char *name = NULL;
	gboolean no_label = FALSE;
	int rc;

	*mark = NULL;
	if (!a || a->policy == ATTEST_OFF || !msg ||
	    (!msg->dkim_signed && !msg->dev_signed))
		return LORE_OK;
	if (!a->replies)
		a->replies = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	/* a reply that sent several trailers is checked once */
	if (g_hash_table_contains(a->replies, msg)) {
		*mark = g_strdup(g_hash_table_lookup(a->replies, msg));
		return LORE_OK;
	}
	name = lore_term_safe(trailer, -1);
	a->mark = g_string_new(NULL);
	rc = attest_message(a, msg, name, no_label);
	if (a->mark->len)
		*mark = g_strdup(a->mark->str);
	g_string_free(a->mark, TRUE);
	a->mark = NULL;
	g_hash_table_insert(a->replies, (gpointer)msg, g_strdup(*mark));
	return rc;
}

gboolean
attest_holds(struct attest *a, const struct message *msg)
{
	gboolean no_label = FALSE;

	if (!a || a->policy == ATTEST_OFF ||
	    (!msg->dkim_signed && !msg->dev_signed))
		return FALSE;
	a->quiet = TRUE;
	a->held = a->broke = FALSE;
	if (msg->dkim_signed && !a->no_dkim)
		check_dkim(a, msg, "", &no_label);
	if (msg->dev_signed)
		check_patatt(a, msg, "", &no_label);
	a->quiet = FALSE;
	return a->held && !a->broke;
}

gboolean
attest_off(const struct attest *a)
{
	return !a || a->policy == ATTEST_OFF;
}
