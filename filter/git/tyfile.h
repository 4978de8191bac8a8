/*
 * tyfile.h - the tracking files `b4 ty` and `lore-am ty` thank from, read
 * back: every SLUG.am (a series, written by b4 am, b4 shazam or
 * lore-am.track) and SLUG.pr (a pull request, b4 pr's) in track_dir(),
 * numbered as b4 ty numbers them (oldest first, by modification time),
 * and each one's move once thanked (SLUG.am.sent) or discarded
 * (SLUG.am.discarded), b4's names, so that either tool sees what the
 * other did.
 *
 * Ownership: tyfile_list() returns an array that owns its entries
 * (g_ptr_array_unref frees them); an entry owns its strings and its JSON.
 */
#ifndef LORE_TYFILE_H
#define LORE_TYFILE_H

#include "git/tyjson.h"

#include <glib.h>

/* one patch of a series, as the file lists it */
struct ty_patch {
	const char *title;  /* its subject, without the [PATCH] prefix */
	const char *hash;   /* its patchwork hash (track_pwhash) */
	const char *msgid;  /* its Message-ID, without <> */
	const char *prefix; /* "NN/MM", or NULL */
};

struct ty_series {
	char *name;	      /* the file's name in the folder */
	char *path;	      /* its full path */
	gboolean pr;	      /* a pull request (SLUG.pr), not a series */
	char *error;	      /* why it could not be read, or NULL */
	struct tyjson *json;  /* the whole record (NULL with @error) */
	const char *msgid;    /* the fields every record has (borrowed */
	const char *subject;  /* from @json, never NULL when it was read) */
	const char *fromname; /* ... */
	const char *fromemail;
	const char *sentdate;
	gboolean cherrypick;	  /* "cherrypick": part of a series taken */
	struct ty_patch *patches; /* the patches, npatches of them */
	guint npatches;
	/* "commits" as the file holds them (lore-am --apply, b4 ty's):
	 * commits[i] the commit of patch i+1 or NULL; NULL when none */
	char **commits;
};

/*
 * The tracking files of @dir, oldest first (ties by name). A file that is
 * not JSON, too large or without the fields b4 writes is listed with its
 * @error set, so that the numbers stay b4's. NULL with @err only when
 * @dir cannot be read (a missing folder is an empty list).
 */
GPtrArray *tyfile_list(const char *dir, GError **err);

/*
 * Move @s's file aside as b4 does: to NAME.@suffix ("sent" or
 * "discarded") in the same folder, or NAME.N.@suffix when that is taken
 * (an earlier record is never overwritten). FALSE with @err.
 */
gboolean tyfile_retire(const struct ty_series *s, const char *suffix,
		       GError **err);

/*
 * The numbers b4's -t and -d take, "1,3-5,7-" or "all", out of @count:
 * an array of guint (1-based, in the order given); NULL with @err on
 * anything else or a number past @count.
 */
GArray *tyfile_pick(const char *spec, guint count, GError **err);

#endif
