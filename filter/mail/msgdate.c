/*
 * msgdate.c - message_read_date() (message.h): the Date field read into
 * seconds and a zone. The form nearly every mailer writes is read by
 * hand, anything else (RFC 5322 3.3's obsolete forms, zone names,
 * comments) by GMime's date parser.
 */
#include "mail/message.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

/* Read @n digits at *@p into *@v and move past them. */
static gboolean
digits(const char **p, int n, int *v)
{
	int i;

	for (*v = 0, i = 0; i < n; i++, (*p)++) {
		if (!g_ascii_isdigit(**p))
			return FALSE;
		*v = *v * 10 + (**p - '0');
	}
	return TRUE;
}

/*
 * "[Ddd, ]D Mmm YYYY HH:MM:SS +ZZZZ", the form nearly every mailer writes,
 * read without GMime's date parser and the GDateTime it builds. FALSE for
 * anything else (no seconds, two-digit years, zone names, comments,
 * impossible dates), which GMime then reads.
 */
gboolean
message_date_plain(const char *s, gint64 *t, int *tz)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const char days[] = "MonTueWedThuFriSatSun";
	const char *p = s, *m;
	int d, y, h, mi, sec, zh, zm, mon;
	GDate date;

	if (g_ascii_isalpha(*p)) {
		if (!p[1] || !p[2])
			return FALSE;
		m = strstr(days, (char[]){p[0], p[1], p[2], 0});
		if (!m || (m - days) % 3 || strncmp(p + 3, ", ", 2))
			return FALSE;
		p += 5;
	}
	if (!digits(&p, 1, &d))
		return FALSE;
	if (g_ascii_isdigit(*p))
		d = d * 10 + (*p++ - '0');
	if (*p++ != ' ' || !*p || !p[1] || !p[2] || p[3] != ' ')
		return FALSE;
	m = strstr(months, (char[]){p[0], p[1], p[2], 0});
	if (!m || (m - months) % 3)
		return FALSE;
	mon = (m - months) / 3 + 1;
	p += 4;
	if (!digits(&p, 4, &y) || *p++ != ' ' || !digits(&p, 2, &h) ||
	    *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' ||
	    !digits(&p, 2, &sec) || *p++ != ' ' || (*p != '+' && *p != '-'))
		return FALSE;
	m = p++;
	if (!digits(&p, 2, &zh) || !digits(&p, 2, &zm) || *p)
		return FALSE;
	if (y < 1970 || h > 23 || mi > 59 || sec > 59 || zh > 14 || zm > 59 ||
	    !g_date_valid_dmy(d, mon, y))
		return FALSE;
	g_date_clear(&date, 1);
	g_date_set_dmy(&date, d, mon, y);
	*tz = (*m == '-' ? -1 : 1) * (zh * 3600 + zm * 60);
	/* 719163: the Julian day (GLib counts from 1 January of year 1)
	 * of 1 January 1970 */
	*t = (gint64)(g_date_get_julian(&date) - 719163) * 86400 + h * 3600 +
	     mi * 60 + sec - *tz;
	return TRUE;
}

void
message_read_date(struct message *m)
{
	GDateTime *dt;

	if (!m->date_hdr)
		return;
	if (message_date_plain(m->date_hdr, &m->date, &m->date_tz))
		return;
	dt = g_mime_utils_header_decode_date(m->date_hdr);
	if (!dt)
		return;
	m->date = g_date_time_to_unix(dt);
	m->date_tz = (int)(g_date_time_get_utc_offset(dt) / G_TIME_SPAN_SECOND);
	g_date_time_unref(dt);
}
