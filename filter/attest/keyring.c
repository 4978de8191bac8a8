/*
 * keyring.c - the key sources patatt reads (patatt's get_public_key()), in
 * its order, and the same file layout. Git does the reading of "ref:"
 * sources (git show REF:PATH), so packed refs, worktrees and symbolic
 * links inside the tree behave as git has them.
 */
#include "attest/keyring.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

struct keyring {
	GPtrArray *sources; /* char *, NULL until the first look-up */
	char *toplevel;	    /* the current repository's, or NULL */
	GHashTable *cache;  /* "ALGO/ID/SEL" -> GBytes (empty: not found) */
};

struct keyring *
keyring_new(void)
{
	struct keyring *k = g_new0(struct keyring, 1);

	k->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 (GDestroyNotify)g_bytes_unref);
	return k;
}

void
keyring_free(struct keyring *k)
{
	if (!k)
		return;
	if (k->sources)
		g_ptr_array_unref(k->sources);
	g_free(k->toplevel);
	g_hash_table_unref(k->cache);
	g_free(k);
}

/* Python's urllib.parse.quote_plus(), which patatt applies to each part. */
static void
quote_plus(GString *to, const char *s)
{
	for (; *s; s++) {
		guchar c = g_ascii_tolower(*s);

		if (g_ascii_isalnum(c) || strchr("_.-~", c))
			g_string_append_c(to, c);
		else if (c == ' ')
			g_string_append_c(to, '+');
		else
			g_string_append_printf(to, "%%%02X", c);
	}
}

char *
keyring_key_path(const char *algo, const char *identity, const char *selector)
{
	const char *at = identity ? strchr(identity, '@') : NULL;
	const char *parts[4];
	g_autofree char *local = NULL;
	GString *p;
	guint i;

	if (!at || !selector)
		return NULL;
	local = g_strndup(identity, at - identity);
	parts[0] = algo;
	parts[1] = at + 1;
	parts[2] = local;
	parts[3] = selector;
	p = g_string_new(NULL);
	for (i = 0; i < G_N_ELEMENTS(parts); i++) {
		/* patatt would climb out of the keyring with these */
		if (!*parts[i] || !strcmp(parts[i], ".") ||
		    !strcmp(parts[i], "..")) {
			g_string_free(p, TRUE);
			return NULL;
		}
		if (i)
			g_string_append_c(p, '/');
		quote_plus(p, parts[i]);
	}
	return g_string_free(p, FALSE);
}

/* "~/x" and "$VAR"/"${VAR}" as patatt expands them (expanduser and
 * expandvars: an unknown variable stays as written). */
static char *
expand(const char *src)
{
	GString *o = g_string_new(NULL);
	const char *s = src;

	if (s[0] == '~' && (s[1] == '/' || !s[1])) {
		g_string_append(o, g_get_home_dir());
		s++;
	}
	while (*s) {
		const char *name = s + 1, *end;
		gboolean brace = *name == '{';
		g_autofree char *var = NULL;
		const char *val;

		if (*s != '$') {
			g_string_append_c(o, *s++);
			continue;
		}
		name += brace;
		for (end = name; g_ascii_isalnum(*end) || *end == '_'; end++)
			;
		if (end == name || (brace && *end != '}')) {
			g_string_append_c(o, *s++);
			continue;
		}
		var = g_strndup(name, end - name);
		val = g_getenv(var);
		end += brace;
		if (val)
			g_string_append(o, val);
		else
			g_string_append_len(o, s, end - s);
		s = end;
	}
	return g_string_free(o, FALSE);
}

/* git's stdout, first line, or NULL when git says no. */
static char *
git_line(const char *const *argv)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) err = g_string_new(NULL);

	if (gitrun(NULL, argv, NULL, 0, out, err, NULL) != 0 || !out->len)
		return NULL;
	return gitrun_first_line(out->str);
}

static void
load_sources(struct keyring *k)
{
	static const char *const cfg[] = {"config", "--get-all",
					  "patatt.keyringsrc", NULL};
	static const char *const top[] = {"rev-parse", "--show-toplevel", NULL};
	static const char *const defaults[] = {
	    "ref:::.keys", "ref:::.local-keys", "ref::refs/meta/keyring:"};
	g_autoptr(GString) out = g_string_new(NULL);
	const char *data = g_get_user_data_dir();
	guint i;

	k->sources = g_ptr_array_new_with_free_func(g_free);
	if (gitrun(NULL, cfg, NULL, 0, out, NULL, NULL) == 0) {
		g_auto(GStrv) v = g_strsplit(out->str, "\n", -1);

		for (i = 0; v[i]; i++)
			if (*lore_strip(v[i]))
				g_ptr_array_add(k->sources, g_strdup(v[i]));
	}
	for (i = 0; i < G_N_ELEMENTS(defaults); i++)
		g_ptr_array_add(k->sources, g_strdup(defaults[i]));
	g_ptr_array_add(k->sources,
			g_build_filename(data, "patatt", "public", NULL));
	g_ptr_array_add(k->sources,
			g_build_filename(data, "b4", "keyring", NULL));
	k->toplevel = git_line(top);
}

static GBytes *
read_file(const char *path)
{
	char *buf;
	gsize len;

	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR) ||
	    !g_file_get_contents(path, &buf, &len, NULL))
		return NULL;
	return g_bytes_new_take(buf, len);
}

static GBytes *
git_show(const char *gitdir, const char *ref, const char *path)
{
	g_autofree char *spec = g_strdup_printf("%s:%s", ref, path);
	const char *argv[] = {"--git-dir", gitdir, "show", spec, NULL};
	GString *out = g_string_new(NULL);
	g_autoptr(GString) err = g_string_new(NULL);

	if (gitrun(NULL, argv, NULL, 0, out, err, NULL) != 0) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free_to_bytes(out);
}

/* "ref:REPO:REF:SUBPATH": REPO empty is the current repository, REF empty
 * the branch checked out there; a key not yet committed is read from the
 * work tree. */
static GBytes *
from_ref(struct keyring *k, const char *src, const char *keypath)
{
	g_auto(GStrv) part = g_strsplit(src, ":", 5);
	g_autofree char *repo = NULL, *gitdir = NULL, *ref = NULL;
	g_autofree char *sub = NULL, *dotgit = NULL;
	GBytes *key;

	if (g_strv_length(part) < 4)
		return NULL;
	repo = *part[1] ? expand(part[1]) : g_strdup(k->toplevel);
	if (!repo)
		return NULL;
	dotgit = g_build_filename(repo, ".git", NULL);
	gitdir =
	    g_strdup(g_file_test(dotgit, G_FILE_TEST_IS_DIR) ? dotgit : repo);
	ref = g_strdup(part[2]);
	if (!*ref) {
		const char *argv[] = {"--git-dir", gitdir, "symbolic-ref",
				      "HEAD", NULL};

		g_free(ref);
		if (!(ref = git_line(argv)))
			return NULL;
	}
	sub = *part[3] ? g_build_filename(part[3], keypath, NULL)
		       : g_strdup(keypath);
	key = git_show(gitdir, ref, sub);
	if (key && g_bytes_get_size(key) < 256 &&
	    !memchr(g_bytes_get_data(key, NULL), '\n', g_bytes_get_size(key))) {
		/* a symbolic link in the tree (patatt genkey makes "default"
		 * one): git shows its target; follow it one level */
		g_autofree char *dir = g_path_get_dirname(sub);
		g_autofree char *to = g_strndup(g_bytes_get_data(key, NULL),
						g_bytes_get_size(key));
		g_autofree char *lpath = g_build_filename(dir, to, NULL);
		GBytes *linked = NULL;

		if (!strstr(to, "..") && *to != '/')
			linked = git_show(gitdir, ref, lpath);
		if (linked) {
			g_bytes_unref(key);
			key = linked;
		}
	}
	if (!key) {
		g_autofree char *wt = g_build_filename(repo, sub, NULL);

		key = read_file(wt);
	}
	return key;
}

GBytes *
keyring_find(struct keyring *k, const char *algo, const char *identity,
	     const char *selector)
{
	g_autofree char *keypath = keyring_key_path(algo, identity, selector);
	GBytes *key = NULL;
	guint i;

	if (!keypath)
		return NULL;
	if (g_hash_table_contains(k->cache, keypath)) {
		key = g_hash_table_lookup(k->cache, keypath);
		return g_bytes_get_size(key) ? g_bytes_ref(key) : NULL;
	}
	if (!k->sources)
		load_sources(k);
	for (i = 0; !key && i < k->sources->len; i++) {
		const char *src = k->sources->pdata[i];

		if (g_str_has_prefix(src, "ref:")) {
			key = from_ref(k, src, keypath);
		} else {
			g_autofree char *dir = expand(src);
			g_autofree char *path =
			    g_build_filename(dir, keypath, NULL);

			key = read_file(path);
		}
		if (key && !g_bytes_get_size(key))
			g_clear_pointer(&key, g_bytes_unref);
	}
	g_hash_table_insert(k->cache, g_strdup(keypath),
			    key ? g_bytes_ref(key) : g_bytes_new(NULL, 0));
	return key;
}
