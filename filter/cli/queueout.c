/*
 * queueout.c - the queue written out: a line a series (state, revision,
 * patches, reviews, age, subject), JSON with every revision, or one
 * series for a pager.
 */
#include "cli/queueout.h"
#include "core/json.h"
#include "core/util.h"

#include <string.h>

/* "5m", "3h", "12d": how long ago @t was */
static char *
age(gint64 t, gint64 now)
{
	gint64 d = now > t ? now - t : 0;

	if (d < 3600)
		return g_strdup_printf("%" G_GINT64_FORMAT "m", d / 60);
	if (d < 2 * 86400)
		return g_strdup_printf("%" G_GINT64_FORMAT "h", d / 3600);
	return g_strdup_printf("%" G_GINT64_FORMAT "d", d / 86400);
}

static const struct queue_rev *
latest(const struct queue_series *s)
{
	return s->revs->pdata[s->revs->len - 1];
}

void
queueout_text(GPtrArray *rows, gint64 now, FILE *out)
{
	guint i;

	for (i = 0; i < rows->len; i++) {
		const struct queue_series *s = rows->pdata[i];
		g_autofree char *subj = lore_term_safe(s->subject, -1);
		g_autofree char *a = age(latest(s)->first_seen, now);
		g_autofree char *rev = g_strdup_printf("v%d", s->revision);
		g_autofree char *pat =
		    g_strdup_printf("%d/%d", s->present, s->expected);
		g_autofree char *rv =
		    g_strdup_printf("%d/%d", s->reviewed_patches, s->expected);

		fprintf(out, "%-10s %-4s %-7s %-7s %4s  %s\n",
			queue_state_name(s->state), rev, pat, rv, a, subj);
	}
}

/* "[[R, A, T], ...]" from "R/A/T R/A/T" */
static void
json_reviews(GString *j, const char *reviews)
{
	g_auto(GStrv) v = g_strsplit(reviews, " ", -1);
	guint i;

	g_string_append_c(j, '[');
	for (i = 0; v[i] && *v[i]; i++) {
		unsigned r = 0, a = 0, t = 0;

		if (sscanf(v[i], "%u/%u/%u", &r, &a, &t) != 3)
			r = a = t = 0;
		g_string_append_printf(j, "%s[%u, %u, %u]", i ? ", " : "", r, a,
				       t);
	}
	g_string_append_c(j, ']');
}

static void
json_rev(GString *j, const struct queue_rev *r, gboolean first)
{
	g_string_append_printf(
	    j,
	    "%s\n      {\"revision\": %d, \"state\": \"%s\", "
	    "\"patches\": %d, \"expected\": %d, "
	    "\"message_id\": ",
	    first ? "" : ",", r->revision, queue_state_name(r->state),
	    r->present, r->expected);
	json_str(j, r->root ?: "", -1);
	g_string_append(j, ", \"reviews\": ");
	json_reviews(j, r->reviews);
	g_string_append_c(j, '}');
}

static void
json_series(GString *j, const struct queue_series *s, gint64 now)
{
	guint i;

	g_string_append_printf(
	    j,
	    "  {\"state\": \"%s\", \"revision\": %d, \"patches\": %d, "
	    "\"expected\": %d, \"reviewed_patches\": %d, \"reviews\": %d, "
	    "\"age_seconds\": %" G_GINT64_FORMAT
	    ", \"first_seen\": %" G_GINT64_FORMAT
	    ", \"last_seen\": %" G_GINT64_FORMAT ",\n   \"subject\": ",
	    queue_state_name(s->state), s->revision, s->present, s->expected,
	    s->reviewed_patches, s->reviews,
	    MAX(now - latest(s)->first_seen, 0), s->first_seen, s->last_seen);
	json_str(j, s->subject ?: "", -1);
	g_string_append(j, ", \"author\": ");
	json_str(j, s->author ?: "", -1);
	g_string_append(j, ", \"key\": ");
	json_str(j, s->key ?: "", -1);
	g_string_append(j, ", \"message_id\": ");
	json_str(j, latest(s)->root ?: "", -1);
	g_string_append(j, ",\n   \"applied\": ");
	if (s->applied_note)
		json_str(j, s->applied_note ?: "", -1);
	else
		g_string_append(j, "null");
	g_string_append(j, ", \"revisions\": [");
	for (i = 0; i < s->revs->len; i++)
		json_rev(j, s->revs->pdata[i], i == 0);
	g_string_append(j, "]}");
}

void
queueout_json(GPtrArray *rows, gint64 now, FILE *out)
{
	GString *j = g_string_new("[");
	guint i;

	for (i = 0; i < rows->len; i++) {
		g_string_append(j, i ? ",\n" : "\n");
		json_series(j, rows->pdata[i], now);
	}
	g_string_append(j, rows->len ? "\n]\n" : "]\n");
	fwrite(j->str, 1, j->len, out);
	g_string_free(j, TRUE);
}

static void
show_rev(const struct queue_rev *r, FILE *out)
{
	g_auto(GStrv) v = g_strsplit(r->reviews, " ", -1);
	g_autofree char *root = lore_term_safe(r->root, -1);
	guint i;

	fprintf(out, "  v%-3d %-10s %d/%d patches  <%s>\n", r->revision,
		queue_state_name(r->state), r->present, r->expected, root);
	for (i = 0; v[i] && *v[i]; i++) {
		unsigned rv = 0, a = 0, t = 0;

		sscanf(v[i], "%u/%u/%u", &rv, &a, &t);
		fprintf(out,
			"       %2u/%d  Reviewed-by: %u  Acked-by: %u  "
			"Tested-by: %u\n",
			i + 1, r->expected, rv, a, t);
	}
}

void
queueout_show(const struct queue_series *s, FILE *out)
{
	g_autofree char *subj = lore_term_safe(s->subject, -1);
	g_autofree char *from = lore_term_safe(s->author, -1);
	guint i;

	fprintf(out,
		"Series:  %s\nFrom:    %s\nState:   %s (v%d, %d/%d "
		"patches, %d/%d reviewed)\n",
		subj, from, queue_state_name(s->state), s->revision, s->present,
		s->expected, s->reviewed_patches, s->expected);
	if (s->applied_note) {
		g_autofree char *n = lore_term_safe(s->applied_note, -1);

		fprintf(out, "Applied: %s\n", n);
	}
	fprintf(out, "Revisions:\n");
	for (i = 0; i < s->revs->len; i++)
		show_rev(s->revs->pdata[i], out);
}
