/*
 * b4words.c - what a b4 user types, made lore-am's before the option
 * table reads it: b4's subcommand words (am, shazam, diff, mbox, ty, and
 * lore-am's own pr and dig) become the options that do the same (--pr,
 * --dig, --ty), shazam's -H and -M become --apply=head and --apply=merge
 * (-M is --save-as-maildir everywhere else, as in b4),
 * "-v1" is "-v 1" (argparse takes a value joined to its letter, glib does
 * not), and a word of b4's that lore-am does not do is refused in one line
 * that names what to use, never fetched as a Message-ID.
 */
#include "cli/cmd.h"
#include "core/util.h"

#include <string.h>

/* b4's words for what lore-am leaves to b4 or to git, and what to use */
static const struct {
	const char *word, *instead;
} not_here[] = {
    {"prep", "lore-am is for the receiving side: prepare a series with b4 "
	     "prep"},
    {"send", "lore-am is for the receiving side: send a series with b4 send "
	     "or git send-email"},
    {"trailers", "lore-am folds the reviewers' trailers into what it writes: "
		 "for your own branch, run b4 trailers"},
    {"kr", "lore-am reads the keys b4 kr keeps (patatt's keyring): run b4 kr"},
    {"attest", "lore-am checks signatures: sign your own patches with patatt "
	       "sign"},
};

/* b4 diff's letters that mean something else in lore-am, not built */
static const char *const diff_not_here[] = {
    "-c", "--color", "-n", "--no-diff", "-o", "--output-diff", "-g", "--gitdir",
};

/* b4 diff's -m MBX1 MBX2 (two files, no Message-ID), not lore-am's -m
 * PATH (the thread's mailbox) before a Message-ID */
static gboolean
two_mboxes(GPtrArray *a, guint i)
{
	return (!strcmp(a->pdata[i], "-m") ||
		!strcmp(a->pdata[i], "--compare-am-mboxes")) &&
	       i + 2 < a->len &&
	       g_file_test(a->pdata[i + 1], G_FILE_TEST_IS_REGULAR) &&
	       g_file_test(a->pdata[i + 2], G_FILE_TEST_IS_REGULAR);
}

/* b4 diff's -m MBX1 MBX2 made --compare-am-mbox=MBX1 ...=MBX2 */
static void
diff_mboxes(GPtrArray *a, guint from)
{
	guint i;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++) {
		if (!two_mboxes(a, i))
			continue;
		g_free(a->pdata[i]);
		a->pdata[i] = g_strconcat(
		    "--compare-am-mbox=", (char *)a->pdata[i + 1], NULL);
		g_free(a->pdata[i + 1]);
		a->pdata[i + 1] = g_strconcat(
		    "--compare-am-mbox=", (char *)a->pdata[i + 2], NULL);
		g_ptr_array_remove_index(a, i + 2);
		return;
	}
}

/* b4 diff's letter at or after @from that lore-am does not do, or NULL */
static const char *
diff_refused(GPtrArray *a, guint from)
{
	guint i, k;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++) {
		for (k = 0; k < G_N_ELEMENTS(diff_not_here); k++)
			if (!strcmp(a->pdata[i], diff_not_here[k]) ||
			    (g_str_has_prefix(a->pdata[i], diff_not_here[k]) &&
			     ((char *)a->pdata[i])[strlen(diff_not_here[k])] ==
				 '='))
				return diff_not_here[k];
	}
	return NULL;
}

/* Does the option @arg (as given) take the next argument as its value? */
static gboolean
takes_value(const GOptionEntry *t, const char *arg)
{
	const GOptionEntry *e;

	for (e = t; e->long_name; e++) {
		gboolean named = arg[1] == '-'
				     ? !strcmp(arg + 2, e->long_name)
				     : arg[1] == e->short_name && !arg[2];

		if (named)
			return e->arg != G_OPTION_ARG_NONE &&
			       !(e->flags & G_OPTION_FLAG_OPTIONAL_ARG);
	}
	return FALSE;
}

/* The short option of @t that "-Xrest" names, when X takes a value. */
static gboolean
joined_value(const GOptionEntry *t, const char *arg)
{
	char one[3] = {'-', 0, 0};

	if (arg[0] != '-' || arg[1] == '-' || !arg[1] || !arg[2])
		return FALSE;
	one[1] = arg[1];
	return takes_value(t, one);
}

static gboolean
is_word(const char *a)
{
	static const char *const words[] = {"am", "shazam", "diff", "mbox",
					    "ty", "pr",	    "dig"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(words); i++)
		if (!strcmp(a, words[i]))
			return TRUE;
	for (i = 0; i < G_N_ELEMENTS(not_here); i++)
		if (!strcmp(a, not_here[i].word))
			return TRUE;
	return FALSE;
}

/*
 * @argv with "-v1" split, and the index of the first argument that is no
 * option nor an option's value (0: none). b4's -n (--no-interactive)
 * before a word is dropped: lore-am's -n takes a name.
 */
static GPtrArray *
split_args(const GOptionEntry *t, int argc, char **argv, guint *word)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	gboolean rest = FALSE;
	int i;

	*word = 0;
	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (i == 0 || rest || *word) {
			g_ptr_array_add(a, g_strdup(s));
			continue;
		}
		if (!strcmp(s, "--")) {
			rest = TRUE;
		} else if ((!strcmp(s, "-n") ||
			    !strcmp(s, "--no-interactive")) &&
			   i + 1 < argc && is_word(argv[i + 1])) {
			continue;
		} else if (s[0] != '-' || !s[1]) {
			*word = a->len;
		} else if (joined_value(t, s)) {
			g_ptr_array_add(a, g_strndup(s, 2));
			g_ptr_array_add(a, g_strdup(s + 2));
			continue;
		} else if (takes_value(t, s) && i + 1 < argc) {
			g_ptr_array_add(a, g_strdup(s));
			s = argv[++i];
		}
		g_ptr_array_add(a, g_strdup(s));
	}
	return a;
}

/* shazam's letters after the word: -H and -M pick --apply's mode */
static void
shazam_mode(GPtrArray *a, guint from)
{
	const char *mode = "--apply=";
	guint i;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++) {
		const char *s = a->pdata[i];

		if (!strcmp(s, "-H") || !strcmp(s, "--make-fetch-head"))
			mode = "--apply=head";
		else if (!strcmp(s, "-M") || !strcmp(s, "--merge"))
			mode = "--apply=merge";
		else
			continue;
		g_ptr_array_remove_index(a, i--);
	}
	g_ptr_array_insert(a, from, g_strdup(mode));
}

/* b4 mbox's -f (--filter-dupes): --maildir and --append always skip
 * what the folder holds, so it asks for nothing more */
static void
mbox_word(GPtrArray *a, guint from)
{
	guint i;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++)
		if (!strcmp(a->pdata[i], "-f") ||
		    !strcmp(a->pdata[i], "--filter-dupes"))
			g_ptr_array_remove_index(a, i--);
	g_ptr_array_insert(a, from, g_strdup("--thread"));
}

/* b4 ty's letters after the word, lore-am's long options (its -l, -t,
 * -d, -a, -b, -S and -g mean other things before it); "-t1" as "-t 1" */
static void
ty_letters(GPtrArray *a, guint from)
{
	static const char *const map[][3] = {
	    {"-l", "--list", "--list"},
	    {"-t", "--thank-for", "--thank-for"},
	    {"-d", "--discard", "--discard"},
	    {"-a", "--auto", "--auto"},
	    {"-b", "--branch", "--branch"},
	    {"-S", "--send-email", "--send"},
	    {"-g", "--gitdir", "--gitdir"},
	};
	guint i, k;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++) {
		const char *s = a->pdata[i];

		for (k = 0; k < G_N_ELEMENTS(map); k++) {
			if (!strcmp(s, map[k][0]) || !strcmp(s, map[k][1])) {
				g_free(a->pdata[i]);
				a->pdata[i] = g_strdup(map[k][2]);
				break;
			}
			if (!strncmp(s, map[k][0], 2) && s[2] &&
			    strchr("tdbg", s[1])) {
				g_ptr_array_insert(a, i + 1, g_strdup(s + 2));
				g_free(a->pdata[i]);
				a->pdata[i] = g_strdup(map[k][2]);
				i++;
				break;
			}
		}
	}
	g_ptr_array_insert(a, from, g_strdup("--ty"));
}

/* The word at @w of @a made options; a lore_status, reported. */
static int
take_word(GPtrArray *a, guint w)
{
	g_autofree char *word = g_strdup(a->pdata[w]);
	guint i;

	for (i = 0; i < G_N_ELEMENTS(not_here); i++) {
		if (!strcmp(word, not_here[i].word)) {
			lore_err("b4 %s is not built into lore-am: %s", word,
				 not_here[i].instead);
			return LORE_EUSAGE;
		}
	}
	g_ptr_array_remove_index(a, w);
	if (!strcmp(word, "diff") && diff_refused(a, w)) {
		lore_err(
		    "b4 diff's %s is not built into lore-am: diff compares "
		    "two revisions of one thread (-v OLD NEW) or two am-ready "
		    "mboxes (-m MBX1 MBX2), on stdout, colored on a terminal",
		    diff_refused(a, w));
		return LORE_EUSAGE;
	}
	if (!strcmp(word, "shazam"))
		shazam_mode(a, w);
	else if (!strcmp(word, "diff")) {
		diff_mboxes(a, w);
		g_ptr_array_insert(a, w, g_strdup("--range-diff="));
	} else if (!strcmp(word, "mbox"))
		mbox_word(a, w);
	else if (!strcmp(word, "pr") || !strcmp(word, "dig"))
		g_ptr_array_insert(a, w, g_strconcat("--", word, NULL));
	else if (!strcmp(word, "ty"))
		ty_letters(a, w);
	return LORE_OK;
}

int
cmd_b4_argv(const GOptionEntry *table, int argc, char **argv, char ***out)
{
	guint w;
	GPtrArray *a = split_args(table, argc, argv, &w);
	int rc = LORE_OK;

	if (w && is_word(a->pdata[w]))
		rc = take_word(a, w);
	g_ptr_array_add(a, NULL);
	*out = (char **)g_ptr_array_free(a, FALSE);
	return rc;
}
