/*
 * deps-int.h - what deps.c (the prerequisites found, in order) and
 * depsplace.c (the tree checked, each placed: the block, the mbox, the
 * files) share. Only those two include it.
 *
 * Ownership: struct deps owns its struct dep list and every string in
 * it; a struct dep owns its thread, series set and gate.
 */
#ifndef LORE_DEPS_INT_H
#define LORE_DEPS_INT_H

#include "cli/deps.h"
#include "series/prereq.h"

struct dep {
	char *asked;	    /* the line that named it first (terminal-safe) */
	char *key;	    /* the Message-ID of its first mail */
	char *label;	    /* its first mail's subject (terminal-safe) */
	const char *origin; /* the source that had that mail */
	struct thread *t;
	struct series_set *s;
	int revision;	 /* the revision the am job took */
	char *stem;	 /* its file name stem (writer_slug()) */
	GPtrArray *pids; /* char *: each patch's patch-id, or NULL */
	GPtrArray *in;	 /* char *: the commit the tree has it as, or NULL */
	/* what of it goes first (the patches the tree lacks), made again
	 * as the series is: attested and through the gate (depsplace.c) */
	GString *use;
	struct gate *gate; /* that am job's gate, held: its patches' checks
			      and attestations, or NULL */
};

struct deps {
	struct gather *g;
	const struct amjob_opts *o;
	GPtrArray *order;      /* struct dep *, in the order they apply */
	GPtrArray *lost;       /* char *: "LINE: not found (WHY)" */
	GPtrArray *guessed;    /* the same for a mail a sentence named (it
				  may be a person's address): never an error */
	GPtrArray *known;      /* char *: a prerequisite-patch-id the tree
				  has, found before any search */
	guint lookback;	       /* lore-am.deps-lookback */
	guint followed;	       /* series made, all levels: at most
				  PREREQ_MAX */
	GPtrArray *stack;      /* char *: the keys being followed (borrowed) */
	GHashTable *done;      /* keys in order */
	GHashTable *asked;     /* Message-ID asked -> the key it gave */
	GString *block, *mbox; /* the summary's block; --apply's mbox */
	gboolean no_tree;      /* not in a git work tree: nothing checked */
	char *prereq_base;     /* prerequisite-base-commit:, or NULL */
	struct config *cfg;    /* each prerequisite's struct attest */
	GPtrArray *gates;      /* struct gate *, borrowed from each struct
				  dep placed: the series' gate says them */
};

/* The am job's options for a prerequisite's series (revision @rev): the
 * run's trailers and format, nothing written, no question of its own;
 * no gate or attestation, which only what goes first needs (its am job
 * is made again for it, depsplace.c). */
void deps_dep_opts(const struct amjob_opts *run, struct amjob_opts *o,
		   struct amjob_result *r, const char *id, int rev);

/* Which of the prerequisites' patches the tree has: one git pass
 * (git/applied.h), none outside a work tree. (depsplace.c) */
void deps_check_tree(struct deps *d);

/*
 * The prerequisite-patch-id values of @ps the tree has (a set, or NULL
 * when none), told in d->known: those need no search (git format-patch
 * --base names every commit between the base and the series, upstream
 * ones too). One git pass. (depsplace.c)
 */
GHashTable *deps_in_tree(struct deps *d, const struct prereqs *ps);

/* What goes first attested and gated as the series is (a failure under
 * attestation-policy or lore-am.gate hardfail refuses the run before
 * anything is written); then the block, the mbox, the -o files; what
 * was not found said (an error under --apply and --with-deps). A
 * lore_status. (depsplace.c) */
int deps_report(struct deps *d, const struct cli *c);

#endif
