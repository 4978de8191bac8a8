/*
 * runopts.c - the options of each stage, from the command line and git
 * config (lore-am.* with b4.* fallback): the am job's and the trailers
 * stage's, the archive's, which sources to ask, and the checks of the
 * options that go with --thread. run.c wires the stages with them.
 */
#include "cli/runopts.h"
#include "thread/copyrank.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

#define DEFAULT_LINK_TRAILER "Link: https://patch.msgid.link/%s"
#define DEFAULT_LINK_MASK "https://patch.msgid.link/%s"
/* how long --append waits for each lock of the mailbox */
#define DEFAULT_LOCK_TIMEOUT 10

static GPtrArray *
split_list(const char *v)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) parts = NULL;
	guint i;

	if (!v)
		return a;
	parts = g_strsplit_set(v, ",", -1);
	for (i = 0; parts[i]; i++) {
		char *name = NULL, *email = NULL;

		message_parse_addr(parts[i], &name, &email);
		if (*email)
			g_ptr_array_add(a, g_ascii_strdown(email, -1));
		g_free(name);
		g_free(email);
	}
	return a;
}

void
runopts_am(struct amjob_opts *o, const struct cli *c, struct config *cfg)
{
	const char *v;

	o->trailers.add_trailers = !c->no_add_trailers;
	o->trailers.add_my_sob = c->add_my_sob;
	o->trailers.add_link = c->add_link || c->add_message_id;
	o->trailers.cc_trailers = c->cc_trailers;
	v = config_get(cfg, "linktrailermask", "linktrailermask");
	if (c->add_message_id) {
		/* b4's -i: the patch's own id, in the Link's place */
		o->trailers.link_trailer = g_strdup("Message-ID: <%s>");
	} else if (v) {
		o->trailers.link_trailer = g_strdup(v);
	} else if ((v = config_get(cfg, "linkmask", NULL))) {
		o->trailers.link_trailer = g_strconcat("Link: ", v, NULL);
	} else {
		o->trailers.link_trailer = g_strdup(DEFAULT_LINK_TRAILER);
	}
	o->trailers.trailer_order =
	    g_strdup(config_get(cfg, "trailer-order", "trailer-order"));
	o->trailers.ignore_from = split_list(
	    config_get(cfg, "trailers-ignore-from", "trailers-ignore-from"));
	o->trailers.user_name = g_strdup(config_raw(cfg, "user.name"));
	o->trailers.user_email = g_strdup(config_raw(cfg, "user.email"));
	o->use_version = c->use_version;
	o->cherry_pick = c->cherry_pick;
	o->sloppy = c->sloppy;
	o->allow_incomplete = c->allow_incomplete;
	o->mboxrd = c->mboxrd;
	o->outdir = c->outdir;
	o->mbox_name = c->mbox_name;
	o->no_cover = c->no_cover;
	o->arriving = c->passthrough;
	o->allow_unicode_control = c->allow_unicode_control;
	/* -d says why this revision too */
	o->explain = c->explain || c->debug;
	o->gate.add_my_sob = c->add_my_sob;
	o->gate.user_name = o->trailers.user_name;
	o->gate.user_email = o->trailers.user_email;
	v = config_get(cfg, "summary-linkmask", "linkmask");
	o->link_mask = g_strdup(v ? v : DEFAULT_LINK_MASK);
}

void
runopts_am_clear(struct amjob_opts *o)
{
	g_free(o->trailers.link_trailer);
	g_free(o->trailers.trailer_order);
	g_ptr_array_free(o->trailers.ignore_from, TRUE);
	g_free(o->trailers.user_name);
	g_free(o->trailers.user_email);
	g_free(o->link_mask);
}

int
runopts_gate(struct amjob_opts *o, const struct cli *c, struct config *cfg)
{
	const char *v = config_get(cfg, "gate", NULL);
	g_autofree char *s = NULL;

	o->gate.json = c->json;
	o->gate.mainline = config_get(cfg, "mainline-ref", NULL);

	if (!v || gate_parse_policy(v, &o->gate.policy))
		return LORE_OK;
	s = lore_term_safe(v, -1);
	lore_err("lore-am.gate '%s' is not off, warn or hardfail", s);
	return LORE_EUSAGE;
}

void
runopts_thread(struct config *cfg)
{
	copyrank_setup(
	    config_get(cfg, "listid-preference", "listid-preference"));
}

/* LORE_AM_LOCK_TIMEOUT, or the default; FALSE when it is not a number. */
gboolean
runopts_lock_timeout(guint *secs)
{
	const char *v = g_getenv("LORE_AM_LOCK_TIMEOUT");
	guint64 n;

	*secs = DEFAULT_LOCK_TIMEOUT;
	if (!v || !*v)
		return TRUE;
	if (!g_ascii_string_to_unsigned(v, 10, 0, 3600, &n, NULL))
		return FALSE;
	*secs = (guint)n;
	return TRUE;
}

/* The archive's settings: git config, then the command line. */
int
runopts_lore(struct lore_opts *lo, const struct cli *c, struct config *cfg)
{
	GError *err = NULL;
	guint i;

	if (!lore_opts_load(lo, cfg, &err) ||
	    (c->lore && !lore_opts_set_mask(lo, c->lore, &err)) ||
	    (!c->lore && c->args && c->args[0] &&
	     !lore_opts_use_url(lo, c->args[0], &err))) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	for (i = 0; c->fallbacks && c->fallbacks[i]; i++) {
		if (!lore_opts_add_mirror(lo, c->fallbacks[i], i, &err)) {
			lore_err_take(err);
			return LORE_EUSAGE;
		}
	}
	lo->no_cache = c->no_cache;
	lo->offline = c->offline;
	lo->progress = !c->quiet && isatty(STDERR_FILENO);
	return LORE_OK;
}

/* --source, else git config lore-am.source, else auto; -N forces notmuch. */
int
runopts_mode(const struct cli *c, struct config *cfg, enum gather_mode *mode)
{
	const char *v = c->source ? c->source : config_get(cfg, "source", NULL);

	*mode = GATHER_AUTO;
	if (v && !gather_parse_mode(v, mode)) {
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("unknown source '%s' in %s: use auto, notmuch, lore "
			 "or mbox",
			 s, c->source ? "--source" : "lore-am.source");
		return LORE_EUSAGE;
	}
	if (c->notmuch) {
		if (c->source && *mode != GATHER_NOTMUCH) {
			g_autofree char *s = lore_term_safe(c->source, -1);

			lore_err("-N and --source %s contradict each other", s);
			return LORE_EUSAGE;
		}
		*mode = GATHER_NOTMUCH;
	}
	return LORE_OK;
}
