/*
 * pullsig.c - the signature on a fetched pull request, by real git: the
 * object's type first (git cat-file -t), then git verify-tag or
 * verify-commit with --raw, whose stderr carries GnuPG's status lines.
 * What the signer wrote into a user id is hostile: bounded and made
 * terminal-safe here.
 */
#include "git/pullsig.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/* what is read of git's words: GnuPG's status for one signature is a
 * few hundred bytes */
#define PULLSIG_KEEP (64 * 1024)
/* a user id or key id shown, at most */
#define PULLSIG_FIELD_MAX 200
/* gpg may be slow (an agent to start), never stuck for ever */
#define PULLSIG_TIMEOUT 60

void
pullsig_clear(struct pullsig *s)
{
	g_free(s->keyid);
	g_free(s->signer);
	g_free(s->why);
	memset(s, 0, sizeof(*s));
}

/* The words after "[GNUPG:] @key " on the line @l (up to @end), or NULL. */
static const char *
status_arg(const char *l, const char *end, const char *key)
{
	static const char lead[] = "[GNUPG:] ";
	size_t n = strlen(key);

	if ((size_t)(end - l) < sizeof(lead) - 1 + n ||
	    memcmp(l, lead, sizeof(lead) - 1))
		return NULL;
	l += sizeof(lead) - 1;
	if (memcmp(l, key, n) || (l + n < end && l[n] != ' '))
		return NULL;
	return l + n < end ? l + n + 1 : end;
}

/* The first word of @p (to @end) as a key id, or the rest as a user id. */
static char *
field(const char *p, const char *end, gboolean word)
{
	const char *e = p;

	while (e < end && (!word || *e != ' '))
		e++;
	return lore_term_safe(p, MIN((size_t)(e - p), PULLSIG_FIELD_MAX));
}

/* One status line: GOODSIG/BADSIG/ERRSIG name the key, the first names
 * the signer too. Returns TRUE when the line said something. */
static gboolean
status_line(const char *l, const char *end, struct pullsig *s, gboolean *valid,
	    gboolean *good)
{
	static const char *const bad[] = {"BADSIG", "EXPKEYSIG", "REVKEYSIG",
					  "EXPSIG"};
	const char *a;
	guint i;

	if ((a = status_arg(l, end, "GOODSIG"))) {
		const char *sp = memchr(a, ' ', end - a);

		*good = TRUE;
		g_free(s->keyid);
		s->keyid = field(a, end, TRUE);
		g_free(s->signer);
		s->signer = sp ? field(sp + 1, end, FALSE) : NULL;
		return TRUE;
	}
	if (status_arg(l, end, "VALIDSIG")) {
		*valid = TRUE;
		return TRUE;
	}
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		if ((a = status_arg(l, end, bad[i]))) {
			s->state = PULLSIG_BAD;
			g_free(s->keyid);
			s->keyid = field(a, end, TRUE);
			g_free(s->why);
			s->why = g_ascii_strdown(bad[i], -1);
			return TRUE;
		}
	}
	if ((a = status_arg(l, end, "ERRSIG")) ||
	    (a = status_arg(l, end, "NO_PUBKEY"))) {
		if (s->state != PULLSIG_BAD)
			s->state = PULLSIG_NOKEY;
		if (!s->keyid)
			s->keyid = field(a, end, TRUE);
		return TRUE;
	}
	return status_arg(l, end, "NEWSIG") != NULL;
}

/* git's words for a good SSH signature (gpg.format=ssh): "Good "git"
 * signature for SIGNER with ... key ..." */
static gboolean
ssh_good(const char *p, const char *end, struct pullsig *s)
{
	static const char lead[] = "Good \"git\" signature for ";
	const char *a = g_strstr_len(p, end - p, lead), *w;

	if (!a)
		return FALSE;
	a += sizeof(lead) - 1;
	w = g_strstr_len(a, end - a, " with ");
	if (!w)
		return FALSE;
	s->state = PULLSIG_GOOD;
	s->signer = field(a, w, FALSE);
	return TRUE;
}

void
pullsig_parse(const char *status, size_t len, int rc, struct pullsig *out)
{
	const char *p = status, *end = status + MIN(len, PULLSIG_KEEP);
	gboolean valid = FALSE, good = FALSE, any = FALSE;
	gboolean tag = out->tag;

	pullsig_clear(out);
	out->tag = tag;
	out->state = PULLSIG_UNCHECKED;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;

		any |= status_line(p, le, out, &valid, &good);
		p = nl ? nl + 1 : end;
	}
	if (out->state == PULLSIG_BAD || out->state == PULLSIG_NOKEY)
		return;
	if (good && valid && rc == 0) {
		out->state = PULLSIG_GOOD;
		return;
	}
	if (!any && rc == 0 && ssh_good(status, end, out))
		return;
	if (!any && rc != 0 &&
	    (!len ||
	     g_strstr_len(status, end - status, "no signature found"))) {
		out->state = PULLSIG_UNSIGNED;
		return;
	}
	out->state = PULLSIG_UNCHECKED;
	if (!out->why && len) {
		/* gitrun_reason() reads a string: a copy that ends */
		GString *e = g_string_new_len(status, end - status);

		out->why = gitrun_reason(e);
		g_string_free(e, TRUE);
	} else if (!out->why) {
		out->why = g_strdup("git said nothing");
	}
}

/* "git ARGV" within bounds; stderr in @err, the status returned (-1 when
 * git could not run, with @why set) */
static int
run(const char *const *argv, GString *out, GString *err, char **why)
{
	struct gitrun_bound b = {
	    .timeout = PULLSIG_TIMEOUT, .keep = PULLSIG_KEEP, .errout = err};
	GError *e = NULL;
	int rc = gitrun_bounded(NULL, argv, NULL, 0, out, &b, &e);

	if (rc < 0) {
		*why = lore_term_safe(e->message, -1);
		g_error_free(e);
	}
	return rc;
}

void
pullsig_check(const char *rev, struct pullsig *out)
{
	const char *type[] = {"git", "cat-file", "-t", rev, NULL};
	const char *vt[] = {"git", "verify-tag", "--raw", rev, NULL};
	const char *vc[] = {"git", "verify-commit", "--raw", rev, NULL};
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	char *why = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->state = PULLSIG_UNCHECKED;
	rc = run(type, o, e, &why);
	if (rc == 0) {
		g_strchomp(o->str);
		out->tag = !strcmp(o->str, "tag");
		g_string_truncate(e, 0);
		rc = run(out->tag ? vt : vc, o, e, &why);
	} else if (rc > 0) {
		why = gitrun_reason(e);
	}
	if (rc >= 0 && !why)
		pullsig_parse(e->str, e->len, rc, out);
	else
		out->why = why;
	g_string_free(o, TRUE);
	g_string_free(e, TRUE);
}
