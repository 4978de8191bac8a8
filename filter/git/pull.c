/*
 * pull.c - a pull request fetched with real git and weighed as git
 * request-pull would describe it (shortlog and diffstat from the merge
 * base), and exploded with git format-patch as b4 pr -e does. The URL and
 * ref were checked by pullreq.c; git is told again which transports it
 * may use, and never to ask for a password: the URL comes from a mail.
 */
#include "git/pull.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "mail/mbox.h"
#include "mail/subject.h"

#include <stdlib.h>
#include <string.h>

/* what each git run may keep of a hostile server's words */
#define PULL_ERR_MAX 400

void
pull_clear(struct pull *p)
{
	g_free(p->tip);
	g_free(p->base);
	if (p->shortlog)
		g_string_free(p->shortlog, TRUE);
	if (p->diffstat)
		g_string_free(p->diffstat, TRUE);
	memset(p, 0, sizeof(*p));
}

/* git's last line of complaint, terminal-safe and bounded (g_free) */
static char *
last_words(const GString *e)
{
	g_autofree char *s = g_strndup(e->str, MIN(e->len, 4096));
	char **lines, *out = NULL;
	int i;

	g_strchomp(s);
	lines = g_strsplit(s, "\n", -1);
	for (i = (int)g_strv_length(lines) - 1; i >= 0 && !out; i--)
		if (*g_strstrip(lines[i]))
			out = lore_term_safe(
			    lines[i], MIN(strlen(lines[i]), PULL_ERR_MAX));
	g_strfreev(lines);
	return out ? out : g_strdup("git gave no reason");
}

/* "git ARGV..." here; its output in @out. Git's status, -1 if not run. */
static int
git(const char *const *argv, GString *out, GString *errout)
{
	GError *e = NULL;
	int rc = gitrun(NULL, argv, NULL, 0, out, errout, &e);

	if (rc < 0)
		lore_err_take(e);
	return rc;
}

/* git's status alone, its words kept from the terminal */
static int
git_quiet(const char *const *argv)
{
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	int rc = git(argv, o, e);

	g_string_free(o, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

/* The commit @rev names, full id (g_free); NULL when none. */
static char *
commit_of(const char *rev)
{
	g_autofree char *peeled = g_strconcat(rev, "^{commit}", NULL);
	const char *argv[] = {"rev-parse", "--verify", "-q", peeled, NULL};
	GString *o = g_string_new(NULL);
	char *id = NULL;

	if (git(argv, o, NULL) == 0)
		id = gitrun_first_line(o->str);
	g_string_free(o, TRUE);
	return id;
}

static int
fetch(const struct pullreq *pr, GError **err)
{
	/* the URL is a mail's: only these transports, never a prompt */
	const char *argv[] = {"-c",	   "protocol.allow=never",
			      "-c",	   "protocol.git.allow=always",
			      "-c",	   "protocol.http.allow=always",
			      "-c",	   "protocol.https.allow=always",
			      "-c",	   "protocol.ssh.allow=always",
			      "fetch",	   "-q",
			      "--no-tags", "--",
			      pr->url,	   pr->ref,
			      NULL};
	GString *e = g_string_new(NULL);
	g_autofree char *url = lore_term_safe(pr->url, -1);
	int rc;

	g_setenv("GIT_TERMINAL_PROMPT", "0", TRUE);
	g_setenv("GIT_SSH_COMMAND", "ssh -oBatchMode=yes", FALSE);
	rc = git(argv, NULL, e);
	if (rc) {
		g_autofree char *why = last_words(e);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "cannot fetch %s%s%s: %s", url, pr->ref ? " " : "",
			    pr->ref ? pr->ref : "", why);
	}
	g_string_free(e, TRUE);
	return rc ? LORE_ENOTFOUND : LORE_OK;
}

/* Where the pulled commits start: the merge base with HEAD; when HEAD
 * already has them all, the mail's base, if this repository has it. */
static void
find_base(const struct pullreq *pr, struct pull *p)
{
	const char *anc[] = {"merge-base", "--is-ancestor", p->tip, "HEAD",
			     NULL};
	const char *mb[] = {"merge-base", "HEAD", p->tip, NULL};
	g_autofree char *mail_base = pr->base ? commit_of(pr->base) : NULL;
	GString *o = g_string_new(NULL);

	p->base_known = mail_base != NULL;
	p->merged = git_quiet(anc) == 0;
	if (p->merged && mail_base)
		p->base = g_steal_pointer(&mail_base);
	else if (!p->merged && git(mb, o, NULL) == 0)
		p->base = gitrun_first_line(o->str);
	g_string_free(o, TRUE);
}

static void
describe(struct pull *p)
{
	g_autofree char *range = g_strdup_printf("%s..%s", p->base, p->tip);
	const char *sl[] = {"shortlog", range, NULL};
	const char *ds[] = {"diff",   "--no-color", "--no-ext-diff", "-M",
			    "--stat", p->base,	    p->tip,	     NULL};
	const char *cnt[] = {"rev-list", "--count", range, NULL};
	GString *o = g_string_new(NULL);
	const char *last;

	p->shortlog = g_string_new(NULL);
	p->diffstat = g_string_new(NULL);
	if (git(cnt, o, NULL) == 0)
		p->commits = (guint)strtoul(o->str, NULL, 10);
	git(sl, p->shortlog, NULL);
	git(ds, p->diffstat, NULL);
	g_strchomp(p->diffstat->str);
	p->diffstat->len = strlen(p->diffstat->str);
	last = strrchr(p->diffstat->str, '\n');
	last = last ? last + 1 : p->diffstat->str;
	p->stat =
	    pullreq_stat_line(last, &p->files, &p->insertions, &p->deletions);
	g_string_free(o, TRUE);
}

int
pull_fetch(const struct pullreq *pr, struct pull *p, GError **err)
{
	const char *top[] = {"rev-parse", "--git-dir", NULL};
	int rc;

	memset(p, 0, sizeof(*p));
	if (git_quiet(top) != 0) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "not in a git repository: run it where the pull "
			    "goes");
		return LORE_EUSAGE;
	}
	if ((rc = fetch(pr, err)))
		return rc;
	p->tip = commit_of("FETCH_HEAD");
	if (!p->tip) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "FETCH_HEAD names no commit after the fetch");
		return LORE_ENOTFOUND;
	}
	if (pr->tip && g_ascii_strncasecmp(p->tip, pr->tip, strlen(pr->tip))) {
		g_set_error(err, LORE_ERROR, LORE_EPULL,
			    "the fetched tip %.12s is not the commit the mail "
			    "names (%s): the branch moved, or is not what was "
			    "asked for",
			    p->tip, pr->tip);
		return LORE_EPULL;
	}
	find_base(pr, p);
	if (p->base)
		describe(p);
	return LORE_OK;
}

int
pull_checkout(const char *branch, GError **err)
{
	const char *argv[] = {"checkout", "-q",		"-b",
			      branch,	  "FETCH_HEAD", NULL};
	GString *e = g_string_new(NULL);
	int rc = *branch == '-' ? 1 : git(argv, NULL, e);

	if (rc) {
		g_autofree char *b = lore_term_safe(branch, -1);
		g_autofree char *why = *branch == '-'
					   ? g_strdup("a branch name cannot "
						      "start with '-'")
					   : last_words(e);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot check the pull out as branch '%s': %s", b,
			    why);
	}
	g_string_free(e, TRUE);
	return rc ? LORE_EUSAGE : LORE_OK;
}

/* One patch of git format-patch's output, made a mail of the thread. */
struct explode {
	struct thread *t;
	const char *prid;
	guint n;
};

static void
add_patch(const char *msg, size_t len, void *data)
{
	struct explode *x = data;
	GString *m = g_string_new(NULL);
	const char *nl;

	/* format-patch's own From_ line is the mbox's, not the mail's */
	if (len > 5 && !strncmp(msg, "From ", 5) &&
	    (nl = memchr(msg, '\n', len))) {
		len -= nl + 1 - msg;
		msg = nl + 1;
	}
	x->n++;
	g_string_printf(m,
			"Message-Id: <lore-am-explode-%u-%s>\n"
			"In-Reply-To: <%s>\nReferences: <%s>\n",
			x->n, x->prid, x->prid, x->prid);
	g_string_append_len(m, msg, len);
	thread_add_raw(x->t, m->str, m->len, "pull request");
	g_string_free(m, TRUE);
}

/* The pull request mail as the cover letter of @n patches. */
static void
add_cover(struct thread *t, struct message *pr, const char *base, guint n)
{
	struct subject subj;
	GString *c = g_string_new(NULL);

	subject_parse(pr->subject ? pr->subject : "", &subj);
	g_string_append_printf(c, "From: %s\n",
			       pr->from_hdr ? pr->from_hdr : "");
	if (pr->date_hdr)
		g_string_append_printf(c, "Date: %s\n", pr->date_hdr);
	g_string_append_printf(c,
			       "Subject: [PATCH 0/%u] %s\nMessage-Id: <%s>\n"
			       "MIME-Version: 1.0\nContent-Type: text/plain; "
			       "charset=utf-8\nContent-Transfer-Encoding: "
			       "8bit\n\n%s\n\nbase-commit: %s\n",
			       n, subj.title, pr->msgid, message_body(pr),
			       base);
	thread_add_raw(t, c->str, c->len, "pull request");
	subject_clear(&subj);
	g_string_free(c, TRUE);
}

/* Is @m a reply, at any depth, to the message @id in @t? */
static gboolean
answers(struct thread *t, struct message *m, const char *id)
{
	guint depth = 0;

	while ((m = thread_parent(t, m)) && depth++ < 10000)
		if (!strcmp(m->msgid, id))
			return TRUE;
	return FALSE;
}

int
pull_explode(const struct pull *p, struct message *prmsg,
	     struct thread *replies, struct thread **out, GError **err)
{
	g_autofree char *range = NULL;
	const char *argv[] = {
	    "format-patch", "--stdout", "--numbered", "--no-cover-letter",
	    "--no-thread",  "-M",	NULL,	      NULL};
	struct explode x = {thread_new(), prmsg->msgid, 0};
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	guint i;
	int rc;

	if (!p->base || !p->commits) {
		thread_free(x.t);
		g_string_free(o, TRUE);
		g_string_free(e, TRUE);
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "no commits to write: %s",
			    p->merged ? "HEAD already has them, and the mail "
					"names no base this repository has"
				      : "the tip has no history in common "
					"with HEAD");
		return LORE_ENOTFOUND;
	}
	range = g_strdup_printf("%s..%s", p->base, p->tip);
	argv[6] = range;
	rc = git(argv, o, e);
	if (rc == 0)
		mbox_split(o->str, o->len, add_patch, &x);
	if (rc || !x.n) {
		g_autofree char *why = last_words(e);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "git format-patch %s wrote no patches: %s", range,
			    why);
		thread_free(x.t);
		x.t = NULL;
	} else {
		add_cover(x.t, prmsg, p->base, x.n);
		for (i = 0; replies && i < replies->msgs->len; i++) {
			struct message *m = replies->msgs->pdata[i];

			if (answers(replies, m, prmsg->msgid))
				thread_add_raw(x.t, m->raw, m->len, m->origin);
		}
	}
	g_string_free(o, TRUE);
	g_string_free(e, TRUE);
	*out = x.t;
	return x.t ? LORE_OK : LORE_ENOTFOUND;
}
