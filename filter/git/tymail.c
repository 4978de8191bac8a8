/*
 * tymail.c - b4 ty's generate_am_thanks() and set_branch_details() in C
 * (b4 0.12): the template (b4's default, or the configured file read as
 * b4 reads it), filled as Python's Template.safe_substitute fills it, the
 * ${summary} of the commits, ${branch} and ${treename} from the branch's
 * remote. tyreply.c makes the mail around it.
 */
#include "git/tymail.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

/* b4's DEFAULT_PR_TEMPLATE and DEFAULT_AM_TEMPLATE, line for line: the
 * same but for the word */
#define B4_TEMPLATE(DONE)                                                      \
	"\nOn ${sentdate}, ${fromname} wrote:\n${quote}\n\n" DONE              \
	", thanks!\n\n${summary}\n\nBest regards,\n-- \n${signature}\n"

static const char default_pr_template[] = B4_TEMPLATE("Merged");
static const char default_am_template[] = B4_TEMPLATE("Applied");

/* One `git config --get KEY` value, NULL when unset. */
static char *
git_cfg(const char *key)
{
	const char *const argv[] = {"config", "--get", key, NULL};
	GString *out = g_string_new(NULL);
	char *v = NULL;

	if (gitrun(NULL, argv, NULL, 0, out, NULL, NULL) == 0)
		v = g_strdup(g_strchomp(out->str));
	g_string_free(out, TRUE);
	return v;
}

/*
 * The one $NAME / ${NAME} scanner both fills use: at @p, a reference
 * whose name is ASCII letters, digits and '_' (not starting with a digit
 * unless @digit: os.path.expandvars takes "$1", a Template does not),
 * a ${NAME} closed by '}'. Where the reference ends, its name in @name
 * and @len; NULL when @p starts none.
 */
static const char *
var_ref(const char *p, gboolean digit, const char **name, gsize *len)
{
	gboolean brace = p[0] == '$' && p[1] == '{';
	const char *n = p + 1 + brace, *e = n;

	if (p[0] != '$' || !(g_ascii_isalpha(*n) || *n == '_' ||
			     (digit && g_ascii_isdigit(*n))))
		return NULL;
	for (e = n + 1; g_ascii_isalnum(*e) || *e == '_'; e++)
		;
	if (brace && *e != '}')
		return NULL;
	*name = n;
	*len = e - n;
	return e + brace;
}

typedef const char *(*var_lookup)(const char *name, void *data);

/* @s with each reference @lookup knows replaced by its value, the others
 * left as written; a Template's "$$" is one "$" (@template), and its
 * names start with no digit */
static char *
substitute(const char *s, gboolean template, var_lookup lookup, void *data)
{
	GString *o = g_string_new(NULL);

	while (*s) {
		const char *n, *end, *v;
		gsize len;
		g_autofree char *name = NULL;

		if (template && s[0] == '$' && s[1] == '$') {
			g_string_append_c(o, '$');
			s += 2;
			continue;
		}
		if (!(end = var_ref(s, !template, &n, &len))) {
			g_string_append_c(o, *s++);
			continue;
		}
		name = g_strndup(n, len);
		if ((v = lookup(name, data)))
			g_string_append(o, v);
		else
			g_string_append_len(o, s, end - s);
		s = end;
	}
	return g_string_free(o, FALSE);
}

static const char *
env_lookup(const char *name, void *data)
{
	return g_getenv(name);
}

/* os.path.expandvars: $NAME and ${NAME} from the environment, others
 * left as they are */
static char *
expand_vars(const char *s)
{
	return substitute(s, FALSE, env_lookup, NULL);
}

/* b4's read_template(): ~ and $VARS expanded, '#' lines left out */
static char *
read_template(const char *path, GError **err)
{
	g_autofree char *home = NULL, *full = NULL, *text = NULL;
	g_auto(GStrv) lines = NULL;
	GString *t;
	guint i;

	if (path[0] == '~' && (path[1] == '/' || !path[1]))
		home = g_strconcat(g_get_home_dir(), path + 1, NULL);
	full = expand_vars(home ? home : path);
	if (!g_file_get_contents(full, &text, NULL, err))
		return NULL;
	if (!g_utf8_validate(text, -1, NULL)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "the template '%s' is not UTF-8", full);
		return NULL;
	}
	t = g_string_new(NULL);
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i]; i++) {
		if (lines[i][0] == '#')
			continue;
		g_string_append(t, lines[i]);
		if (lines[i + 1])
			g_string_append_c(t, '\n');
	}
	return g_string_free(t, FALSE);
}

/* the last two parts of a remote's url, as b4 takes them with Path */
static char *
url_tree(const char *url)
{
	g_auto(GStrv) parts = g_strsplit(url, "/", -1);
	GPtrArray *keep = g_ptr_array_new();
	char *out;
	guint i;

	if (url[0] == '/')
		g_ptr_array_add(keep, "/");
	for (i = 0; parts[i]; i++)
		if (*parts[i] && strcmp(parts[i], "."))
			g_ptr_array_add(keep, parts[i]);
	if (keep->len < 2)
		out = g_strdup(url);
	else if (!strcmp(keep->pdata[keep->len - 2], "/"))
		out = g_strconcat("/", keep->pdata[keep->len - 1], NULL);
	else
		out =
		    g_strdup_printf("%s/%s", (char *)keep->pdata[keep->len - 2],
				    (char *)keep->pdata[keep->len - 1]);
	g_ptr_array_free(keep, TRUE);
	return out;
}

/* b4's get_branch_info(): the branch's remote (its own, or the one its
 * name starts with) and that remote's settings */
static char *
branch_remote(const char *branch, char **merged)
{
	g_autofree char *key = g_strdup_printf("branch.%s.remote", branch);
	char *remote = git_cfg(key);
	const char *const argv[] = {"remote", NULL};
	GString *out;
	g_auto(GStrv) names = NULL;
	guint i;

	if (remote) {
		g_autofree char *mk =
		    g_strdup_printf("branch.%s.merge", branch);
		g_autofree char *m = git_cfg(mk);

		if (m)
			*merged = g_strdup(g_str_has_prefix(m, "refs/heads/")
					       ? m + strlen("refs/heads/")
					       : m);
		return remote;
	}
	out = g_string_new(NULL);
	if (gitrun(NULL, argv, NULL, 0, out, NULL, NULL) == 0)
		names = g_strsplit(out->str, "\n", -1);
	g_string_free(out, TRUE);
	for (i = 0; names && names[i]; i++) {
		size_t n = strlen(names[i]);

		if (n && !strncmp(branch, names[i], n) && branch[n] == '/') {
			*merged = g_strdup(branch + n + 1);
			return g_strdup(names[i]);
		}
	}
	return NULL;
}

/* b4's set_branch_details(): ${branch}, ${treename}, and the remote's
 * own b4-treename, b4-commit-url-mask, b4-am-template and b4-pr-template
 * over the configuration's */
static void
branch_details(struct ty_setup *t, struct config *cfg, const char *branch,
	       char **tpl)
{
	const char *prt =
	    config_get(cfg, "thanks-pr-template", "thanks-pr-template");
	g_autofree char *merged = NULL;
	g_autofree char *remote = branch_remote(branch, &merged);
	g_autofree char *url = NULL, *rtree = NULL, *rmask = NULL;
	const char *tree =
	    config_get(cfg, "thanks-treename", "thanks-treename");
	const char *mask =
	    config_get(cfg, "thanks-commit-url-mask", "thanks-commit-url-mask");

	if (remote) {
		g_autofree char *k1 = g_strdup_printf("remote.%s.url", remote);
		g_autofree char *k2 =
		    g_strdup_printf("remote.%s.b4-treename", remote);
		g_autofree char *k3 =
		    g_strdup_printf("remote.%s.b4-commit-url-mask", remote);
		g_autofree char *k4 =
		    g_strdup_printf("remote.%s.b4-am-template", remote);
		g_autofree char *k5 =
		    g_strdup_printf("remote.%s.b4-pr-template", remote);
		char *rtpl;

		url = git_cfg(k1);
		rtree = git_cfg(k2);
		rmask = git_cfg(k3);
		if ((rtpl = git_cfg(k4))) {
			g_free(*tpl);
			*tpl = rtpl;
		}
		t->prpath = git_cfg(k5);
	}
	if (!t->prpath && prt && *prt)
		t->prpath = g_strdup(prt);
	t->branch = g_strdup(merged ? merged : branch);
	if (rtree || tree)
		t->treename = g_strdup(rtree ? rtree : tree);
	else
		t->treename = url ? url_tree(url) : g_strdup("local tree");
	t->cidmask = g_strdup(rmask	      ? rmask
			      : mask && *mask ? mask
					      : "commit: %s");
	t->mergemask = g_strdup(rmask		? rmask
				: mask && *mask ? mask
						: "merge commit: %s");
}

struct ty_setup *
tymail_setup(struct config *cfg, const char *branch, GError **err)
{
	struct ty_setup *t = g_new0(struct ty_setup, 1);
	const char *email = config_raw(cfg, "user.email");
	const char *name = config_raw(cfg, "user.name");
	g_autofree char *tpl = g_strdup(
	    config_get(cfg, "thanks-am-template", "thanks-am-template"));
	const char *ex = config_get(cfg, "email-exclude", "email-exclude");
	g_autofree char *sigfile =
	    g_build_filename(g_get_home_dir(), ".signature", NULL);
	guint i;

	t->excludes = g_ptr_array_new_with_free_func(g_free);
	t->mailmap =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (!email || !*email) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "set user.email in git config: the thanks come "
			    "from it");
		goto fail;
	}
	t->myemail = g_strdup(email);
	t->myname = g_strdup(name ? name : g_get_real_name());
	if (!g_file_get_contents(sigfile, &t->signature, NULL, NULL))
		t->signature = g_strdup_printf("%s <%s>", t->myname, email);
	branch_details(t, cfg, branch, &tpl);
	if (tpl && *tpl) {
		GError *e = NULL;

		if (!(t->template = read_template(tpl, &e))) {
			g_set_error(
			    err, LORE_ERROR, LORE_EUSAGE,
			    "thanks-am-template '%s' cannot be read: %s", tpl,
			    e->message);
			g_error_free(e);
			goto fail;
		}
	} else {
		t->template = g_strdup(default_am_template);
	}
	if (ex) {
		g_auto(GStrv) globs = g_strsplit(ex, ",", -1);

		for (i = 0; globs[i]; i++)
			g_ptr_array_add(t->excludes,
					g_strdup(g_strstrip(globs[i])));
	}
	return t;
fail:
	tymail_setup_free(t);
	return NULL;
}

void
tymail_setup_free(struct ty_setup *t)
{
	if (!t)
		return;
	g_free(t->myname);
	g_free(t->myemail);
	g_free(t->signature);
	g_free(t->branch);
	g_free(t->treename);
	g_free(t->template);
	g_free(t->cidmask);
	g_free(t->mergemask);
	g_free(t->prtemplate);
	g_free(t->prpath);
	g_ptr_array_unref(t->excludes);
	g_hash_table_destroy(t->mailmap);
	g_free(t);
}

char *
tymail_summary(const struct ty_setup *t, const struct ty_series *s,
	       char *const *commits)
{
	GString *o = g_string_new(NULL);
	char num[16];
	int pad = g_snprintf(num, sizeof(num), "%u", s->npatches);
	guint i;

	for (i = 0; i < s->npatches; i++) {
		g_autofree char *prefix =
		    s->patches[i].prefix
			? g_strdup_printf("[%s] ", s->patches[i].prefix)
			: g_strdup_printf("[%0*u/%u] ", pad, i + 1,
					  s->npatches);
		g_autofree char *cid =
		    commits[i] ? lore_mask_fill(t->cidmask, commits[i]) : NULL;
		glong w = g_utf8_strlen(prefix, -1);

		g_string_append_printf(o, "%s%s%s\n%*s%s", i ? "\n" : "",
				       prefix, s->patches[i].title, (int)w, "",
				       cid ? cid : "(no commit info)");
	}
	return g_string_free(o, FALSE);
}

static const char *
table_lookup(const char *name, void *data)
{
	return g_hash_table_lookup(data, name);
}

char *
tymail_fill(const char *tpl, GHashTable *vars)
{
	return substitute(tpl, TRUE, table_lookup, vars);
}

const char *
tymail_pr_template(struct ty_setup *t, GError **err)
{
	GError *e = NULL;

	if (t->prtemplate)
		return t->prtemplate;
	if (!t->prpath || !*t->prpath)
		return t->prtemplate = g_strdup(default_pr_template);
	if (!(t->prtemplate = read_template(t->prpath, &e))) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "thanks-pr-template '%s' cannot be read: %s",
			    t->prpath, e->message);
		g_error_free(e);
	}
	return t->prtemplate;
}
