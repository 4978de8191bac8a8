/*
 * The settings read from git's files directly (gitconfig.c) against the
 * same settings from a real `git config` call (config_load_git), on a table
 * of global, repository and system files: the two tables must be equal,
 * and the plain forms must be read without git while everything else
 * (quotes, escapes, includes, GIT_CONFIG_COUNT, ...) is left to git.
 */
#include "core/config.h"
#include "core/gitconfig.h"
#include "tap.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <unistd.h>

static const struct {
	const char *what;
	const char *global, *local, *system, *env;
	gboolean outside; /* run outside the repository */
	gboolean direct;  /* read without git */
} cases[] = {
    {"identity", "[user]\n\tname = A U Thor\n\temail = a@example.org\n", "",
     NULL, NULL, FALSE, TRUE},
    {"b4 and lore-am keys, the repository wins",
     "[b4]\n\tmidmask = https://lore.example/%s\n"
     "[lore-am]\n\tstatus-header\n",
     "[lore-am]\n\tstatus-header = false\n", NULL, NULL, FALSE, TRUE},
    {"case, blanks inside and around a value, comments",
     "[LORE-AM]\n  MidMask=x   y\t z  # c\n;comment\n\n# more\n"
     "[user]  # the identity\n\tname\t=\tTab\tBed ;x\n",
     "", NULL, NULL, FALSE, TRUE},
    {"a subsection and an unrelated section",
     "[b4 \"Sub\"]\n\tKey = v ; c\n[core]\n\tbare = false\n"
     "[alias]\n\tco = checkout\n",
     "", NULL, NULL, FALSE, TRUE},
    {"CRLF line ends", "[user]\r\n\tname = Win Dows\r\n", "", NULL, NULL, FALSE,
     TRUE},
    {"an empty value, no final newline", "[user]\n\temail =", "", NULL, NULL,
     FALSE, TRUE},
    {"UTF-8 in a value",
     "[user]\n\tname = Zo\xc3\xab \xc3\x98"
     "degaard\n",
     "", NULL, NULL, FALSE, TRUE},
    {"outside any repository", "[b4]\n\tlinkmask = https://l/%s\n", NULL, NULL,
     NULL, TRUE, TRUE},
    {"the system file first (GIT_CONFIG_SYSTEM)", "[b4]\n\tmidmask = global\n",
     "", "[b4]\n\tmidmask = system\n\ttrailer-order = a,b\n", NULL, FALSE,
     TRUE},
    {"a quoted value", "[user]\n\tname = \"A ; B\"\n", "", NULL, NULL, FALSE,
     FALSE},
    {"an escape", "[user]\n\tname = a\\tb\n", "", NULL, NULL, FALSE, FALSE},
    {"a continued line", "[user]\n\tname = a\\\n b\n", "", NULL, NULL, FALSE,
     FALSE},
    {"an include", "[user]\n\tname = x\n[include]\n\tpath = other\n", "", NULL,
     NULL, FALSE, FALSE},
    {"a conditional include in the repository", "",
     "[includeIf \"gitdir:/\"]\n\tpath = other\n", NULL, NULL, FALSE, FALSE},
    {"a key on the header's line", "[user] name = X\n", "", NULL, NULL, FALSE,
     FALSE},
    {"an old-style subsection", "[b4.sub]\n\tkey = v\n", "", NULL, NULL, FALSE,
     FALSE},
    {"settings on git's command line", "[user]\n\tname = file\n", "", NULL,
     "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name "
     "GIT_CONFIG_VALUE_0=env",
     FALSE, FALSE},
    {"GIT_DIR", "[user]\n\tname = file\n", "", NULL, "GIT_DIR=.", FALSE, FALSE},
};

static gboolean
same_table(GHashTable *a, GHashTable *b)
{
	GHashTableIter it;
	gpointer k, v;

	if (g_hash_table_size(a) != g_hash_table_size(b))
		return FALSE;
	g_hash_table_iter_init(&it, a);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		const char *w = g_hash_table_lookup(b, k);

		if (!w || strcmp(v, w))
			return FALSE;
	}
	return TRUE;
}

static void
show(const char *who, GHashTable *t)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, t);
	while (g_hash_table_iter_next(&it, &k, &v))
		printf("#   %s: %s = '%s'\n", who, (char *)k, (char *)v);
}

static void
write_file(const char *path, const char *text)
{
	if (!g_file_set_contents(path, text, -1, NULL))
		abort();
}

/*
 * Without git on the PATH: nothing when the system file is the one of
 * the git on the PATH (as before), the files when the environment names
 * it, git not needed to read them. First, before any git runs: git is
 * looked up once a process (gitenv_git()), and here none is found; the
 * git runs below fall back to their own PATH search.
 */
static void
no_git(const char *gcfg, const char *outside)
{
	GHashTable *t =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autofree char *path = g_strdup(g_getenv("PATH"));
	const char *v;

	write_file(gcfg, "[user]\n\tname = No Git\n");
	if (chdir(outside) < 0)
		abort();
	g_setenv("PATH", "/nonexistent", TRUE);
	g_unsetenv("GIT_CONFIG_NOSYSTEM");
	tap_ok(gitconfig_read(t) && !g_hash_table_size(t),
	       "no git on the PATH, the system file git's: an empty table");
	g_setenv("GIT_CONFIG_NOSYSTEM", "1", TRUE);
	tap_ok(
	    gitconfig_read(t) && (v = g_hash_table_lookup(t, "user.name")) &&
		!strcmp(v, "No Git"),
	    "no git on the PATH, no system file: the files read all the same");
	g_setenv("PATH", path, TRUE);
	g_hash_table_destroy(t);
}

int
main(void)
{
	g_autofree char *tmp = g_dir_make_tmp("lore-am-unit.XXXXXX", NULL);
	g_autofree char *repo = g_build_filename(tmp, "repo", NULL);
	g_autofree char *sub = g_build_filename(repo, "sub", NULL);
	g_autofree char *out = g_build_filename(tmp, "out", NULL);
	g_autofree char *gcfg = g_build_filename(tmp, ".gitconfig", NULL);
	g_autofree char *lcfg = g_build_filename(repo, ".git", "config", NULL);
	g_autofree char *scfg = g_build_filename(tmp, "system", NULL);
	g_autofree char *init = NULL;
	const char *git_init[] = {"git", "init", "-q", repo, NULL};
	gint status = 1;
	guint i;

	g_setenv("HOME", tmp, TRUE);
	g_unsetenv("XDG_CONFIG_HOME");
	g_unsetenv("GIT_CONFIG_GLOBAL");
	g_unsetenv("GIT_CONFIG_SYSTEM");
	g_setenv("GIT_CONFIG_NOSYSTEM", "1", TRUE);
	if (!g_spawn_sync(NULL, (char **)git_init, NULL, G_SPAWN_SEARCH_PATH,
			  NULL, NULL, NULL, NULL, &status, NULL) ||
	    status) {
		/* git is required: a test that ran nothing must not pass */
		printf("Bail out! git init failed\n");
		return 1;
	}
	g_mkdir(sub, 0755);
	g_mkdir(out, 0755);
	no_git(gcfg, out);
	if (!g_file_get_contents(lcfg, &init, NULL, NULL))
		abort();

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *local = g_strconcat(
		    init, cases[i].local ? cases[i].local : "", NULL);
		g_auto(GStrv) env =
		    cases[i].env ? g_strsplit(cases[i].env, " ", -1) : NULL;
		GHashTable *direct = g_hash_table_new_full(
		    g_str_hash, g_str_equal, g_free, g_free);
		struct config *viagit, *loaded;
		gboolean read;
		guint e;

		write_file(gcfg, cases[i].global);
		write_file(lcfg, local);
		if (cases[i].system) {
			write_file(scfg, cases[i].system);
			g_setenv("GIT_CONFIG_SYSTEM", scfg, TRUE);
			g_unsetenv("GIT_CONFIG_NOSYSTEM");
		}
		for (e = 0; env && env[e]; e++) {
			char *eq = strchr(env[e], '=');

			*eq = '\0';
			g_setenv(env[e], eq + 1, TRUE);
		}
		if (chdir(cases[i].outside ? out : sub) < 0)
			abort();

		read = gitconfig_read(direct);
		viagit = config_load_git();
		loaded = config_load();
		tap_is_int(read, cases[i].direct, "%s: %s", cases[i].what,
			   cases[i].direct ? "read without git"
					   : "left to git");
		if (read) {
			tap_ok(same_table(direct, viagit->vals),
			       "%s: the same settings as git config gives",
			       cases[i].what);
			if (!same_table(direct, viagit->vals)) {
				show("read", direct);
				show("git", viagit->vals);
			}
		}
		tap_ok(same_table(loaded->vals, viagit->vals),
		       "%s: config_load() gives git's settings", cases[i].what);
		tap_ok(g_hash_table_size(viagit->vals) > 0 || !*cases[i].global,
		       "%s: git found settings to compare", cases[i].what);

		for (e = 0; env && env[e]; e++)
			g_unsetenv(env[e]);
		if (cases[i].system) {
			g_unsetenv("GIT_CONFIG_SYSTEM");
			g_setenv("GIT_CONFIG_NOSYSTEM", "1", TRUE);
		}
		config_free(viagit);
		config_free(loaded);
		g_hash_table_destroy(direct);
	}
	if (chdir("/") == 0) {
		g_autofree char *rm = g_strdup_printf("rm -rf '%s'", tmp);

		if (system(rm))
			tap_ok(0, "cleaning up %s", tmp);
	}
	return tap_done();
}
