/*
 * mbox.c - the mbox format: splitting (RFC 4155 From_ lines; the mboxrd
 * quoting of ">*From " lines) of a buffer, a stream, or a path read in
 * chunks (a file, stdin, a "*.gz"); a directory is handed to mboxfile.c's
 * maildir walk.
 */
#include "mail/mbox.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

gboolean
mbox_is_from_line(const char *line, size_t len)
{
	const char *colon, *end;
	char tail[16];
	size_t n;

	if (len < 20 || memcmp(line, "From ", 5))
		return FALSE;
	end = line + len;
	while (end > line && (end[-1] == '\r' || end[-1] == '\n'))
		end--;
	/* the last ':' is the one of ":SS" in "HH:MM:SS YYYY" */
	for (colon = end - 1; colon > line + 5; colon--)
		if (*colon == ':')
			break;
	if (colon - line < 9 || end - colon < 3)
		return FALSE;
	if (!g_ascii_isdigit(colon[-4]) || !g_ascii_isdigit(colon[-2]) ||
	    !g_ascii_isdigit(colon[-1]) || !g_ascii_isdigit(colon[1]) ||
	    !g_ascii_isdigit(colon[2]))
		return FALSE;
	/* then a year after 1990, as git mailsplit wants it */
	n = MIN((size_t)(end - (colon + 3)), sizeof(tail) - 1);
	memcpy(tail, colon + 3, n);
	tail[n] = '\0';
	return strtol(tail, NULL, 10) > 90;
}

static gboolean
is_escaped_from(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && line[i] == '>')
		i++;
	return i > 0 && len - i >= 5 && !memcmp(line + i, "From ", 5);
}

/*
 * Hand one message to @cb, removing one level of ">From " quoting from
 * its lines, which the caller knows hold some. The copy goes from one
 * ">From " to the next (a line is quoted when only '>'s stand between
 * its start and one), not line by line: such messages are long patches.
 */
static void
unquote_lines(const char *msg, size_t len, mbox_cb cb, void *data)
{
	const char *end = msg + len, *from = msg, *f, *copied = msg;
	char *out = g_malloc(len + 1), *o = out;

	while ((f = memmem(from, end - from, ">From ", 6))) {
		const char *ls = f;

		/* no earlier match reaches back here: it ends in "From " */
		while (ls > msg && ls[-1] == '>')
			ls--;
		if (ls == msg || ls[-1] == '\n') {
			memcpy(o, copied, ls - copied);
			o += ls - copied;
			copied = ls + 1; /* one '>' dropped */
		}
		from = f + 6;
	}
	memcpy(o, copied, end - copied);
	o += end - copied;
	*o = '\0';
	cb(out, o - out, data);
	g_free(out);
}

void
mbox_unquote(const char *msg, size_t len, mbox_cb cb, void *data)
{
	/* fast path: most messages have no quoted From_ lines at all */
	if (!memmem(msg, len, ">From ", 6))
		cb(msg, len, data);
	else
		unquote_lines(msg, len, cb, data);
}

/*
 * An unescaped "From " line in a body (mboxo written carelessly) must not
 * split a message: without a date on it, a separator is only one that a
 * header field follows.
 */
static gboolean
header_follows(const char *buf, size_t len, size_t pos)
{
	const char *l;
	size_t ll, i;

	if (!lore_next_line(buf, len, &pos, &l, &ll))
		return FALSE;
	for (i = 0; i < ll; i++) {
		if (l[i] == ':')
			return i > 0;
		if (l[i] <= ' ' || l[i] > '~')
			return FALSE;
	}
	return FALSE;
}

/*
 * The splitter between two calls of split_lines(): offsets into the
 * caller's buffer, which always starts at or before the current message.
 */
struct split {
	goffset base;	 /* the file offset of the buffer's first byte */
	size_t pos;	 /* the next line to read */
	size_t start;	 /* where the current message starts */
	size_t searched; /* the unfinished line is searched for its '\n'
			    from here (a line that never ends, a bomb of
			    zeros, is searched once, not once per chunk) */
	gboolean prev_blank, have;
	gboolean framed; /* a From_ line was seen */
	gboolean quoted; /* a ">From " line is in the current message (the
			    lines are read here anyway: no second search) */
	mbox_cb cb;
	mbox_span_cb span; /* instead of cb: the raw bytes and their place */
	void *data;
	const gboolean *stop; /* once TRUE, nothing more is handed over */
};

static void
hand_over(struct split *st, const char *buf, size_t start, size_t end)
{
	if (st->span)
		st->span(st->base + (goffset)start, buf + start, end - start,
			 st->data);
	else if (st->quoted)
		unquote_lines(buf + start, end - start, st->cb, st->data);
	else
		st->cb(buf + start, end - start, st->data);
}

/*
 * Read the lines of [buf, buf+len) from st->pos on, handing over each
 * message that a From_ line ends. Without @final, an unfinished last line
 * waits for more input; with it, the last message is handed over too.
 */
/*
 * Skip from st->pos (a line start) to the start of the next line that
 * holds "From " anywhere, or past the last whole line: the lines between
 * matter only in whether the last of them is blank. Not for a line
 * searched before (an unfinished one): that one is read as it is.
 */
/* The first "From " in [p, p+n), or NULL: memchr() for its 'F' is many
 * times faster than memmem() on text where an 'F' is rare. */
static const char *
find_from(const char *p, size_t n)
{
	const char *end = p + n, *f;

	while ((f = memchr(p, 'F', end - p))) {
		if (end - f >= 5 && !memcmp(f, "From ", 5))
			return f;
		p = f + 1;
	}
	return NULL;
}

static void
skip_lines(struct split *st, const char *buf, size_t len)
{
	const char *p = buf + st->pos, *hit, *nl, *prev;
	size_t to;

	if (!st->have || st->searched > st->pos)
		return;
	hit = find_from(p, len - st->pos);
	if (hit) {
		nl = hit > p ? memrchr(p, '\n', hit - p) : NULL;
	} else {
		nl = memrchr(p, '\n', len - st->pos);
	}
	if (!nl)
		return; /* the next line is the one: read it */
	to = nl - buf + 1;
	/* the line before @to: [prev, nl) */
	prev = nl > p ? memrchr(p, '\n', nl - p) : NULL;
	prev = prev ? prev + 1 : p;
	st->prev_blank = nl == prev || (nl == prev + 1 && *prev == '\r');
	st->pos = to;
}

static void
split_lines(struct split *st, const char *buf, size_t len, gboolean final)
{
	for (skip_lines(st, buf, len); st->pos < len;
	     skip_lines(st, buf, len)) {
		const char *line = buf + st->pos;
		size_t from = MAX(st->pos, st->searched);
		const char *nl = memchr(buf + from, '\n', len - from);
		size_t off = st->pos, ll, cl;

		if (!nl && !final) {
			st->searched = len;
			break;
		}
		ll = nl ? (size_t)(nl - line) : len - off;
		st->pos = nl ? (size_t)(nl - buf + 1) : len;
		cl = (ll && line[ll - 1] == '\r') ? ll - 1 : ll;
		if (cl >= 5 && !memcmp(line, "From ", 5) &&
		    !mbox_is_from_line(line, cl) && st->prev_blank && !final &&
		    !memchr(buf + st->pos, '\n', len - st->pos)) {
			/* header_follows() needs the whole next line */
			st->pos = off;
			break;
		}
		if (cl >= 5 && !memcmp(line, "From ", 5) &&
		    (mbox_is_from_line(line, cl) ||
		     (st->prev_blank && header_follows(buf, len, st->pos)))) {
			/* the blank line before a From_ line separates */
			size_t end = off, start = st->start;

			if (st->prev_blank && end > start + 1 &&
			    buf[end - 1] == '\n')
				end -=
				    (end >= start + 2 && buf[end - 2] == '\r')
					? 2
					: 1;
			if (st->have && end > start)
				hand_over(st, buf, start, end);
			if (st->stop && *st->stop) {
				st->pos = len;
				return;
			}
			st->start = off;
			st->have = TRUE;
			st->framed = TRUE;
			st->quoted = FALSE;
		} else if (!st->have) {
			/* a single message without a From_ line */
			st->have = TRUE;
			st->start = off;
		}
		if (ll > 5 && line[0] == '>' && is_escaped_from(line, ll))
			st->quoted = TRUE;
		st->prev_blank = (cl == 0);
	}
	if (!final || (st->stop && *st->stop))
		return;
	/*
	 * The last message of an mbox ends with the same blank line as the
	 * others (mutt and mboxrd writers add one after every message):
	 * drop it too, or each read-and-write round trip would grow the last
	 * message by a line. A bare message (no From_ line) keeps its bytes.
	 */
	if (st->have && st->framed && st->prev_blank && len > st->start + 1 &&
	    buf[len - 1] == '\n')
		len -= (len >= st->start + 2 && buf[len - 2] == '\r') ? 2 : 1;
	if (st->have && len > st->start)
		hand_over(st, buf, st->start, len);
}

void
mbox_split(const char *buf, size_t len, mbox_cb cb, void *data)
{
	struct split st = {.prev_blank = TRUE, .cb = cb, .data = data};

	split_lines(&st, buf, len, TRUE);
}

struct mbox_stream {
	GString *buf; /* from the start of the current message on */
	struct split st;
};

static struct mbox_stream *
stream_new(const struct split *init)
{
	struct mbox_stream *s = g_new0(struct mbox_stream, 1);

	s->buf = g_string_sized_new(2 * 65536);
	s->st = *init;
	return s;
}

struct mbox_stream *
mbox_stream_new(mbox_cb cb, void *data)
{
	struct split st = {.prev_blank = TRUE, .cb = cb, .data = data};

	return stream_new(&st);
}

/* Split what s->buf holds, and drop what was handed over. */
static void
stream_split(struct mbox_stream *s)
{
	struct split *st = &s->st;

	split_lines(st, s->buf->str, s->buf->len, FALSE);
	/* what was handed over is no longer needed */
	if (st->have && st->start) {
		g_string_erase(s->buf, 0, st->start);
		st->base += (goffset)st->start;
		st->pos -= st->start;
		st->searched =
		    st->searched > st->start ? st->searched - st->start : 0;
		st->start = 0;
	}
}

void
mbox_stream_feed(struct mbox_stream *s, const char *p, size_t n)
{
	g_string_append_len(s->buf, p, n);
	stream_split(s);
}

size_t
mbox_stream_held(const struct mbox_stream *s)
{
	return s->buf->len;
}

void
mbox_stream_end(struct mbox_stream *s)
{
	split_lines(&s->st, s->buf->str, s->buf->len, TRUE);
	g_string_truncate(s->buf, 0);
	s->st.have = s->st.quoted = FALSE;
	s->st.pos = s->st.start = s->st.searched = 0;
}

void
mbox_stream_free(struct mbox_stream *s)
{
	if (!s)
		return;
	g_string_free(s->buf, TRUE);
	g_free(s);
}

/* Read up to @n bytes into @buf: the count, 0 at the end, -1 on error. */
typedef gssize (*read_fn)(void *handle, char *buf, size_t n);

static gssize
read_file(void *handle, char *buf, size_t n)
{
	size_t got = fread(buf, 1, n, handle);

	return got || !ferror(handle) ? (gssize)got : -1;
}

/*
 * zlib gives a file cut inside its gzip stream as the bytes it had, then
 * an end with Z_BUF_ERROR: that end is an error, never a shorter mbox.
 */
static gssize
read_gz(void *handle, char *buf, size_t n)
{
	int got = gzread(handle, buf, n), e = Z_OK;

	if (got == 0)
		gzerror(handle, &e);
	return e == Z_BUF_ERROR ? -1 : got;
}

#define SPLIT_CHUNK 65536

/*
 * Split an mbox as it is read, chunk by chunk: only the message being read
 * is held in memory, never the whole file (a large archive would otherwise
 * be in memory twice, once read and once in its messages).
 */
static gboolean
split_stream(read_fn rd, void *handle, const struct split *init)
{
	struct mbox_stream *s = stream_new(init);
	gssize n = 0;

	/* read straight into the buffer, where it is split: a chunk is not
	 * copied a second time */
	while (!(init->stop && *init->stop)) {
		size_t held = s->buf->len;

		g_string_set_size(s->buf, held + SPLIT_CHUNK);
		n = rd(handle, s->buf->str + held, SPLIT_CHUNK);
		g_string_set_size(s->buf, held + (n > 0 ? (size_t)n : 0));
		if (n <= 0)
			break;
		stream_split(s);
	}
	if (init->stop && *init->stop)
		n = 0;
	if (n == 0)
		mbox_stream_end(s);
	mbox_stream_free(s);
	return n == 0;
}

static gboolean
read_error(const char *path, GError **err)
{
	g_set_error(err, LORE_ERROR, LORE_EUSAGE, "cannot read '%s': %s", path,
		    g_strerror(errno));
	return FALSE;
}

/* Read at most the bytes a limit leaves: a file that grows while it is
 * read is split as it was when its size was taken. */
struct limited {
	FILE *f;
	goffset left;
};

static gssize
read_limited(void *handle, char *buf, size_t n)
{
	struct limited *l = handle;
	gssize got;

	if ((goffset)n > l->left)
		n = (size_t)l->left;
	if (!n)
		return 0;
	got = read_file(l->f, buf, n);
	if (got > 0)
		l->left -= got;
	return got;
}

gboolean
mbox_scan_spans(const char *path, goffset start, goffset end, mbox_span_cb cb,
		void *data, GError **err)
{
	struct split st = {
	    .base = start, .prev_blank = TRUE, .span = cb, .data = data};
	struct limited l;
	gboolean ok;

	l.f = fopen(path, "rb");
	if (!l.f)
		return read_error(path, err);
	l.left = end - start;
	ok = fseeko(l.f, start, SEEK_SET) == 0 &&
	     split_stream(read_limited, &l, &st);
	if (!ok)
		read_error(path, err);
	fclose(l.f);
	return ok;
}

gboolean
mbox_read_path(const char *path, mbox_cb cb, void *data, GError **err)
{
	return mbox_read_path_until(path, cb, data, NULL, err);
}

gboolean
mbox_read_path_until(const char *path, mbox_cb cb, void *data,
		     const gboolean *stop, GError **err)
{
	struct split st = {
	    .prev_blank = TRUE, .cb = cb, .data = data, .stop = stop};
	gboolean ok;
	FILE *f;

	if (!strcmp(path, "-"))
		return split_stream(read_file, stdin, &st) ||
		       read_error("stdin", err);
	if (g_file_test(path, G_FILE_TEST_IS_DIR))
		return mbox_read_maildir(path, cb, data, stop, err);
	if (g_str_has_suffix(path, ".gz")) {
		gzFile gz = gzopen(path, "rb");

		if (!gz)
			return read_error(path, err);
		int e = Z_OK;

		ok = split_stream(read_gz, gz, &st);
		if (!ok)
			gzerror(gz, &e);
		gzclose(gz);
		if (!ok)
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "cannot decompress '%s': %s", path,
				    e == Z_BUF_ERROR
					? "the gzip data ends early (truncated "
					  "file)"
					: "the gzip data is corrupt");
		return ok;
	}
	f = fopen(path, "rb");
	if (!f)
		return read_error(path, err);
	ok = split_stream(read_file, f, &st) || read_error(path, err);
	fclose(f);
	return ok;
}

void
mbox_append_mboxrd_line(GString *out, const char *line, size_t len)
{
	size_t q = 0;

	while (q < len && line[q] == '>')
		q++;
	if (len - q >= 5 && !memcmp(line + q, "From ", 5))
		g_string_append_c(out, '>');
	g_string_append_len(out, line, len);
}
