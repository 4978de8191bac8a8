/*
 * mbox.h - reading mailboxes: mbox files (mboxo and mboxrd, ">From "
 * unescaped one level as mboxrd specifies), maildirs (cur/ and new/), and
 * whole files or stdin into memory.
 *
 * Ownership: callbacks get a borrowed view of one message that lives only
 * for the call; copy what you keep (message_parse() does).
 */
#ifndef LORE_MBOX_H
#define LORE_MBOX_H

#include <glib.h>
#include <stddef.h>

typedef void (*mbox_cb)(const char *msg, size_t len, void *data);

/*
 * One message of an mbox file as it lies there: @off is where its From_
 * line (or its first byte) starts, @raw its @len bytes still quoted (hand
 * them to mbox_unquote() for what mbox_read_path() would give).
 */
typedef void (*mbox_span_cb)(goffset off, const char *raw, size_t len,
			     void *data);

/* Split an mbox held in memory and call @cb once per message. */
void mbox_split(const char *buf, size_t len, mbox_cb cb, void *data);

/*
 * The same for an mbox that arrives in pieces (a file read in chunks, an
 * answer inflated as it streams in): each message is handed over as soon
 * as the From_ line after it is read, exactly as mbox_split() of the whole
 * would give it, and only the message being read is held. Ownership: the
 * stream is the caller's (mbox_stream_free()).
 */
struct mbox_stream;

struct mbox_stream *mbox_stream_new(mbox_cb cb, void *data);
void mbox_stream_feed(struct mbox_stream *s, const char *p, size_t n);
/* The input is over: hand over the last message. */
void mbox_stream_end(struct mbox_stream *s);
/* Bytes held: the message being read, so far. */
size_t mbox_stream_held(const struct mbox_stream *s);
void mbox_stream_free(struct mbox_stream *s);

/*
 * Read @path: "-" is stdin (an mbox), a directory is a maildir, anything
 * else an mbox file. Returns FALSE and sets @err when it cannot be read.
 */
gboolean mbox_read_path(const char *path, mbox_cb cb, void *data, GError **err);

/*
 * The same, handing nothing more over and reading no further once *@stop
 * (which @cb may set) is TRUE; that is no error.
 */
gboolean mbox_read_path_until(const char *path, mbox_cb cb, void *data,
			      const gboolean *stop, GError **err);

/*
 * Split the bytes [@start, @end) of the mbox file @path as mbox_read_path()
 * splits the whole file, when @start is 0 or where a message starts (a
 * From_ line that separates). For an index that remembers where each
 * message lies; FALSE and @err when the file cannot be read.
 */
gboolean mbox_scan_spans(const char *path, goffset start, goffset end,
			 mbox_span_cb cb, void *data, GError **err);

/* Take one level of ">From " quoting off one message and hand it to @cb. */
void mbox_unquote(const char *msg, size_t len, mbox_cb cb, void *data);

/*
 * The rest is mboxfile.c's: whole files and maildirs.
 *
 * Hand each message of the maildir @path (cur/ then new/, each in name
 * order, files that cannot be read skipped) to @cb until *@stop is TRUE.
 * FALSE and @err when @path has neither cur/ nor new/.
 */
gboolean mbox_read_maildir(const char *path, mbox_cb cb, void *data,
			   const gboolean *stop, GError **err);

/*
 * Slurp a file (or stdin for "-"; "*.gz" decompressed) into a new GBytes.
 * With @max > 0, more than @max bytes is an error (LORE_EUSAGE) and no
 * more than @max + 1 bytes are ever held.
 */
GBytes *mbox_slurp(const char *path, gsize max, GError **err);

/*
 * One message's file (a maildir's; "*.gz" decompressed), of which at most
 * LORE_MAX_MESSAGE + 1 bytes are read: a larger one comes back that long,
 * known too big without being held whole. NULL when it cannot be read.
 */
GBytes *mbox_slurp_message(const char *path);

/*
 * git mailsplit's test for a From_ line that separates messages: "From "
 * followed by text ending in a time and a year. A body line that passes it
 * would split a message in plain (mboxo) output.
 */
gboolean mbox_is_from_line(const char *line, size_t len);

/*
 * Append @line (without its newline) to @out as mboxrd writes it: a line
 * that is "From " after any number of '>' gets one '>' more, which the
 * readers above take off again.
 */
void mbox_append_mboxrd_line(GString *out, const char *line, size_t len);

#endif
