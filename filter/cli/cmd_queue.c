/*
 * cmd_queue.c - `lore-am queue`: the series the queue (queue/queue.h)
 * has seen, one line each, filtered by state, readiness, age and the
 * files the tree's MAINTAINERS gives to user.email; or the state of one
 * message's series (--show, the mail clients' key); or the messages of
 * some series with their states (--messages, the notmuch hook's tags);
 * or a mark set by hand (--set). A word of its own, with options of its
 * own: main.c hands it the words after "queue".
 */
#include "cli/cmd.h"
#include "cli/queueout.h"
#include "cli/queuescan.h"
#include "cli/queuetag.h"
#include "core/config.h"
#include "core/msgid.h"
#include "core/util.h"
#include "git/treecheck.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "queue/maintainers.h"
#include "queue/queue.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* --messages reads at most this many Message-IDs */
#define MESSAGES_MAX 100000

struct queue_cli {
	char *state, *since, *format, *set;
	gboolean ready, mine, show, messages, no_scan, tag;
	char **args;
};

static const char queue_summary[] =
    "Lists the patch series lore-am has seen (each run that finds a series\n"
    "records it): state, revision, patches, reviews, age and subject.\n"
    "States: new, complete, reviewed, superseded, applied, thanked,\n"
    "rejected. In a git work tree, a whole series whose patches are all\n"
    "among HEAD's last lore-am.deps-lookback commits is marked applied.\n"
    "With --show, the state of the series of the message ID (or\n"
    "of the mail on standard input); with --set STATE ID, mark it.\n"
    "\n"
    "Exit status: 0 done; 1 the message is in no series the queue knows;\n"
    "2 usage; 74 the queue file cannot be used.";

/* "14" or "14d" days, "3w" weeks, or a date YYYY-MM-DD: seconds since the
 * epoch, or -1 */
static gint64
parse_since(const char *v, gint64 now)
{
	guint64 n;
	char unit = 'd';
	g_autofree char *num = g_strdup(v);
	size_t l = strlen(num);
	int y, m, d;
	char end;

	if (sscanf(v, "%4d-%2d-%2d%c", &y, &m, &d, &end) == 3 &&
	    g_date_valid_dmy((GDateDay)d, (GDateMonth)m, (GDateYear)y)) {
		g_autoptr(GDateTime) t = g_date_time_new_utc(y, m, d, 0, 0, 0);

		return t ? g_date_time_to_unix(t) : -1;
	}
	if (l && (num[l - 1] == 'd' || num[l - 1] == 'w')) {
		unit = num[l - 1];
		num[l - 1] = '\0';
	}
	if (!g_ascii_string_to_unsigned(num, 10, 0, 100000, &n, NULL))
		return -1;
	return now - (gint64)n * 86400 * (unit == 'w' ? 7 : 1);
}

/* The Message-ID asked about: the argument, else the mail on stdin. */
static char *
asked_id(const struct queue_cli *o, struct message **mail)
{
	GError *err = NULL;
	GBytes *b;
	const char *p;
	gsize n;

	*mail = NULL;
	if (o->args && o->args[0])
		return msgid_from_arg(o->args[0]);
	if (isatty(STDIN_FILENO))
		return NULL;
	b = mbox_slurp("-", LORE_MAX_MESSAGE, &err);
	if (!b) {
		lore_err_take(err);
		return NULL;
	}
	p = g_bytes_get_data(b, &n);
	*mail = n ? message_parse(p, n, NULL) : NULL;
	g_bytes_unref(b);
	return *mail && (*mail)->msgid ? g_strdup((*mail)->msgid) : NULL;
}

/* The series of @id, or of a message it answers (a reply the queue did
 * not keep): In-Reply-To, then References from the nearest. */
static struct queue_series *
find_near(struct queue *q, const char *id, const struct message *m,
	  GError **err)
{
	struct queue_series *s = queue_find(q, id, err);
	guint i;

	if (s || !m || (err && *err))
		return s;
	if (m->in_reply_to && (s = queue_find(q, m->in_reply_to, err)))
		return s;
	for (i = m->refs ? m->refs->len : 0; !s && i-- > 0;)
		s = queue_find(q, m->refs->pdata[i], err);
	return s;
}

static int
open_failed(GError *err)
{
	lore_err_take(err);
	return LORE_EIO;
}

static int
do_show(struct queue_cli *o)
{
	struct message *m = NULL;
	g_autofree char *id = asked_id(o, &m);
	struct queue_series *s = NULL;
	struct queue *q;
	GError *err = NULL;
	int rc = LORE_OK;

	if (!id) {
		message_free(m);
		lore_err(
		    "queue --show: give a Message-ID, or pipe the mail in");
		return LORE_EUSAGE;
	}
	if (!(q = queue_open(&err))) {
		message_free(m);
		return open_failed(err);
	}
	s = find_near(q, id, m, &err);
	if (err) {
		lore_err_take(err);
		rc = LORE_EIO;
	} else if (!s) {
		g_autofree char *safe = lore_term_safe(id, -1);

		lore_err("<%s> is in no series the queue knows", safe);
		rc = LORE_ENOTFOUND;
	} else {
		queueout_show(s, stdout);
	}
	queue_series_free(s);
	queue_close(q);
	message_free(m);
	return rc;
}

static void
print_msg(const char *msgid, enum queue_state state, gpointer data)
{
	printf("%s %s\n", queue_state_name(state), msgid);
}

/* Message-IDs on stdin, one a line: every message of their series, with
 * its revision's state, each series once. */
static int
do_messages(void)
{
	g_autoptr(GHashTable) done =
	    g_hash_table_new(g_int64_hash, g_int64_equal);
	g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(g_free);
	struct queue *q;
	GError *err = NULL;
	char line[2048];
	guint n = 0;

	if (!(q = queue_open(&err)))
		return open_failed(err);
	while (!err && n++ < MESSAGES_MAX && fgets(line, sizeof(line), stdin)) {
		g_autofree char *id = msgid_from_arg(g_strstrip(line));
		struct queue_series *s = id ? queue_find(q, id, &err) : NULL;
		gint64 *key;

		if (s && !g_hash_table_contains(done, &s->id)) {
			key = g_new(gint64, 1);
			*key = s->id;
			g_ptr_array_add(keep, key);
			g_hash_table_add(done, key);
			queue_messages(q, s->id, print_msg, NULL, &err);
		}
		queue_series_free(s);
	}
	queue_close(q);
	if (err) {
		lore_err_take(err);
		return LORE_EIO;
	}
	return LORE_OK;
}

static int
do_set(struct queue_cli *o)
{
	g_autofree char *id = NULL;
	GError *err = NULL;
	int rc;

	if (!o->args || !o->args[0] || o->args[1]) {
		lore_err("queue --set %s needs one Message-ID", o->set);
		return LORE_EUSAGE;
	}
	if (!(id = msgid_from_arg(o->args[0]))) {
		g_autofree char *s = lore_term_safe(o->args[0], -1);

		lore_err("'%s' is not a Message-ID or archive URL", s);
		return LORE_EUSAGE;
	}
	rc = queue_mark(id, o->set, &err);
	if (rc) {
		lore_err_take(err);
	} else {
		/* the notmuch tags move now (a failure is a warning) */
		struct config *cfg = config_load();
		g_autoptr(GPtrArray) ids = g_ptr_array_new();

		g_ptr_array_add(ids, id);
		queuetag_move(cfg, ids);
		config_free(cfg);
	}
	return rc;
}

/* --tag: Message-IDs on stdin, one a line; their series' notmuch tags */
static int
do_tag(void)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	struct config *cfg;
	char line[2048];
	gboolean ok;

	while (ids->len < MESSAGES_MAX && fgets(line, sizeof(line), stdin)) {
		char *id = msgid_from_arg(g_strstrip(line));

		if (id)
			g_ptr_array_add(ids, id);
	}
	cfg = config_load();
	ok = queuetag_move(cfg, ids);
	config_free(cfg);
	return ok ? LORE_OK : LORE_EIO;
}

/* --mine: the files the tree's MAINTAINERS gives to user.email */
static int
mine(struct maintainers **out)
{
	struct config *cfg = config_load();
	const char *email = config_raw(cfg, "user.email");
	g_autofree char *top = treecheck_toplevel();
	g_autofree char *path =
	    top ? g_build_filename(top, "MAINTAINERS", NULL) : NULL;
	GError *err = NULL;
	int rc = LORE_OK;

	if (!email || !*email || !path) {
		lore_err("queue --mine needs user.email and a git work tree "
			 "with a MAINTAINERS file");
		rc = LORE_EUSAGE;
	} else if (!(*out = maintainers_read(path, email, &err))) {
		lore_err_take(err);
		rc = LORE_EUSAGE;
	}
	config_free(cfg);
	return rc;
}

static gboolean
touches(const struct queue_series *s, const struct maintainers *m)
{
	g_auto(GStrv) files = g_strsplit(s->files ? s->files : "", "\n", -1);
	guint i;

	for (i = 0; files[i]; i++)
		if (*files[i] && maintainers_match(m, files[i]))
			return TRUE;
	return FALSE;
}

static gboolean
wanted(const struct queue_series *s, const struct queue_cli *o,
       const gboolean *states, const struct maintainers *m)
{
	if (o->state && !states[s->state])
		return FALSE;
	if (o->ready && s->state != QUEUE_REVIEWED)
		return FALSE;
	return !m || touches(s, m);
}

/* --state's list, "a,b": the states wanted */
static gboolean
parse_states(const char *v, gboolean *states)
{
	g_auto(GStrv) w = g_strsplit(v, ",", -1);
	guint i;

	for (i = 0; w[i]; i++) {
		enum queue_state s;

		if (!queue_state_parse(g_strstrip(w[i]), &s)) {
			g_autofree char *safe = lore_term_safe(w[i], -1);

			lore_err("queue --state: '%s' is no state (new, "
				 "complete, reviewed, superseded, applied, "
				 "thanked, rejected)",
				 safe);
			return FALSE;
		}
		states[s] = TRUE;
	}
	return TRUE;
}

static int
do_list(struct queue_cli *o)
{
	gboolean states[QUEUE_N_STATES] = {0}, json = FALSE;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC, since = 0;
	struct maintainers *m = NULL;
	g_autoptr(GPtrArray) rows = NULL, out = g_ptr_array_new();
	struct queue *q;
	GError *err = NULL;
	g_autoptr(GError) scan_err = NULL;
	guint i;
	int rc;

	if (o->format && !(json = !strcmp(o->format, "json")) &&
	    strcmp(o->format, "text")) {
		lore_err("queue --format is text or json");
		return LORE_EUSAGE;
	}
	if (o->state && !parse_states(o->state, states))
		return LORE_EUSAGE;
	if (o->since && (since = parse_since(o->since, now)) < 0) {
		lore_err("queue --since takes days (14, 14d), weeks (2w) or "
			 "a date (YYYY-MM-DD)");
		return LORE_EUSAGE;
	}
	if (o->mine && (rc = mine(&m)))
		return rc;
	if (!o->no_scan) {
		struct config *cfg = config_load();

		queuescan_run(cfg, &scan_err);
		config_free(cfg);
	}
	if (!(q = queue_open(&err))) {
		maintainers_free(m);
		return open_failed(err);
	}
	rows = queue_list(q, since, &err);
	queue_close(q);
	if (!rows) {
		maintainers_free(m);
		return open_failed(err);
	}
	if (scan_err)
		lore_err("warning: %s", scan_err->message);
	for (i = 0; i < rows->len; i++)
		if (wanted(rows->pdata[i], o, states, m))
			g_ptr_array_add(out, rows->pdata[i]);
	if (json)
		queueout_json(out, now, stdout);
	else
		queueout_text(out, now, stdout);
	maintainers_free(m);
	return fflush(stdout) == 0 ? LORE_OK : LORE_EIO;
}

static int
queue_run(struct queue_cli *o)
{
	if (o->set)
		return do_set(o);
	if (o->args && o->args[0] && !o->show) {
		lore_err("queue takes a Message-ID only with --show or --set");
		return LORE_EUSAGE;
	}
	if (o->show)
		return do_show(o);
	if (o->messages)
		return do_messages();
	if (o->tag)
		return do_tag();
	return do_list(o);
}

int
cmd_queue_main(int argc, char **argv)
{
	struct queue_cli o = {0};
	GOptionEntry entries[] = {
	    {"state", 0, 0, G_OPTION_ARG_STRING, &o.state,
	     "Only the series in these states (comma separated)", "STATE"},
	    {"ready", 0, 0, G_OPTION_ARG_NONE, &o.ready,
	     "Only the series ready to apply: complete, every patch reviewed, "
	     "not applied",
	     NULL},
	    {"mine", 0, 0, G_OPTION_ARG_NONE, &o.mine,
	     "Only the series touching files the tree's MAINTAINERS gives to "
	     "user.email",
	     NULL},
	    {"since", 0, 0, G_OPTION_ARG_STRING, &o.since,
	     "Only the series seen since: days (14), weeks (2w) or a date "
	     "(YYYY-MM-DD)",
	     "WHEN"},
	    {"format", 0, 0, G_OPTION_ARG_STRING, &o.format,
	     "text (default) or json", "FMT"},
	    {"show", 0, 0, G_OPTION_ARG_NONE, &o.show,
	     "The state of the series of ID (or of the mail on standard "
	     "input): its revisions, the reviews of each patch, where it was "
	     "applied",
	     NULL},
	    {"set", 0, 0, G_OPTION_ARG_STRING, &o.set,
	     "Mark the series of ID applied, thanked or rejected (new: clear "
	     "the marks)",
	     "STATE"},
	    {"tag", 0, 0, G_OPTION_ARG_NONE, &o.tag,
	     "Read Message-IDs on standard input; tag each message of their "
	     "series with its state in notmuch (for the notmuch hook)",
	     NULL},
	    {"no-scan", 0, 0, G_OPTION_ARG_NONE, &o.no_scan,
	     "Do not look for the series in the current git tree's recent "
	     "history (found there whole: applied)",
	     NULL},
	    {"messages", 0, 0, G_OPTION_ARG_NONE, &o.messages,
	     "Read Message-IDs on standard input; print each message of their "
	     "series with its state (for the notmuch hook)",
	     NULL},
	    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.args, NULL,
	     NULL},
	    {NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	GOptionContext *ctx = g_option_context_new("[ID]");
	GError *err = NULL;
	int rc;

	/* the usage line says "lore-am queue [OPTION...] [ID]" */
	g_set_prgname("lore-am queue");
	g_option_context_set_summary(ctx, queue_summary);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (argc > 1 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		/* glib's "[OPTION\u2026]" is "[OPTION?]" in the C locale */
		g_autofree char *h = g_option_context_get_help(ctx, TRUE, NULL);
		g_auto(GStrv) parts = g_strsplit(h, "\u2026", -1);
		g_autofree char *text = g_strjoinv("...", parts);

		fputs(text, stdout);
		rc = LORE_OK;
	} else if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		lore_err("queue: %s (see lore-am queue --help)", err->message);
		g_error_free(err);
		rc = LORE_EUSAGE;
	} else {
		/* GMime is started by its first use (mail/gmimelib.h) */
		rc = queue_run(&o);
		gmimelib_shutdown();
	}
	g_option_context_free(ctx);
	g_free(o.state);
	g_free(o.since);
	g_free(o.format);
	g_free(o.set);
	g_strfreev(o.args);
	return rc;
}
