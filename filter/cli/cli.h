/*
 * cli.h - the command line as main.c parsed it, and the runs it starts:
 * run.c turns these options into sources, a thread and a job (am, thread
 * or mail filter); cmd.h's commands call them. Only main.c exits.
 *
 * Ownership: struct cli and everything in it belong to main.c (cli_clear()
 * frees it); the commands and the run functions borrow it.
 */
#ifndef LORE_CLI_H
#define LORE_CLI_H

#include <glib.h>

struct cli {
	char **mboxes;
	char *lore;
	char **fallbacks;
	gboolean no_cache;
	gboolean offline;
	gboolean check_newer;
	gboolean use_newer;
	gboolean notmuch;
	char *source;
	int use_version;
	char *cherry_pick;
	gboolean cover_trailers;
	gboolean no_add_trailers;
	gboolean sloppy;
	gboolean add_my_sob;
	gboolean add_link;
	gboolean add_message_id; /* -i: a Message-ID: trailer, as b4's */
	gboolean cc_trailers;
	char *outdir;	       /* NULL: stdout (main.c turns -o - into NULL) */
	char *mbox_name;       /* -n: file name stem with -o DIR, or NULL */
	gboolean no_cover;     /* --no-cover: no NAME.cover with -o DIR */
	gboolean save_maildir; /* -M: NAME.maildir in outdir, no .mbx */
	gboolean quilt;	       /* -Q: NAME.patches in outdir too */
	gboolean mboxrd;
	gboolean quiet;
	gboolean version;
	gboolean allow_incomplete;
	gboolean no_parent;
	gboolean parent;
	gboolean rethread;   /* --rethread: stitch an unthreaded series */
	char **rethread_ids; /* b4's --rethread ID ID...: the ids, or NULL */
	gboolean thread;
	char *maildir;
	char *append;
	gboolean seen;
	gboolean passthrough;
	gboolean status_header;
	gboolean allow_unicode_control;
	char *apply; /* --apply[=MODE] ("" for the branch), or NULL */
	gboolean guess_base;
	char *lookback_arg;	 /* --guess-lookback DAYS as given, or NULL */
	int guess_lookback;	 /* its days (1 to 3650), 0: the config's */
	char **guess_branch;	 /* -b: -g on these branches only */
	char *merge_base;	 /* --merge-base COMMIT, or NULL */
	gboolean single_message; /* --single-message: the target alone */
	gboolean no_partial_reroll; /* a partial re-roll left as sent */
	char *stdin_pipe_sep;	    /* --stdin-pipe-sep SEP, or NULL */
	GPtrArray *stdin_mails;	    /* ... the mails it cut (GBytes *) */
	gboolean prep_3way;
	gboolean check;
	char *range_diff;      /* --range-diff[=OLD..NEW] ("": default) */
	char *range_diff_opts; /* --range-diff-opts OPTS, or NULL */
	char **compare_mboxes; /* b4 diff -m MBX1 MBX2: the two, or NULL */
	char *version_pair;    /* -v OLD..NEW, for --range-diff, or NULL */
	gboolean no_index;
	gboolean no_attestation;
	gboolean explain; /* --explain */
	gboolean pr;	  /* b4's word pr: a pull request (cmd_pr.c) */
	gboolean explode; /* pr -e: its commits as an am-ready series */
	gboolean dig;	  /* the word dig: where a commit came from */
	/* dig's letters (b4 dig's -c, -a, -w, -m; b4words.c) */
	char *dig_commit; /* dig -c COMMIT, or NULL: the argument */
	gboolean dig_all; /* dig -a: every revision of the series */
	gboolean dig_who; /* dig -w: who the patch was sent to */
	char *dig_mbox;	  /* dig -m FILE: the thread saved, or NULL */
	char *format;	  /* --format: "text" or "json", or NULL */
	gboolean json;	  /* --format=json (cmd_common_check() sets it) */
	char **stable;	  /* --stable BRANCH..., or NULL */
	/* the word ty (b4 ty) and its options, b4's letters (b4words.c) */
	gboolean ty;
	gboolean ty_list;   /* ty -l */
	char *ty_thank;	    /* ty -t SPEC */
	char *ty_discard;   /* ty -d SPEC */
	gboolean ty_auto;   /* ty -a */
	char *ty_branch;    /* ty -b BRANCH */
	char *ty_since;	    /* ty --since WHEN */
	gboolean ty_send;   /* ty -S, --send */
	gboolean dry_run;   /* ty --dry-run */
	char *ty_gitdir;    /* ty -g DIR */
	char *ty_pw_state;  /* b4's --pw-set-state, refused */
	gboolean no_deps;   /* --no-deps: prerequisites left alone */
	gboolean with_deps; /* --with-deps: one mbox, prerequisites first */
	/* b4's -d and --no-stdin, diff's -n, -o FILE and -c, mbox's -r */
	gboolean debug;	       /* -d: what the run does, on stderr */
	gboolean no_stdin;     /* --no-stdin: stdin is never read */
	gboolean diff_no_diff; /* diff -n: the git range-diff line only */
	gboolean diff_color;   /* diff -c: colored, even into a file */
	char *diff_output;     /* diff -o FILE, or NULL: stdout */
	char *refetch;	       /* mbox -r MBOX, or NULL */
	char **args;
};

/* "lore-am [OPTION...] [MSGID|URL]" (cli.c) */
extern const char cli_usage[];

/* Free every string the option table filled in, and zero @c (cli.c). */
void cli_clear(struct cli *c);

/* Take c->args[0] (there must be one) off c->args (cli.c). */
void cli_shift(struct cli *c);

/* The normal run: find the target, gather its thread, write. */
int run_cli(struct cli *c);

struct message;
struct config;
struct gather;
struct gather_need;
struct lore_opts;
struct thread;

/* run.c's steps, for a command of its own (pr, dig): the message the
 * command line names; the sources it sets (*@g, gather_free(), borrows
 * @lo, lore_opts_clear() after); the reply tree of @target from them
 * (takes @piped; @need as gather_run() reads it, NULL: every source).
 * Each a lore_status, reported. */
int run_target(struct cli *c, struct message **piped, char **target);
int run_sources(struct cli *c, struct config *cfg, const char *target,
		struct lore_opts *lo, struct gather **g);
int run_gather(struct gather *g, const char *target, struct message *piped,
	       const struct gather_need *need, struct thread **t);

/*
 * --passthrough: copy the mail on stdin to stdout unchanged whatever the
 * series work does; @usage_rc set means the options were wrong (report
 * nothing more, just copy). Returns 0 unless the mail itself could not be
 * copied.
 */
int run_passthrough(struct cli *c, int usage_rc);

#endif
