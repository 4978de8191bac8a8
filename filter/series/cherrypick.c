/*
 * cherrypick.c - parsing --cherry-pick's patch list (see cherrypick.h).
 */
#include "series/cherrypick.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * b4's -P *glob*: the patches whose subject, without its [PATCH ...]
 * prefix, matches the shell pattern (as Python's fnmatch, for '*' and '?').
 */
static GHashTable *
pick_glob(struct series *ser, const char *glob, GError **err)
{
	GHashTable *set;
	GPatternSpec *spec;
	guint i;

	/* GLib's globs abort on bytes that are not UTF-8 */
	if (!g_utf8_validate(glob, -1, NULL)) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "-P: the pattern is not UTF-8");
		return NULL;
	}
	set = g_hash_table_new(NULL, NULL);
	spec = g_pattern_spec_new(glob);

	for (i = 1; i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;

		if (p && p->subj.title &&
		    g_utf8_validate(p->subj.title, -1, NULL) &&
		    g_pattern_spec_match_string(spec, p->subj.title))
			g_hash_table_add(set, GINT_TO_POINTER((int)i));
	}
	g_pattern_spec_free(spec);
	if (!g_hash_table_size(set)) {
		g_autofree char *s = lore_term_safe(glob, -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "-P '%s' matches no patch subject of the series",
			    s);
		g_hash_table_destroy(set);
		return NULL;
	}
	return set;
}

GHashTable *
cherrypick_parse(struct series *ser, const char *spec, const char *msgid,
		 GError **err)
{
	GHashTable *set;
	int upper = ser->slots->len - 1;
	g_auto(GStrv) parts = NULL;
	guint i;

	if (strchr(spec, '*'))
		return pick_glob(ser, spec, err);
	set = g_hash_table_new(NULL, NULL);
	if (!strcmp(spec, "_")) {
		for (i = 1; i < ser->slots->len; i++) {
			struct spatch *p =
			    g_array_index(ser->slots, struct series_entry, i).p;

			if (p && msgid && !strcmp(p->msg->msgid, msgid))
				g_hash_table_add(set, GINT_TO_POINTER(i));
		}
		if (!g_hash_table_size(set)) {
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "the given message is not a patch of the "
				    "series; cannot cherry-pick it");
			g_hash_table_destroy(set);
			return NULL;
		}
		return set;
	}
	parts = g_strsplit(spec, ",", -1);
	for (i = 0; parts[i]; i++) {
		char *p = g_strstrip(parts[i]), *dash, *e1, *e2;
		long lo, hi;

		if (!*p)
			continue;
		/* b4's "<N", the patches before N; "-N", the Nth from the
		 * end (-1: the last patch) */
		if ((*p == '<' || *p == '-') && p[1] != '-') {
			lo = strtol(p + 1, &e1, 10);
			if (e1 == p + 1 || *e1 || lo < 1 ||
			    lo > upper + (*p == '<'))
				goto bad;
			hi = *p == '<' ? lo - 1 : upper + 1 - lo;
			lo = *p == '<' ? 1 : hi;
			for (; lo <= hi; lo++)
				g_hash_table_add(set, GINT_TO_POINTER((int)lo));
			continue;
		}
		dash = strchr(p, '-');
		lo = strtol(p, &e1, 10);
		if (e1 == p)
			goto bad;
		if (dash) {
			if (dash[1] == '\0') {
				hi = upper;
			} else {
				hi = strtol(dash + 1, &e2, 10);
				if (*e2)
					goto bad;
			}
			if (e1 != dash)
				goto bad;
		} else {
			if (*e1)
				goto bad;
			hi = lo;
		}
		if (lo < 1 || hi < lo)
			goto bad;
		for (; lo <= hi && lo <= upper; lo++)
			g_hash_table_add(set, GINT_TO_POINTER((int)lo));
	}
	return set;
bad:
	g_set_error(
	    err, LORE_ERROR, LORE_EUSAGE,
	    "bad --cherry-pick range '%s' (expected e.g. 1-3,5,7-,<4,-1)",
	    spec);
	g_hash_table_destroy(set);
	return NULL;
}
