/*
 * b4words.c - what a b4 user types, made lore-am's before the option
 * table reads it: b4's subcommand words (am, shazam, diff, mbox, ty, and
 * lore-am's own pr and dig) become the options that do the same (--pr,
 * --dig, --ty), shazam's -H and -M become --apply=head and --apply=merge
 * (-M is --save-as-maildir everywhere else, as in b4),
 * "-v1" is "-v 1" (argparse takes a value joined to its letter, glib does
 * not), b4's -c NAME=VALUE (its config override, before the word as b4
 * takes it, and after it when the value reads as one) is --config, diff's
 * -n, -o, -c and -g are --no-diff, --output-diff, --color and --gitdir,
 * mbox's -r is --refetch, dig's -c, -a, -w and -m are --commitish,
 * --all-series, --who and --save-mbox, and a word of b4's that lore-am
 * does not do is refused in one line that names what to use, never
 * fetched as a Message-ID.
 */
#include "cli/cmd.h"
#include "core/config.h"
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

/*
 * A word's letters after @from made lore-am's options: @map's rows are
 * b4's letter, b4's long name and lore-am's long option; a letter taking
 * a value (@valued) takes the next argument, or the rest of "-oFILE".
 */
static void
word_letters(GPtrArray *a, guint from, const char *const (*map)[3], guint n,
	     const char *valued)
{
	guint i, k;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++) {
		const char *s = a->pdata[i];

		for (k = 0; k < n; k++) {
			if (!strcmp(s, map[k][0]) || !strcmp(s, map[k][1])) {
				g_free(a->pdata[i]);
				a->pdata[i] = g_strdup(map[k][2]);
				/* its value is no letter of the word's */
				if (strchr(valued, map[k][0][1]))
					i++;
				break;
			}
			if (!strncmp(s, map[k][0], 2) && s[2] &&
			    strchr(valued, s[1])) {
				g_ptr_array_insert(a, i + 1, g_strdup(s + 2));
				g_free(a->pdata[i]);
				a->pdata[i] = g_strdup(map[k][2]);
				i++;
				break;
			}
		}
	}
}

/* b4 diff's -n, -o FILE, -c and -g DIR: lore-am's long options */
static void
diff_letters(GPtrArray *a, guint from)
{
	static const char *const map[][3] = {
	    {"-n", "--no-diff", "--no-diff"},
	    {"-o", "--output-diff", "--output-diff"},
	    {"-c", "--color", "--color"},
	    {"-g", "--gitdir", "--gitdir"},
	};

	word_letters(a, from, map, G_N_ELEMENTS(map), "og");
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
 * Does @s read as b4's -c NAME=VALUE: a key lore-am reads, or any
 * NAME=VALUE whose NAME could not be part of a Message-ID or URL (then
 * config_override() says what is wrong with it)?
 */
static gboolean
assign_like(const char *s)
{
	const char *eq = strchr(s, '=');

	return config_override_like(s) ||
	       (eq && eq > s && !memchr(s, '@', eq - s) &&
		!memchr(s, '/', eq - s) && !memchr(s, '<', eq - s) &&
		!memchr(s, ':', eq - s));
}

/*
 * Is the first argument from @from on that is not one of b4's global
 * options (-d, -q, -n, --offline-mode, --no-stdin, -c NAME=VALUE) a
 * word? Then those options are b4's, before its word.
 */
static gboolean
word_ahead(int argc, char **argv, int from)
{
	static const char *const globals[] = {
	    "-d",
	    "--debug",
	    "-q",
	    "--quiet",
	    "-n",
	    "--no-interactive",
	    "--offline-mode",
	    "--no-stdin",
	};
	int i;
	guint k;

	for (i = from; i < argc; i++) {
		for (k = 0; k < G_N_ELEMENTS(globals); k++)
			if (!strcmp(argv[i], globals[k]))
				break;
		if (k < G_N_ELEMENTS(globals) ||
		    g_str_has_prefix(argv[i], "--config="))
			continue;
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--config")) {
			i++;
			continue;
		}
		return is_word(argv[i]);
	}
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
			   word_ahead(argc, argv, i + 1)) {
			continue;
		} else if (!strcmp(s, "-c") && i + 1 < argc &&
			   (assign_like(argv[i + 1]) ||
			    word_ahead(argc, argv, i + 2))) {
			/* b4's -c NAME=VALUE, before its word */
			g_ptr_array_add(
			    a, g_strconcat("--config=", argv[++i], NULL));
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
 * what the folder holds, so it asks for nothing more; -r MBOX is
 * --refetch */
static void
mbox_word(GPtrArray *a, guint from)
{
	static const char *const map[][3] = {
	    {"-r", "--refetch", "--refetch"},
	};
	guint i;

	for (i = from; i < a->len && strcmp(a->pdata[i], "--"); i++)
		if (!strcmp(a->pdata[i], "-f") ||
		    !strcmp(a->pdata[i], "--filter-dupes"))
			g_ptr_array_remove_index(a, i--);
	word_letters(a, from, map, G_N_ELEMENTS(map), "r");
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

	word_letters(a, from, map, G_N_ELEMENTS(map), "tdbg");
	g_ptr_array_insert(a, from, g_strdup("--ty"));
}

/* b4 dig's letters after the word, lore-am's long options (-c, -a, -w
 * and -m mean other things before it; -C is --no-cache everywhere) */
static void
dig_letters(GPtrArray *a, guint from)
{
	static const char *const map[][3] = {
	    {"-c", "--commitish", "--commitish"},
	    {"-a", "--all-series", "--all-series"},
	    {"-w", "--who", "--who"},
	    {"-m", "--save-mbox", "--save-mbox"},
	};

	word_letters(a, from, map, G_N_ELEMENTS(map), "cm");
	g_ptr_array_insert(a, from, g_strdup("--dig"));
}

/*
 * b4's -c NAME=VALUE after the word (or with none): --config, when the
 * value reads as one (assign_like()); else -c is lore-am's own
 * (-c with am and mbox, --color with diff). Values of options are
 * skipped: "-P -c" keeps its "-c".
 */
static void
config_letters(const GOptionEntry *t, GPtrArray *a, guint from)
{
	guint i;

	for (i = from; i + 1 < a->len && strcmp(a->pdata[i], "--"); i++) {
		const char *s = a->pdata[i];

		if (!strcmp(s, "-c") && assign_like(a->pdata[i + 1])) {
			g_free(a->pdata[i]);
			a->pdata[i] = g_strconcat(
			    "--config=", (char *)a->pdata[i + 1], NULL);
			g_ptr_array_remove_index(a, i + 1);
		} else if (*s == '-' && takes_value(t, s)) {
			i++;
		}
	}
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
	if (!strcmp(word, "shazam"))
		shazam_mode(a, w);
	else if (!strcmp(word, "diff")) {
		diff_mboxes(a, w);
		diff_letters(a, w);
		g_ptr_array_insert(a, w, g_strdup("--range-diff="));
	} else if (!strcmp(word, "mbox"))
		mbox_word(a, w);
	else if (!strcmp(word, "pr"))
		g_ptr_array_insert(a, w, g_strdup("--pr"));
	else if (!strcmp(word, "dig"))
		dig_letters(a, w);
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

	/* from the word on (split_args() took those before it): the word
	 * stays where it is */
	config_letters(table, a, w ? w : 1);
	if (w && is_word(a->pdata[w]))
		rc = take_word(a, w);
	g_ptr_array_add(a, NULL);
	*out = (char **)g_ptr_array_free(a, FALSE);
	return rc;
}
