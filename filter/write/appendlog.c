/*
 * appendlog.c - the journal of an --append (append.h), kept in its dotlock
 * while it writes, and the repair the next run makes from it when the
 * append was killed in its write: the rollback-journal idea of databases,
 * on a file that other programs append to as well, so that only what is
 * proved the killed run's own is ever changed. CRC-32 is zlib's.
 */
#include "write/appendlog.h"
#include "write/deliver.h"
#include "mail/mbox.h"
#include "core/util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/*
 * The journal an append leaves in its dotlock while it writes (a run
 * killed in the write, by SIGKILL, a crash or a power cut, leaves it
 * behind in the stale lock):
 *
 *   append OLD END          the mailbox's size before and after the write
 *   blocks BS C:B C:B ...   per block of the write, the CRC-32 of what it
 *                           meant to write there and how far back from the
 *                           block's end the last entry whole by then ends
 *                           (its distance from OLD when there is none)
 *
 * The first block runs from OLD to the next multiple of BS, the others BS
 * bytes each, the last to END. BS is 4 KiB, the page size in which the
 * kernel copies a write(), so that a write that SIGKILL stopped ends on a
 * block boundary and all it wrote is proved its own, block by block;
 * doubled past 512 MiB so that the journal stays under 3 MB. A run that
 * repairs adds "isolate A B" before it blanks [A, B) out, so that a run
 * killed in the repair is redone by the next.
 */
#define JOURNAL_BLOCK 4096
#define JOURNAL_MAX_BLOCKS (128 * 1024)
/* no write lore-am makes has blocks larger (it would be 8 TiB) */
#define JOURNAL_MAX_BS (64 << 20)

struct journal {
	guint64 old, last, bs;
	GArray *crcs;		  /* guint32, one per block */
	GArray *back;		  /* guint64, one per block */
	guint64 iso_from, iso_to; /* an "isolate" line, else 0 and 0 */
};

/* The end of the block that starts at @from (the write ends at @last). */
static guint64
block_end(guint64 from, guint64 bs, guint64 last)
{
	return MIN(last, (from / bs + 1) * bs);
}

char *
appendlog_text(gsize old, GArray *ends, const GString *buf)
{
	GString *j = g_string_new(NULL);
	guint64 bs = JOURNAL_BLOCK, last = old + buf->len, from, whole = old;
	guint k = 0;

	while (buf->len / bs >= JOURNAL_MAX_BLOCKS)
		bs *= 2;
	g_string_printf(j,
			"append %" G_GSIZE_FORMAT " %" G_GUINT64_FORMAT
			"\nblocks %" G_GUINT64_FORMAT,
			old, last, bs);
	for (from = old; from < last; from = block_end(from, bs, last)) {
		guint64 to = block_end(from, bs, last);
		uLong c = crc32(crc32(0L, Z_NULL, 0),
				(const Bytef *)buf->str + (from - old),
				(uInt)(to - from));

		while (k < ends->len && g_array_index(ends, gsize, k) <= to)
			whole = g_array_index(ends, gsize, k++);
		g_string_append_printf(j, " %08lx:%" G_GUINT64_FORMAT, c,
				       to - whole);
	}
	g_string_append_c(j, '\n');
	return g_string_free(j, FALSE);
}

/* The words after @word on its line of @text, or NULL. */
static GStrv
journal_line(const char *text, const char *word)
{
	g_autofree char *key = g_strconcat("\n", word, " ", NULL);
	const char *p = strstr(text, key), *nl;
	g_autofree char *line = NULL;

	if (!p)
		return NULL;
	p += strlen(key);
	nl = strchr(p, '\n');
	if (!nl)
		return NULL; /* cut: the journal was never whole */
	line = g_strndup(p, nl - p);
	return g_strsplit(line, " ", -1);
}

/* Two decimal numbers, the whole of @w[0] and @w[1]. */
static gboolean
journal_pair(GStrv w, guint64 *a, guint64 *b)
{
	return w && w[0] && w[1] && !w[2] &&
	       g_ascii_string_to_unsigned(w[0], 10, 0, G_MAXINT64, a, NULL) &&
	       g_ascii_string_to_unsigned(w[1], 10, 0, G_MAXINT64, b, NULL);
}

/* The "C:B" words of the blocks line. */
static gboolean
journal_blocks(GStrv w, struct journal *j)
{
	guint64 from, to;
	guint i = 0;

	for (from = j->old; from < j->last; from = to, i++) {
		const char *colon = w[i] ? strchr(w[i], ':') : NULL;
		g_autofree char *c =
		    colon ? g_strndup(w[i], colon - w[i]) : NULL;
		guint64 crc, back;
		guint32 c32;

		to = block_end(from, j->bs, j->last);
		if (!colon ||
		    !g_ascii_string_to_unsigned(c, 16, 0, G_MAXUINT32, &crc,
						NULL) ||
		    !g_ascii_string_to_unsigned(colon + 1, 10, 0, to - j->old,
						&back, NULL))
			return FALSE;
		c32 = (guint32)crc;
		g_array_append_val(j->back, back);
		g_array_append_val(j->crcs, c32);
	}
	return !w[i];
}

static void
journal_clear(struct journal *j)
{
	if (j->crcs)
		g_array_free(j->crcs, TRUE);
	if (j->back)
		g_array_free(j->back, TRUE);
}

/*
 * Read the journal a stale lock held (@text: "PID\nHOST\n" and the
 * journal); FALSE when there is none, when it is not whole (it was never
 * written, so neither was the mailbox) or not of this form (an older
 * lore-am's: the mailbox is then left as it is).
 */
static gboolean
journal_parse(const char *text, struct journal *j)
{
	g_auto(GStrv) a = text ? journal_line(text, "append") : NULL;
	g_auto(GStrv) b = text ? journal_line(text, "blocks") : NULL;
	g_auto(GStrv) iso = text ? journal_line(text, "isolate") : NULL;

	memset(j, 0, sizeof(*j));
	if (!journal_pair(a, &j->old, &j->last) || j->last <= j->old || !b ||
	    !b[0] ||
	    !g_ascii_string_to_unsigned(b[0], 10, JOURNAL_BLOCK, JOURNAL_MAX_BS,
					&j->bs, NULL))
		return FALSE;
	j->crcs = g_array_new(FALSE, FALSE, sizeof(guint32));
	j->back = g_array_new(FALSE, FALSE, sizeof(guint64));
	if (!journal_blocks(b + 1, j)) {
		journal_clear(j);
		return FALSE;
	}
	if (!journal_pair(iso, &j->iso_from, &j->iso_to) ||
	    j->iso_from < j->old || j->iso_to <= j->iso_from ||
	    j->iso_to > j->last)
		j->iso_from = j->iso_to = 0;
	return TRUE;
}

static gboolean
pread_all(int fd, void *buf, size_t n, guint64 off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r =
		    pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return FALSE;
		got += r;
	}
	return TRUE;
}

/*
 * How far the file (@size bytes) holds, from the journal's old end on,
 * exactly what the killed run meant to write: the end of the last block
 * whose bytes are there and match their CRC. *@whole: the end of the last
 * entry whole by then.
 */
static guint64
verified_end(int fd, const struct journal *j, guint64 size, guint64 *whole)
{
	guint64 from = j->old;
	guint8 *buf = g_try_malloc(j->bs);
	guint i;

	*whole = j->old;
	if (!buf)
		return from;
	for (i = 0; i < j->crcs->len; i++) {
		guint64 to = block_end(from, j->bs, j->last);

		if (to > size || !pread_all(fd, buf, to - from, from) ||
		    crc32(crc32(0L, Z_NULL, 0), buf, (uInt)(to - from)) !=
			g_array_index(j->crcs, guint32, i))
			break;
		from = to;
		*whole = to - g_array_index(j->back, guint64, i);
	}
	g_free(buf);
	return from;
}

/*
 * The @n bytes that take the place of a half-written message: a message
 * of that length that holds nothing, without a Message-ID (no reader takes
 * it for the message that was cut, and the append after it writes that
 * one whole), ending in a blank line so that what another program
 * appended after it starts a message of its own. @sep: what the append
 * put first, when the message was its first entry. Too short for a From_
 * line, it is blank lines.
 */
static GString *
placeholder(guint64 n, const char *sep)
{
	static const char from[] =
	    "From MAILER-DAEMON Thu Jan  1 00:00:00 1970\n";
	static const char subject[] =
	    "Subject: (the rest of a message a killed lore-am --append left "
	    "half-written)\n";
	GString *p = g_string_new(sep);

	if (n >= p->len + strlen(from) + 1) {
		g_string_append(p, from);
		if (n >= p->len + strlen(subject) + 1)
			g_string_append(p, subject);
	} else {
		g_string_truncate(p, 0);
	}
	while (p->len < n)
		g_string_append_c(p, '\n');
	return p;
}

/*
 * Blank out [@from, @to), the killed run's own bytes of a half-written
 * message (@from at one of its entries' starts), in place: nothing after
 * @to moves. The journal, with the span, is noted in our dotlock first, so
 * that a run killed here is redone by the next.
 */
static int
isolate_torn(struct lock *l, const struct journal *j, guint64 from, guint64 to,
	     GError **err)
{
	const char *jt = strstr(l->stale, "\nappend ");
	g_autofree char *note = NULL;
	guint8 tail[2] = {'\n', '\n'};
	const char *sep = "";
	GString *p;
	gboolean ok;

	if (!j->iso_to) {
		note = g_strdup_printf("%sisolate %" G_GUINT64_FORMAT
				       " %" G_GUINT64_FORMAT "\n",
				       jt + 1, from, to);
		lock_note(l, note);
	}
	/* the first entry began with what separated it from the old end */
	if (from == j->old && j->old > 0)
		sep = pread_all(l->fd, tail, MIN(j->old, 2),
				j->old - MIN(j->old, 2))
			  ? deliver_separator(tail, MIN(j->old, 2))
			  : "\n\n";
	p = placeholder(to - from, sep);
	ok = pwrite(l->fd, p->str, p->len, (off_t)from) == (ssize_t)p->len &&
	     fsync(l->fd) == 0;
	g_string_free(p, TRUE);
	if (!ok) {
		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "cannot blank out the half-written message in "
			    "'%s': %s",
			    l->path, g_strerror(errno));
		return LORE_EIO;
	}
	return LORE_OK;
}

/* Does a From_ line start at @off (before @size) in the mailbox? */
static gboolean
from_line_at(int fd, guint64 off, guint64 size)
{
	char line[512];
	size_t n = (size_t)MIN((guint64)sizeof(line), size - off);
	const char *nl;

	if (!pread_all(fd, line, n, off))
		return FALSE;
	nl = memchr(line, '\n', n);
	return mbox_is_from_line(line, nl ? (size_t)(nl - line) : n);
}

/*
 * The note on a repair that kept bytes after the killed run's: @whole is
 * the end of its last whole entry, @v of what is proved its own.
 */
static void
report_kept(struct lock *l, guint64 whole, guint64 v, guint64 size)
{
	gboolean mail = from_line_at(l->fd, v, size);

	if (whole < v)
		lore_err("note: blanked out in '%s' the %" G_GUINT64_FORMAT
			 " bytes of a message a killed run left half-written; "
			 "the %" G_GUINT64_FORMAT " bytes after them %s",
			 l->path, v - whole, size - v,
			 mail ? "(mail another program appended) are kept"
			      : "are kept as they are (not provably that "
				"run's)");
	else if (!mail)
		lore_err("note: '%s' holds %" G_GUINT64_FORMAT
			 " bytes after what a killed run provably wrote whole; "
			 "they are kept as they are",
			 l->path, size - v);
}

/*
 * After taking over the lock of a run that was killed while it appended
 * (its journal in @l->stale): what the file holds of that run's write,
 * proved block by block against the journal, is its own. Its whole
 * entries stay. A half-written one at the end of the file is cut off; one
 * that something else follows (a program that appends without the dotlock,
 * under fcntl locks alone, once the killed run's locks went) is blanked out
 * in place, so that neither it nor what follows is lost or merged. Bytes
 * that cannot be proved the run's own are never touched.
 */
int
appendlog_repair(struct lock *l, GError **err)
{
	struct journal j;
	struct stat st;
	guint64 size, v, whole;
	int rc = LORE_OK;

	if (!journal_parse(l->stale, &j))
		return LORE_OK;
	if (fstat(l->fd, &st) < 0)
		goto out;
	size = (guint64)st.st_size;
	if (j.iso_to && j.iso_to <= size) {
		/* a repair that was killed: the span was proved before */
		rc = isolate_torn(l, &j, j.iso_from, j.iso_to, err);
		if (!rc)
			lore_err(
			    "note: blanked out in '%s' the %" G_GUINT64_FORMAT
			    " bytes of a message a killed run left "
			    "half-written (a repair killed before it was "
			    "done)",
			    l->path, j.iso_to - j.iso_from);
		goto out;
	}
	if (j.iso_to || size <= j.old)
		goto out; /* nothing written, or cut since by someone else */
	v = verified_end(l->fd, &j, size, &whole);
	if (v == j.last)
		goto out; /* the write is whole */
	if (size == v) {
		if (ftruncate(l->fd, (off_t)whole) < 0 || fsync(l->fd) < 0) {
			g_set_error(err, LORE_ERROR, LORE_EIO,
				    "cannot cut the torn message off the end "
				    "of '%s': %s",
				    l->path, g_strerror(errno));
			rc = LORE_EIO;
			goto out;
		}
		lore_err("note: cut '%s' back to its last whole message "
			 "(%" G_GUINT64_FORMAT
			 " bytes of a message a killed run left half-written)",
			 l->path, size - whole);
		goto out;
	}
	if (whole < v)
		rc = isolate_torn(l, &j, whole, v, err);
	if (!rc)
		report_kept(l, whole, v, size);
out:
	journal_clear(&j);
	return rc;
}
