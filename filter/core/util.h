/*
 * util.h - the few helpers every stage shares: the error domain whose codes
 * are the exit statuses, terminal-safe text for stderr, and line iteration
 * over byte buffers.
 *
 * Ownership: functions returning char * return a newly allocated string the
 * caller frees with g_free(); nothing here keeps global state except the
 * quiet flag set once by main.c.
 */
#ifndef LORE_UTIL_H
#define LORE_UTIL_H

#include <glib.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>

#define LORE_ERROR (lore_error_quark())
GQuark lore_error_quark(void);

/*
 * Error codes double as the documented exit statuses (see lore-am(1)).
 */
enum lore_status {
	LORE_OK = 0,
	LORE_ENOTFOUND = 1, /* no patches, incomplete series, unknown id */
	LORE_EUSAGE = 2,    /* bad usage or unreadable input */
	LORE_EGATE = 3,	    /* the gate (hardfail) refused the series */
	LORE_EPULL = 4,	    /* a pull request's tip is not what it says */
	LORE_EIO = 74,	    /* output could not be written (EX_IOERR) */
	LORE_ETEMP = 75,    /* source temporarily unavailable (EX_TEMPFAIL) */
	LORE_ENOLIB = 127,  /* GMime cannot be loaded (the dynamic loader's) */
};

/*
 * The largest single message lore-am reads (64 MiB): far above any patch
 * a list accepts, low enough that a hostile one cannot take the machine's
 * memory (processing costs a few times the message size). Larger ones are
 * refused on stdin and skipped, with a warning, in mailboxes.
 */
#define LORE_MAX_MESSAGE ((gsize)64 << 20)
#define LORE_MAX_MESSAGE_TEXT "64 MiB"

/* Set by main.c from -q; lore_info() prints nothing when it is set. */
extern int lore_quiet;

/*
 * The mail filter's log line names the message it is about: when set (by
 * run.c, borrowed, terminal-safe), lore_err() puts "<ID>: " after the
 * tool's name.
 */
extern const char *lore_err_about;

/* "lore-am: " + message + "\n" on stderr, always. */
void lore_err(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* The same without the prefix, suppressed by -q. */
void lore_info(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/*
 * A stage's failure reported once: lore_err() of @err's message, then
 * @err freed (taken). Returns its code, for the caller's status.
 */
int lore_err_take(GError *err);

/*
 * Text from mail is hostile: return a copy of @s (at most @len bytes, -1 for
 * NUL-terminated) fit for a terminal: C0/C1 controls, DEL, and Unicode
 * format/bidi controls become '?', invalid UTF-8 becomes U+FFFD, a tab a
 * space, and text past LORE_TERM_MAX characters is cut to "...".
 */
#define LORE_TERM_MAX 1024
char *lore_term_safe(const char *s, gssize len);

/*
 * A header value fit for one line of an am-ready message: valid UTF-8 (as
 * lore_to_utf8 makes it), every run of white space and C0/C1 control
 * characters (line breaks, ESC, DEL, ...) one space, no space at either
 * end. A value decoded from RFC 2047 words can smuggle in any of those.
 */
char *lore_one_line(const char *s, gssize len);

/*
 * lore_one_line() of plain ASCII without a NUL, in one pass into @out
 * (@len + 1 bytes, the caller's): the length written, or -1 at the first
 * other byte, when @out holds nothing of use and lore_one_line() is the
 * way.
 */
gssize lore_one_line_ascii(const char *s, size_t len, char *out);

/*
 * The Trojan Source defence (b4's rule, and a little more): the first
 * Unicode format character (category Cf: bidi overrides and isolates,
 * zero-width characters, ...) of @text on a line without a letter of the
 * scripts that need them (category Lo); from the first "diff " line on,
 * the bidi embeddings, overrides and isolates (U+202A-U+202E and
 * U+2066-U+2069) count on every line, letters or not, as code hides
 * behind them. Returns the character and its 1-based line, 0 if none.
 */
gunichar lore_find_control(const char *text, guint *line);

/*
 * Walk the lines of [buf, buf+len): *pos is the offset of the next line on
 * entry and is advanced past it. Returns FALSE at the end. The line excludes
 * its '\n'; a trailing '\r' is kept (callers strip it where it matters).
 */
static inline gboolean
lore_next_line(const char *buf, size_t len, size_t *pos, const char **line,
	       size_t *line_len)
{
	const char *nl;

	/* inline: every line of every message comes through here */
	if (*pos >= len)
		return FALSE;
	*line = buf + *pos;
	nl = memchr(*line, '\n', len - *pos);
	if (nl) {
		*line_len = nl - *line;
		*pos = nl - buf + 1;
	} else {
		*line_len = len - *pos;
		*pos = len;
	}
	return TRUE;
}

/* Strip ASCII white space at both ends, in place; returns @s. */
char *lore_strip(char *s);

/* TRUE when [s, s+n) starts with @prefix, ASCII case-insensitively. */
gboolean lore_has_prefix_ci(const char *s, size_t n, const char *prefix);

/* Whether the absolute @path is the folder @dir or below it ("/a/bc" is
 * not below "/a/b"; everything is below "/"). */
gboolean lore_path_at_or_under(const char *path, const char *dir);

/* Number of Unicode characters in the UTF-8 string @s (bytes if invalid). */
size_t lore_utf8_width(const char *s);

/* Are the @len bytes at @s ASCII without a NUL (g_str_is_ascii() of a
 * string, eight bytes a step)? */
gboolean lore_ascii(const char *s, size_t len);

/* Are the @len bytes at @s valid UTF-8 without a NUL (g_utf8_validate(),
 * with a fast path for the ASCII most mail is)? */
gboolean lore_utf8_valid(const char *s, size_t len);

/* Make @s valid UTF-8: converted from @charset when that is another
 * charset and @s is not UTF-8 already (or @charset is one of the 7-bit
 * stateful ones below), invalid bytes shown as U+FFFD, NUL bytes dropped. */
char *lore_to_utf8(const char *s, size_t len, const char *charset);

/* Is @charset a 7-bit charset that shifts state with escape sequences
 * (ISO-2022-*, UTF-7, HZ)? Its text is valid UTF-8 and means something
 * else: it must be converted even so. FALSE for NULL. */
gboolean lore_charset_7bit_stateful(const char *charset);

/*
 * Fill a user's mask ("https://host/%s") with @value: every "%s" becomes
 * @value and "%%" a '%'; nothing else is interpreted (never a printf format).
 */
char *lore_mask_fill(const char *mask, const char *value);

/*
 * write(2) all @n bytes, again after a short write or EINTR. FALSE with
 * errno set on any other failure.
 */
gboolean lore_write_all(int fd, const void *data, size_t n);
#endif
