/*
 * tyreply.c - b4 ty's make_reply() in C (b4 0.12): the recipients (the
 * original To and Cc, the author added to To, the maintainer, the author's
 * other copies and b4.email-exclude's globs left out, each address through
 * the tree's mailmap as b4's cleanup_email_addrs() does), "Re: " before
 * the subject ("Re: (subset) " for a part of a series), a reply to the
 * series' first message, b4's header order. Values from the tracking file
 * go into headers as one line each.
 */
#include "git/tymail.h"
#include "core/gitrun.h"
#include "core/msgid.h"
#include "core/util.h"

#include <fnmatch.h>
#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>
#include <unistd.h>

/* the tree's mailmap for @email (git check-mailmap, as b4 asks it):
 * the replacement, or NULL to keep it */
static const char *
mailmapped(struct ty_setup *t, const char *email)
{
	const char *hit = g_hash_table_lookup(t->mailmap, email);
	g_autofree char *contact = NULL, *line = NULL;
	GString *out;

	if (hit)
		return *hit ? hit : NULL;
	contact = g_strdup_printf("<%s>", email);
	{
		const char *const argv[] = {"check-mailmap", contact, NULL};

		GString *e = g_string_new(NULL);

		out = g_string_new(NULL);
		if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0)
			line = gitrun_first_line(out->str);
		g_string_free(out, TRUE);
		g_string_free(e, TRUE);
	}
	if (line && strcmp(line, contact))
		hit = line;
	g_hash_table_insert(t->mailmap, g_strdup(email),
			    g_strdup(hit ? hit : ""));
	return g_hash_table_lookup(t->mailmap, email);
}

struct addr {
	char *name, *email;
};

static void
addr_free(struct addr *a)
{
	if (!a)
		return;
	g_free(a->name);
	g_free(a->email);
	g_free(a);
}

static struct addr *
addr_new(const char *name, const char *email)
{
	struct addr *a = g_new0(struct addr, 1);

	a->name = lore_one_line(name ? name : "", -1);
	a->email = lore_one_line(email ? email : "", -1);
	return a;
}

/* the addresses of a To or Cc value, groups opened (email.utils'
 * getaddresses, with the names decoded) */
static void
parse_addrs(const char *value, GPtrArray *out)
{
	InternetAddressList *l = internet_address_list_parse(NULL, value);
	int i, k;

	for (i = 0; l && i < internet_address_list_length(l); i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);

		if (INTERNET_ADDRESS_IS_GROUP(a)) {
			InternetAddressList *m =
			    internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a));

			for (k = 0; k < internet_address_list_length(m); k++) {
				InternetAddress *x =
				    internet_address_list_get_address(m, k);

				if (INTERNET_ADDRESS_IS_MAILBOX(x))
					g_ptr_array_add(
					    out,
					    addr_new(
						internet_address_get_name(x),
						internet_address_mailbox_get_addr(
						    INTERNET_ADDRESS_MAILBOX(
							x))));
			}
			continue;
		}
		g_ptr_array_add(out,
				addr_new(internet_address_get_name(a),
					 internet_address_mailbox_get_addr(
					     INTERNET_ADDRESS_MAILBOX(a))));
	}
	if (l)
		g_object_unref(l);
}

static gboolean
excluded(GPtrArray *globs, const char *email)
{
	guint i;

	for (i = 0; i < globs->len; i++)
		if (!fnmatch(globs->pdata[i], email, 0))
			return TRUE;
	return FALSE;
}

/* b4's cleanup_email_addrs(): qualified addresses only, the excluded
 * ones out, the mailmapped ones replaced (and moved to the end) */
static GPtrArray *
cleanup(struct ty_setup *t, GPtrArray *in, GPtrArray *globs)
{
	GPtrArray *out =
	    g_ptr_array_new_with_free_func((GDestroyNotify)addr_free);
	GPtrArray *moved = g_ptr_array_new();
	guint i;

	for (i = 0; i < in->len; i++) {
		struct addr *a = in->pdata[i];
		const char *m;

		if (!*g_strstrip(a->email) || !strchr(a->email, '@') ||
		    excluded(globs, a->email))
			continue;
		if ((m = mailmapped(t, a->email))) {
			char *name = NULL, *email = NULL;
			InternetAddressList *l =
			    internet_address_list_parse(NULL, m);

			if (l && internet_address_list_length(l) == 1 &&
			    INTERNET_ADDRESS_IS_MAILBOX(
				internet_address_list_get_address(l, 0))) {
				InternetAddress *x =
				    internet_address_list_get_address(l, 0);

				name = (char *)internet_address_get_name(x);
				email =
				    (char *)internet_address_mailbox_get_addr(
					INTERNET_ADDRESS_MAILBOX(x));
				g_ptr_array_add(moved, addr_new(name, email));
			}
			if (l)
				g_object_unref(l);
			if (email)
				continue;
		}
		g_ptr_array_add(out, addr_new(a->name, a->email));
	}
	for (i = 0; i < moved->len; i++)
		g_ptr_array_add(out, moved->pdata[i]);
	g_ptr_array_free(moved, TRUE);
	return out;
}

/* b4's format_addrs(): "Name <email>", the name quoted when it holds
 * one of ()<>@,:;." [] , the address alone when there is no name */
static void
format_addrs(GString *o, const char *header, GPtrArray *as)
{
	gsize line = o->len;
	guint i;

	g_string_append_printf(o, "%s: ", header);
	for (i = 0; i < as->len; i++) {
		struct addr *a = as->pdata[i];
		GString *one = g_string_new(NULL);
		const char *p;

		if (!*a->name || !strcmp(a->name, a->email)) {
			g_string_append(one, a->email);
		} else if (strpbrk(a->name, "()<>@,:;.\"[]")) {
			g_string_append_c(one, '"');
			for (p = a->name; *p; p++) {
				if (*p == '"' || *p == '\\')
					g_string_append_c(one, '\\');
				g_string_append_c(one, *p);
			}
			g_string_append_printf(one, "\" <%s>", a->email);
		} else {
			g_string_append_printf(one, "%s <%s>", a->name,
					       a->email);
		}
		/* b4 never folds; a line past RFC 5322's 998 is folded */
		if (i && o->len - line + one->len + 2 > 998) {
			g_string_append(o, ",\n ");
			line = o->len - 1;
		} else if (i) {
			g_string_append(o, ", ");
		}
		g_string_append_len(o, one->str, one->len);
		g_string_free(one, TRUE);
	}
	g_string_append_c(o, '\n');
}

/* email.utils.formatdate(localtime=True), in English whatever the locale */
static char *
mail_date(void)
{
	static const char *const days[] = {"Mon", "Tue", "Wed", "Thu",
					   "Fri", "Sat", "Sun"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr",
					     "May", "Jun", "Jul", "Aug",
					     "Sep", "Oct", "Nov", "Dec"};
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree char *hms = g_date_time_format(now, "%H:%M:%S %z");

	return g_strdup_printf("%s, %02d %s %d %s",
			       days[g_date_time_get_day_of_week(now) - 1],
			       g_date_time_get_day_of_month(now),
			       months[g_date_time_get_month(now) - 1],
			       g_date_time_get_year(now), hms);
}

/* the template's variables: the record's fields (Python's str() of a
 * true/false or a number), and what the run adds */
static GHashTable *
variables(struct ty_setup *t, const struct ty_series *s, const char *summary,
	  const char *merge)
{
	GHashTable *v =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	const struct tyjson *j = s->json;
	guint i;

	for (i = 0; i < j->kids->len; i++) {
		const struct tyjson *k = j->kids->pdata[i];
		const char *val = k->type == TYJSON_STRING   ? k->str
				  : k->type == TYJSON_NUMBER ? k->str
				  : k->type == TYJSON_BOOL
				      ? (k->b ? "True" : "False")
				  : k->type == TYJSON_NULL ? "None"
							   : NULL;

		if (val)
			g_hash_table_replace(v, g_strdup(j->keys->pdata[i]),
					     g_strdup(val));
	}
	g_hash_table_replace(v, g_strdup("trackfile"), g_strdup(s->name));
	g_hash_table_replace(v, g_strdup("myname"), g_strdup(t->myname));
	g_hash_table_replace(v, g_strdup("myemail"), g_strdup(t->myemail));
	g_hash_table_replace(v, g_strdup("signature"), g_strdup(t->signature));
	g_hash_table_replace(v, g_strdup("branch"), g_strdup(t->branch));
	g_hash_table_replace(v, g_strdup("treename"), g_strdup(t->treename));
	g_hash_table_replace(v, g_strdup("summary"), g_strdup(summary));
	/* b4 names a pull request's record after its tip */
	if (s->pr)
		g_hash_table_replace(
		    v, g_strdup("pr_commit_id"),
		    g_strndup(s->name, strlen(s->name) - strlen(".pr")));
	if (merge)
		g_hash_table_replace(v, g_strdup("merge_commit_id"),
				     g_strdup(merge));
	return v;
}

/* the record's Message-ID, without <> and checked */
static char *
record_msgid(const char *raw)
{
	g_autofree char *id = lore_one_line(raw, -1);
	size_t n = strlen(id);

	if (n > 2 && id[0] == '<' && id[n - 1] == '>') {
		memmove(id, id + 1, n - 2);
		id[n - 2] = '\0';
	}
	return msgid_valid(id) ? g_steal_pointer(&id) : NULL;
}

/* the recipients, b4's way: To, then the author; Cc */
static void
recipients(struct ty_setup *t, const struct ty_series *s, GString *o)
{
	GPtrArray *raw =
	    g_ptr_array_new_with_free_func((GDestroyNotify)addr_free);
	GPtrArray *globs = g_ptr_array_new();
	GPtrArray *to, *cc, *newto;
	guint i;

	for (i = 0; i < t->excludes->len; i++)
		g_ptr_array_add(globs, t->excludes->pdata[i]);
	g_ptr_array_add(raw, addr_new(s->fromname, s->fromemail));
	newto = cleanup(t, raw, globs);
	g_ptr_array_add(globs, t->myemail);
	g_ptr_array_add(globs, (char *)s->fromemail);
	g_ptr_array_set_size(raw, 0);
	parse_addrs(tyjson_str(tyjson_get(s->json, "to")), raw);
	to = cleanup(t, raw, globs);
	g_ptr_array_set_size(raw, 0);
	parse_addrs(tyjson_str(tyjson_get(s->json, "cc")), raw);
	cc = cleanup(t, raw, globs);
	for (i = 0; i < newto->len; i++)
		g_ptr_array_add(to, g_steal_pointer(&newto->pdata[i]));
	format_addrs(o, "To", to);
	if (cc->len)
		format_addrs(o, "Cc", cc);
	g_ptr_array_unref(raw);
	g_ptr_array_unref(newto);
	g_ptr_array_unref(to);
	g_ptr_array_unref(cc);
	g_ptr_array_free(globs, TRUE);
}

GString *
tymail_build(struct ty_setup *t, const struct ty_series *s, const char *summary,
	     const char *merge, GError **err)
{
	g_autofree char *id = record_msgid(s->msgid);
	g_autofree char *refs = NULL, *subj = NULL, *me = NULL, *date = NULL;
	g_autofree char *body = NULL, *domain = NULL;
	const char *sp, *at = strrchr(t->myemail, '@');
	const char *tpl = s->pr ? tymail_pr_template(t, err) : t->template;
	GHashTable *vars;
	GString *o;

	if (!tpl)
		return NULL;
	if (!id) {
		g_autofree char *safe = lore_term_safe(s->msgid, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "its msgid '%s' is no Message-ID", safe);
		return NULL;
	}
	refs = lore_one_line(
	    tyjson_str(tyjson_get(s->json, "references")) ?: "", -1);
	subj = lore_one_line(s->subject, -1);
	sp = subj;
	/* re.sub(r'^Re:\s+', '', subject, flags=re.I) */
	if (!g_ascii_strncasecmp(sp, "re:", 3) && g_ascii_isspace(sp[3]))
		for (sp += 3; g_ascii_isspace(*sp); sp++)
			;
	me = lore_one_line(t->myname, -1);
	domain = lore_one_line(at ? at + 1 : "localhost", -1);
	vars = variables(t, s, summary, merge);
	body = tymail_fill(tpl, vars);
	g_hash_table_destroy(vars);
	date = mail_date();
	o = g_string_new(NULL);
	if (strpbrk(me, "()<>@,:;.\"[]"))
		g_string_append_printf(o, "From: \"%s\" <%s>\n", me,
				       t->myemail);
	else
		g_string_append_printf(o, "From: %s <%s>\n", me, t->myemail);
	recipients(t, s, o);
	g_string_append_printf(o, "In-Reply-To: <%s>\n", id);
	if (*refs)
		g_string_append_printf(o, "References: %s <%s>\n", refs, id);
	else
		g_string_append_printf(o, "References: <%s>\n", id);
	g_string_append_printf(o, "Subject: Re: %s%s\n",
			       s->cherrypick ? "(subset) " : "", sp);
	g_string_append_printf(o,
			       "Message-Id: <%" G_GINT64_FORMAT ".%d.%u%u."
			       "lore-am-ty@%s>\n",
			       g_get_real_time() / 10000, (int)getpid(),
			       g_random_int(), g_random_int(), domain);
	g_string_append_printf(o, "Date: %s\n", date);
	g_string_append(o, "MIME-Version: 1.0\n"
			   "Content-Type: text/plain; charset=\"utf-8\"\n");
	g_string_append_printf(o, "Content-Transfer-Encoding: %s\n\n",
			       g_str_is_ascii(body) ? "7bit" : "8bit");
	g_string_append(o, body);
	return o;
}

/* \W+ as '_' in @s, lower case, onto @o */
static void
slug_part(GString *o, const char *s)
{
	g_autofree char *low = g_utf8_strdown(s, -1);
	const char *p;

	for (p = low; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (g_unichar_isalnum(c) || c == '_')
			g_string_append_unichar(o, c);
		else if (!o->len || o->str[o->len - 1] != '_')
			g_string_append_c(o, '_');
	}
}

char *
tymail_slug(const struct ty_series *s)
{
	GString *o = g_string_new(NULL);
	g_autofree char *from = lore_one_line(s->fromemail, -1);
	g_autofree char *subj = lore_one_line(s->subject, -1);
	GString *clean = g_string_new(NULL);
	const char *p;

	slug_part(o, from);
	g_string_append_c(o, '_');
	slug_part(o, subj);
	/* re.sub(r'_+', '_', slug) */
	for (p = o->str; *p; p++)
		if (*p != '_' || !clean->len ||
		    clean->str[clean->len - 1] != '_')
			g_string_append_c(clean, *p);
	g_string_free(o, TRUE);
	/* a file name, not past what a file system takes */
	if (clean->len > 200) {
		const char *cut = clean->str + 200;

		while (cut > clean->str && ((guchar)*cut & 0xc0) == 0x80)
			cut--;
		g_string_truncate(clean, cut - clean->str);
	}
	return g_string_free(clean, FALSE);
}
