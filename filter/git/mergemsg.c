/*
 * mergemsg.c - b4's DEFAULT_MERGE_TEMPLATE (or the user's
 * shazam-merge-template) filled as b4 fills it, with Python's
 * string.Template rules ($name, ${name}, $$; an unknown one left): the
 * cover letter's body cut as b4's LoreMessage.get_body_parts() cuts it
 * (signature, the part after "---", then trailer lines of the last
 * paragraph, recognised as find_trailers() does), so that a merge made
 * with lore-am reads like one made with `b4 shazam -M`.
 */
#include "git/mergemsg.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "mail/subject.h"
#include "core/util.h"

#include <string.h>

/* "Name: value" as b4's find_trailers() sees it: ^\s*(\w\S+):\s+(\S.*) */
static gboolean
trailer_name(const char *l, char **name)
{
	const char *p = l, *n;

	while (g_ascii_isspace(*p))
		p++;
	n = p;
	if (!(g_ascii_isalnum(*p) || *p == '_' || (guchar)*p >= 0x80))
		return FALSE;
	p++;
	while (*p && !g_ascii_isspace(*p))
		p++;
	/* \S+ is greedy but backtracks to the last ':' before a blank */
	while (p > n + 1 && p[-1] != ':')
		p--;
	if (p <= n + 1 || p[-1] != ':' || !g_ascii_isspace(*p))
		return FALSE;
	{
		const char *v = p;

		while (g_ascii_isspace(*v))
			v++;
		if (!*v)
			return FALSE;
	}
	*name = g_ascii_strdown(n, p - 1 - n);
	return TRUE;
}

/* ...]\s*$ */
static gboolean
ends_with_bracket(const char *l)
{
	size_t n = strlen(l);

	while (n && g_ascii_isspace(l[n - 1]))
		n--;
	return n && l[n - 1] == ']';
}

/* The lines of the last paragraph that are not trailers (others). */
static char *
non_trailers(const char *para)
{
	g_autofree char *body = NULL;
	g_auto(GStrv) lines = NULL;
	GString *out = g_string_new(NULL);
	gboolean others = FALSE, was_trailer = FALSE;
	const char *sig;
	guint i;

	body = g_strdup(para);
	if ((sig = strstr(body, "\n-- \n")))
		body[sig - body] = '\0';
	g_strstrip(body);
	lines = g_strsplit(body, "\n", -1);
	/* b4 adds a newline after strip(): the last "line" is empty */
	for (i = 0; lines[i]; i++) {
		char *l = lines[i], *name = NULL;
		size_t n = strlen(l);

		while (n && l[n - 1] == '\r')
			l[--n] = '\0';
		if (trailer_name(l, &name)) {
			gboolean drop_only =
			    !strcmp(name, "phone") || !strcmp(name, "email") ||
			    (others &&
			     (!strcmp(name, "subject") ||
			      !strcmp(name, "date") || !strcmp(name, "from")));

			g_free(name);
			if (!drop_only)
				was_trailer = TRUE;
			continue;
		}
		if (n > 2 && was_trailer && l[strspn(l, " \t")] == '[' &&
		    ends_with_bracket(l)) {
			was_trailer = FALSE;
			continue;
		}
		was_trailer = FALSE;
		g_string_append_printf(out, "%s\n", l);
		others = TRUE;
	}
	/* b4 joins its lines and the empty one after them with "\n" */
	return g_string_free(out, FALSE);
}

char *
mergemsg_cover_text(const char *text)
{
	g_autofree char *body = NULL;
	g_auto(GStrv) paras = NULL;
	GString *msg = g_string_new(NULL);
	char *p, *cut;
	guint n, i;

	body = g_strdup(text);
	for (p = cut = body; *p; p++)
		if (*p != '\r')
			*cut++ = *p;
	*cut = '\0';
	/* the signature: after the last "\n-- \n" */
	if ((cut = g_strrstr(body, "\n-- \n")))
		*cut = '\0';
	/* everything below a "---" line, or from the first diff on */
	if (!strncmp(body, "---\n", 4))
		body[0] = '\0';
	else if ((cut = strstr(body, "\n---\n")))
		cut[1] = '\0';
	else if ((cut = strstr(body, "\ndiff ")))
		*cut = '\0';
	/* strip('\n') at both ends */
	for (p = body; *p == '\n'; p++)
		;
	memmove(body, p, strlen(p) + 1);
	n = strlen(body);
	while (n && body[n - 1] == '\n')
		body[--n] = '\0';
	paras = g_strsplit(body, "\n\n", -1);
	n = g_strv_length(paras);
	if (n <= 1) {
		g_string_free(msg, TRUE);
		return non_trailers(n ? paras[0] : "");
	}
	/* the first paragraph always stays (b4's find_trailers() counts the
	 * empty line it appends as text, so it is never taken for headers) */
	g_string_append(msg, paras[0]);
	for (i = 1; i + 1 < n; i++)
		g_string_append_printf(msg, "\n\n%s", paras[i]);
	{
		g_autofree char *last = non_trailers(paras[n - 1]);

		g_string_append_printf(msg, "\n\n%s", last);
	}
	return g_string_free(msg, FALSE);
}

struct first {
	struct message *m;
};

static void
take_first(const char *msg, size_t len, void *data)
{
	struct first *f = data;

	if (!f->m)
		f->m = message_parse(msg, len, NULL);
}

/* b4's DEFAULT_MERGE_TEMPLATE */
static const char default_template[] =
    "Merge ${patch_or_series} \"${seriestitle}\"\n\n${authorname} "
    "<${authoremail}> says:\n\n${covermessage}\n\nLink: ${midurl}\n";

/* The value of variable @name (@len bytes) among @vals, or NULL. */
static const char *
lookup(const char *const *vals, const char *name, size_t len)
{
	guint i;

	for (i = 0; vals[i]; i += 2)
		if (strlen(vals[i]) == len && !strncmp(vals[i], name, len))
			return vals[i + 1];
	return NULL;
}

char *
mergemsg_fill(const char *tpl, const char *const *vals)
{
	GString *out = g_string_new(NULL);
	const char *p = tpl;

	while (*p) {
		const char *name = p + 1, *end, *v;
		gboolean braced = p[1] == '{';

		if (*p != '$') {
			g_string_append_c(out, *p++);
			continue;
		}
		if (p[1] == '$') {
			g_string_append_c(out, '$');
			p += 2;
			continue;
		}
		name += braced;
		for (end = name; g_ascii_isalnum(*end) || *end == '_'; end++)
			;
		v = end > name && !g_ascii_isdigit(*name) &&
			    (!braced || *end == '}')
			? lookup(vals, name, end - name)
			: NULL;
		if (!v) {
			/* unknown or malformed: left as written */
			g_string_append_c(out, *p++);
			continue;
		}
		g_string_append(out, v);
		p = end + braced;
	}
	return g_string_free(out, FALSE);
}

char *
mergemsg_build(const GString *cover, const GString *mbox, guint patches,
	       const char *link, const char *tpl)
{
	struct first f = {NULL};
	struct subject subj;
	g_autofree char *text = NULL;
	char *out;

	if (cover && cover->len)
		f.m = message_parse(cover->str, cover->len, NULL);
	if (f.m) {
		text = mergemsg_cover_text(message_body(f.m));
	} else {
		mbox_split(mbox->str, mbox->len, take_first, &f);
		text =
		    g_strdup("NOTE: No cover letter provided by the author.\n"
			     "      Add merge commit message here.");
	}
	if (!f.m)
		return NULL;
	subject_parse(f.m->subject ? f.m->subject : "", &subj);
	{
		const char *const vals[] = {
		    "patch_or_series",
		    patches > 1 ? "patch series" : "patch",
		    "seriestitle",
		    subj.title,
		    "authorname",
		    f.m->from_name,
		    "authoremail",
		    f.m->from_email,
		    "covermessage",
		    text,
		    "midurl",
		    link ? link : "",
		    NULL,
		};

		out = mergemsg_fill(tpl ? tpl : default_template, vals);
	}
	subject_clear(&subj);
	message_free(f.m);
	return out;
}

char *
mergemsg_template(const char *path, GError **err)
{
	g_autofree char *file = NULL, *text = NULL;
	g_auto(GStrv) lines = NULL;
	GString *out;
	gsize n;
	guint i;

	if (path[0] == '~' && (path[1] == '/' || !path[1]))
		file = g_build_filename(g_get_home_dir(), path + 1, NULL);
	else
		file = g_strdup(path);
	if (!g_file_get_contents(file, &text, &n, err))
		return NULL;
	if (n > MERGEMSG_MAX_TEMPLATE || strlen(text) != n ||
	    !g_utf8_validate(text, n, NULL)) {
		g_autofree char *s = lore_term_safe(file, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is no template: more than 64 KiB, or not "
			    "UTF-8 text",
			    s);
		return NULL;
	}
	out = g_string_new(NULL);
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i]; i++) {
		if (lines[i][0] == '#')
			continue;
		g_string_append(out, lines[i]);
		if (lines[i + 1])
			g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
