/*
 * hygiene.c - checks on the trailers reviewers send (b4 0.16's Fixes:
 * check, Link: trailers compared by the message they name). A gmane
 * address is the list archive's rewrite "local-HASH@public.gmane.org",
 * HASH 22 base64 characters, sometimes twice.
 */
#include "trailers/hygiene.h"
#include "core/msgid.h"
#include "core/util.h"
#include "mail/message.h"

#include <string.h>

#define GMANE_DOMAIN "public.gmane.org"
#define GMANE_HASH 22

struct hygiene *
hygiene_new(void)
{
	struct hygiene *h = g_new0(struct hygiene, 1);

	h->bad_fixes = g_ptr_array_new();
	h->gmane = g_ptr_array_new();
	return h;
}

void
hygiene_free(struct hygiene *h)
{
	if (!h)
		return;
	g_ptr_array_free(h->bad_fixes, TRUE);
	g_ptr_array_free(h->gmane, TRUE);
	g_free(h);
}

gboolean
hygiene_fixes_ok(const char *value)
{
	size_t n = value ? strspn(value, "0123456789abcdefABCDEF") : 0;

	return n >= 6 && n <= 40 && (!value[n] || g_ascii_isspace(value[n]));
}

gboolean
hygiene_gmane_addr(const char *email)
{
	const char *at = email ? strrchr(email, '@') : NULL;
	size_t local, tail;

	if (!at || g_ascii_strcasecmp(at + 1, GMANE_DOMAIN))
		return FALSE;
	local = (size_t)(at - email);
	if (local < GMANE_HASH + 2)
		return FALSE;
	tail = local - GMANE_HASH;
	if (email[tail - 1] != '-')
		return FALSE;
	return strspn(email + tail,
		      "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/_") >= GMANE_HASH;
}

gboolean
hygiene_accept(struct hygiene *h, const struct trailer *t)
{
	if (!strcmp(t->lname, "fixes") && !hygiene_fixes_ok(t->value)) {
		g_ptr_array_add(h->bad_fixes, (gpointer)t);
		return FALSE;
	}
	if (hygiene_gmane_addr(t->addr_email))
		g_ptr_array_add(h->gmane, (gpointer)t);
	return TRUE;
}

/* The hosts that serve a message by its id alone, or by LIST/ID. */
static const char *const msg_hosts[] = {
    "lore.kernel.org",
    "lkml.kernel.org",
    "patch.msgid.link",
    "msgid.link",
};

char *
hygiene_link_msgid(const char *value)
{
	g_autofree char *url = NULL;
	const char *host;
	size_t n;
	guint i;

	if (!value)
		return NULL;
	url = g_strndup(value, strcspn(value, " \t"));
	if (!g_ascii_strncasecmp(url, "https://", 8))
		host = url + 8;
	else if (!g_ascii_strncasecmp(url, "http://", 7))
		host = url + 7;
	else
		return NULL;
	n = strcspn(host, "/?#");
	for (i = 0; i < G_N_ELEMENTS(msg_hosts); i++)
		if (strlen(msg_hosts[i]) == n &&
		    !g_ascii_strncasecmp(host, msg_hosts[i], n))
			return msgid_from_arg(url);
	return NULL;
}

gboolean
hygiene_link_in(GPtrArray *list, const struct trailer *t)
{
	g_autofree char *id = NULL;
	guint i;

	if (strcmp(t->lname, "link") || !(id = hygiene_link_msgid(t->value)))
		return FALSE;
	for (i = 0; i < list->len; i++) {
		const struct trailer *o = list->pdata[i];
		g_autofree char *oid = NULL;

		if (!strcmp(o->lname, "link") &&
		    (oid = hygiene_link_msgid(o->value)) && !strcmp(oid, id))
			return TRUE;
	}
	return FALSE;
}

/* "    ! Name: value" and, when @from, who sent it; each line once. */
static void
report_list(GPtrArray *l, const char *what, gboolean from)
{
	g_autoptr(GHashTable) seen =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint i;

	if (!l->len)
		return;
	lore_info("NOTE: %s", what);
	for (i = 0; i < l->len; i++) {
		const struct trailer *t = l->pdata[i];
		char *line = trailer_string(t, FALSE);
		g_autofree char *sl = NULL, *who = NULL, *sw = NULL;

		if (!g_hash_table_add(seen, line))
			continue;
		sl = lore_term_safe(line, -1);
		lore_info("    ! Trailer: %s", sl);
		if (!from || !t->src)
			continue;
		who = g_strdup_printf("%s <%s>", t->src->from_name,
				      t->src->from_email);
		sw = lore_term_safe(who, -1);
		lore_info("     Msg From: %s", sw);
	}
}

void
hygiene_report(const struct hygiene *h)
{
	if (!h || (!h->bad_fixes->len && !h->gmane->len))
		return;
	lore_info("---");
	report_list(h->bad_fixes,
		    "Fixes: trailers without a commit id (6 or more hex "
		    "digits), not added:",
		    TRUE);
	report_list(h->gmane,
		    "addresses mangled by gmane, added as sent (the real "
		    "address is not known):",
		    FALSE);
}
