/*
 * message.h - one mail message: its raw bytes, the few headers that
 * threading and series selection need (read by a cheap header scan), and its
 * text body, decoded lazily (in place for 7bit/8bit text/plain, through GMime
 * for base64, quoted-printable and multipart).
 *
 * Ownership: a struct message owns every field. The struct, its raw bytes
 * and the header's strings are one allocation (a thread holds thousands
 * of messages): a field is never g_free()d on its own, only replaced
 * through message_set_*(). Messages that belong to a thread are owned by
 * the thread (thread.h); message_free() is for the rest.
 */
#ifndef LORE_MESSAGE_H
#define LORE_MESSAGE_H

#include <glib.h>
#include <stddef.h>

struct message {
	char *raw; /* the message as read, without a From_ line */
	size_t len;
	size_t body_off;   /* where the body starts in raw */
	char *msgid;	   /* normalised (msgid.h); NULL when absent */
	char *in_reply_to; /* first id of In-Reply-To, or NULL */
	GPtrArray *refs;   /* ids of References, in order (char *) */
	char *subject;	   /* decoded, one clean line (lore_one_line) */
	char *from_name;   /* decoded display name, "" when none */
	char *from_email;  /* "" when none */
	char *from_hdr;	   /* From as one clean line, not decoded; or NULL */
	char *date_hdr;	   /* Date as one clean line; NULL when absent */
	gint64 date;	   /* seconds since the epoch, 0 when unknown */
	int date_tz;	   /* the Date's offset from UTC, in seconds */
	char *to_hdr;	   /* To/Cc as clean lines, for --cc-trailers */
	char *cc_hdr;
	char *ctype_hdr; /* raw Content-Type and -Transfer-Encoding */
	char *cte_hdr;
	gboolean dkim_signed; /* a DKIM-Signature field is there (attest.c) */
	gboolean dev_signed;  /* an X-Developer-Signature (patatt) is there */
	gboolean once_twice;  /* a field of message_once_fields is there more
			       * than once: an attack signal (attest.c) */
	gboolean hdr_odd;     /* a header line is neither a field nor its
			       * continuation (skipped here; GMime may end
			       * the header there or refuse the message) */
	char *body;	  /* decoded UTF-8 text with LF ends (message_body) */
	char *patch_text; /* the same with the patch's bytes as sent, when
			   * they are not UTF-8 (message_am_body); or NULL */
	gboolean body_done;
	gboolean body_nul;    /* the text held NUL bytes, now U+FFFD: a patch
			       * with them is refused, never cut short */
	guint seq;	      /* order in which the thread received it */
	const char *origin;   /* static name of the source that supplied it */
	gboolean provisional; /* piped in; a source's copy replaces it */
	GPtrArray *split;     /* message_split()'s mails (owned), or NULL */
	gboolean split_done;
	const char *block_end; /* the end of the one allocation */
};

/*
 * Parse @len bytes at @buf. A leading mbox "From " line is skipped; CRLF and
 * LF line ends are both accepted. Returns NULL and sets @err when the bytes
 * do not look like a mail at all (no header lines), hold a NUL in the
 * header, or are more than LORE_MAX_MESSAGE bytes.
 */
struct message *message_parse(const char *buf, size_t len, GError **err);

void message_free(struct message *msg);

/* Replace @m's In-Reply-To id with a copy of @id. */
void message_set_in_reply_to(struct message *m, const char *id);

/* Is @p (a field of @m's) allocated apart from @m's one allocation? */
gboolean message_owns_apart(const struct message *m, const void *p);

/*
 * The text body as git mailinfo reads it: every text/plain, text/x-patch
 * and text/x-diff part in order, and any other part (but HTML) that holds
 * a diff, whatever its type; transfer encodings undone, a format=flowed
 * part unwrapped (every line of it, as git does); the text before the
 * patch break (mailinfo.h) converted to UTF-8 from its part's charset, CR
 * removed at line ends, NUL bytes replaced by U+FFFD (and body_nul set).
 * Valid UTF-8, never NULL ("" when the message has no text part). Owned by
 * @msg. (msgbody.c)
 */
const char *message_body(struct message *msg);

/*
 * The same, but the patch (from the patch break on) with its bytes as they
 * were sent, which git applies unconverted: a Latin-1 byte in a patched
 * file must stay one. This is what the am-ready message is made of; it may
 * be invalid UTF-8 after the break. Owned by @msg. (msgbody.c)
 */
const char *message_am_body(struct message *msg);

/*
 * A mail carrying two or more patches as attachments (text/x-patch,
 * text/x-diff, or a file named *.patch or *.diff), as the mails of a
 * series: [0] a "[PATCH 0/N]" cover letter with the mail's Message-ID,
 * references and first inline text part, then "[PATCH i/N]" for each
 * attachment in order, with the id "<ID#i>", answering the cover letter.
 * An attachment that is a patch mail itself (a "From " line or a From:,
 * Date: or Subject: header first) keeps its own author, date, title and
 * encoding; the others take the mail's. NULL for any other mail. Made once
 * and owned by @msg. (attsplit.c)
 */
const GPtrArray *message_split(struct message *msg);

/* Does @msg nest more multiparts than a patch mail ever does? Its MIME
 * parts are then not read at all (GMime's cost grows with the depth). */
gboolean message_mime_too_deep(const struct message *msg);

/* The unfolded value of the first header @name, or NULL (g_free). */
char *message_header(const struct message *msg, const char *name);

/*
 * The fields RFC 5322 3.6 allows once in a message, as usually spelt, NULL
 * last: From, Sender, Subject, Date, Message-ID, To, Cc, In-Reply-To,
 * References. lore-am reads the first of each; a signature checks the
 * last (RFC 6376 5.4.2), so a second one is the forgery of RFC 6376 8.15.
 */
extern const char *const message_once_fields[];

/* How many header fields named @name (any case) @msg has. */
guint message_header_count(const struct message *msg, const char *name);

/* m->date and m->date_tz from m->date_hdr, for message_parse() (0 and 0
 * when it is absent or unreadable). (msgdate.c) */
void message_read_date(struct message *m);

/* "[Ddd, ]D Mmm YYYY HH:MM:SS +ZZZZ", the form nearly every mailer writes,
 * read by hand into seconds since the epoch (@t) and the zone's offset in
 * seconds (@tz), as GMime's date parser reads it; FALSE for any other form,
 * GMime's to read. (msgdate.c) */
gboolean message_date_plain(const char *s, gint64 *t, int *tz);

/* Parse an address header's first mailbox into name and email (g_free),
 * each one clean line (lore_one_line), "" when absent. (address.c) */
void message_parse_addr(const char *value, char **name, char **email);

/* For tests: every value through GMime's address parser, none read by
 * hand, to hold the two to the same result. */
extern gboolean message_addr_gmime_only;

/* Where message_parse_addr() finds the name and the address of a plain
 * "Name <local@domain>" or "local@domain" (atoms, a dot-atom address:
 * one clean line as written), without copying them; FALSE for any other
 * value. For message_parse()'s one allocation. (address.c) */
struct message_addr_span {
	const char *name, *email;
	size_t name_len, email_len;
};
gboolean message_addr_simple(const char *value, struct message_addr_span *out);

#endif
