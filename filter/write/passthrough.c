/*
 * passthrough.c - the mail filter mode: stdin is kept in memory up to a
 * limit so the series work can read it, then written back unchanged. The
 * only change ever made is one added header field (RFC 5322 3.6: a field
 * name of printable ASCII but ':', then ':'), put before the first field so
 * that the rest of the message keeps its bytes and its line ends.
 */
#include "write/passthrough.h"
#include "core/util.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 65536

static gboolean
read_some(int fd, GByteArray *buf, size_t want, gboolean *eof, GError **err)
{
	size_t old = buf->len;
	ssize_t n;

	g_byte_array_set_size(buf, old + want);
	do
		n = read(fd, buf->data + old, want);
	while (n < 0 && errno == EINTR);
	g_byte_array_set_size(buf, old + (n > 0 ? n : 0));
	if (n < 0) {
		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "cannot read standard input: %s",
			    g_strerror(errno));
		return FALSE;
	}
	*eof = n == 0;
	return TRUE;
}

/* Does the line at @p start a header field ("Name:", "Name :")? */
static gboolean
is_field(const guint8 *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] > ' ' && p[i] < 0x7f && p[i] != ':')
		i++;
	if (!i)
		return FALSE;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i < n && p[i] == ':';
}

/* Where the header block starts, and whether the input is mail at all. */
static void
find_headers(struct passthrough *pt)
{
	const guint8 *p = pt->buf->data, *nl;
	size_t n = pt->buf->len, off = 0;

	if (n >= 5 && !memcmp(p, "From ", 5)) {
		nl = memchr(p, '\n', n);
		if (!nl)
			return;
		off = nl - p + 1;
	}
	nl = memchr(p + off, '\n', n - off);
	if (!nl || !is_field(p + off, nl - (p + off)))
		return;
	pt->is_mail = TRUE;
	pt->hdr_off = off;
	pt->crlf = nl > p + off && nl[-1] == '\r';
}

gboolean
passthrough_read(struct passthrough *pt, int fd, size_t max, GError **err)
{
	gboolean ok = TRUE;

	memset(pt, 0, sizeof(*pt));
	pt->buf = g_byte_array_new();
	pt->in_fd = fd;
	while (!pt->eof && pt->buf->len < max) {
		size_t want = MIN((size_t)CHUNK, max - pt->buf->len);

		if (!read_some(fd, pt->buf, want, &pt->eof, err)) {
			/* keep what we have: it still goes out */
			pt->eof = TRUE;
			ok = FALSE;
			break;
		}
	}
	find_headers(pt);
	return ok;
}

char *
passthrough_status(const struct amjob_result *r, int rc,
		   const struct queue_seen *q)
{
	GString *s = g_string_new("status=");
	gboolean series = r && r->revision > 0;
	gboolean missing = series && r->missing && r->missing->len;
	guint i;

	/* the gate's hardfail is what it found (gate=fail), not an error */
	if (rc == LORE_OK || rc == LORE_EGATE ||
	    (rc == LORE_ENOTFOUND && missing))
		g_string_append(s, missing ? "incomplete" : "complete");
	else if (rc == LORE_ENOTFOUND && !series)
		g_string_append(s, "none");
	else
		g_string_append_printf(s, "error; code=%d", rc);
	if (!series)
		return g_string_free(s, FALSE);
	g_string_append_printf(s, "; revision=%d; patches=%d/%d", r->revision,
			       r->present, r->expected);
	for (i = 0; missing && i < r->missing->len; i++)
		g_string_append_printf(s, "%s%d", i ? "," : "; missing=",
				       g_array_index(r->missing, int, i));
	if (r->stem)
		g_string_append_printf(s, "; series=%s", r->stem);
	/* the queue's word on the mail's own revision (queue.h) */
	if (q && q->known)
		g_string_append_printf(s, "; state=%s; reviews=%s",
				       queue_state_name(q->state),
				       q->reviews ? q->reviews : "");
	g_string_append_printf(s, "; attestation=%s",
			       r->attestation ? r->attestation : "none");
	if (r->gate && strcmp(r->gate, "pass"))
		g_string_append_printf(s, "; gate=%s", r->gate);
	return g_string_free(s, FALSE);
}

static gboolean
write_all(int fd, const void *data, size_t n, GError **err)
{
	if (lore_write_all(fd, data, n))
		return TRUE;
	g_set_error(err, LORE_ERROR, LORE_EIO,
		    "cannot write standard output: %s", g_strerror(errno));
	return FALSE;
}

gboolean
passthrough_write(struct passthrough *pt, int out_fd, const char *status,
		  GError **err)
{
	const guint8 *p = pt->buf->data;
	size_t n = pt->buf->len, head = 0;

	if (status && pt->is_mail) {
		g_autofree char *line = g_strconcat(
		    "X-Lore-Am: ", status, pt->crlf ? "\r\n" : "\n", NULL);

		head = pt->hdr_off;
		if (!write_all(out_fd, p, head, err) ||
		    !write_all(out_fd, line, strlen(line), err))
			return FALSE;
	}
	if (!write_all(out_fd, p + head, n - head, err))
		return FALSE;
	/* The rest of a message too large to keep goes straight through. */
	while (!pt->eof) {
		g_byte_array_set_size(pt->buf, 0);
		if (!read_some(pt->in_fd, pt->buf, CHUNK, &pt->eof, err) ||
		    !write_all(out_fd, pt->buf->data, pt->buf->len, err))
			return FALSE;
	}
	return TRUE;
}

void
passthrough_clear(struct passthrough *pt)
{
	if (pt->buf)
		g_byte_array_unref(pt->buf);
	memset(pt, 0, sizeof(*pt));
}
