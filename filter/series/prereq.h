/*
 * prereq.h - what a series says it stands on, read from its cover letter
 * (or a single patch): git format-patch --base's and b4's lines under
 * "base-commit:" (prerequisite-patch-id:, prerequisite-change-id: with an
 * optional ":vN", prerequisite-message-id:, prerequisite-base-commit:),
 * QEMU's "Based-on: <id>", DPDK's and git-pw's "Depends-on: series-NNN" /
 * "patch-NNN" (patchwork ids, which only a patchwork server resolves),
 * and a sentence saying "based on" or "depends on" a Message-ID or an
 * archive URL. A pure parser of hostile text: nothing is looked up here
 * (cli/deps.c finds each prerequisite through the sources).
 *
 * Ownership: prereq_parse() returns a struct prereqs the caller frees with
 * prereqs_free(); it owns its items and their strings.
 */
#ifndef LORE_PREREQ_H
#define LORE_PREREQ_H

#include <glib.h>

/* At most this many prerequisites are kept; more are counted, not read. */
#define PREREQ_MAX 64
/* A longer line is no prerequisite line (RFC 5322's line limit). */
#define PREREQ_LINE_MAX 998

enum prereq_kind {
	PREREQ_MESSAGE_ID, /* prerequisite-message-id:, Based-on:, Depends-on:
			      <id>, "based on"/"depends on" <id> or URL */
	PREREQ_CHANGE_ID,  /* prerequisite-change-id: ID[:vN] (b4) */
	PREREQ_PATCH_ID,   /* prerequisite-patch-id: HEX (git patch-id) */
	PREREQ_PATCHWORK,  /* Depends-on: series-NNN / patch-NNN */
};

struct prereq {
	enum prereq_kind kind;
	/* the Message-ID (no <>), the change-id, the patch-id (lower-case
	 * hex) or "series-NNN"/"patch-NNN" */
	char *value;
	int revision;	/* a change-id's :vN; 0: the latest */
	guint line;	/* where it was read, from 1 */
	gboolean prose; /* from a sentence: maybe a person's <address> */
	char *text;	/* that line, as written (not terminal-safe) */
};

struct prereqs {
	char *base_commit; /* base-commit: (hex), or NULL */
	char *prereq_base; /* prerequisite-base-commit: (hex), or NULL */
	GPtrArray *items;  /* struct prereq *, in the order written, each
			      kind and value once */
	guint dropped;	   /* prerequisites past PREREQ_MAX */
	guint malformed;   /* prerequisite lines whose value is unusable */
};

/*
 * May the @len bytes of @body hold a prerequisite? FALSE when none of the
 * words every form holds is there ("prerequisite-", "based", "depends",
 * in any case): one quick pass, so that a series that names none costs
 * next to nothing more than before.
 */
gboolean prereq_may_hold(const char *body, gsize len);

/* Read the @len bytes of @body (a message body, any bytes). Never NULL. */
struct prereqs *prereq_parse(const char *body, gsize len);
void prereqs_free(struct prereqs *p);

/* "message-id", "change-id", "patch-id", "patchwork id" */
const char *prereq_kind_name(enum prereq_kind kind);

#endif
