/*
 * message_body() on every path it takes: plain UTF-8 text used in place,
 * 8-bit text converted from its charset, single base64 and quoted-printable
 * text parts decoded without GMime's parser, and multipart through it
 * (table-driven; the expected texts are those of the GMime parser path);
 * multipart bodies put together as git mailinfo reads them, and the patch
 * bytes message_am_body() keeps as they were sent.
 */
#include <gmime/gmime.h>

#include "mail/message.h"
#include "tap.h"

#define HDR "From: A <a@example.org>\nMessage-ID: <m@x>\nSubject: s\n"

static const struct {
	const char *what, *raw, *body;
	const char *am_body; /* message_am_body(), when not body */
} cases[] = {
    {"plain UTF-8, no header", HDR "\nReviewed-by: Zo\xc3\xab <z@x>\n",
     "Reviewed-by: Zo\xc3\xab <z@x>\n", NULL},
    {"plain with CRLF line ends", HDR "\r\nline one\r\nline two\r\n",
     "line one\nline two\n", NULL},
    {"8bit latin1",
     HDR "Content-Type: text/plain; charset=iso-8859-1\n"
	 "Content-Transfer-Encoding: 8bit\n\ncaf\xe9\n",
     "caf\xc3\xa9\n", NULL},
    {"quoted-printable latin1, soft break",
     HDR "Content-Type: text/plain; charset=\"ISO-8859-1\"\n"
	 "Content-Transfer-Encoding: quoted-printable\n\n"
	 "caf=E9 na=EFve long=\nline\nAcked-by: J=FCrgen <j@x>\n",
     "caf\xc3\xa9 na\xc3\xafve longline\nAcked-by: J\xc3\xbcrgen <j@x>\n",
     NULL},
    {"quoted-printable, soft break at the very end",
     HDR "Content-Type: text/plain; charset=utf-8\n"
	 "Content-Transfer-Encoding: Quoted-Printable\n\nend=",
     "end", NULL},
    {"quoted-printable CRLF",
     HDR "Content-Type: text/plain; charset=utf-8\n"
	 "Content-Transfer-Encoding: quoted-printable\n\r\na=3D=\r\nb\r\n",
     "a=b\n", NULL},
    {"base64 UTF-8",
     HDR "Content-Type: text/plain; charset=utf-8\n"
	 "Content-Transfer-Encoding: base64\n\n"
	 "VGVzdGVkLWJ5OiBab8OrIDx6QHg+Cg==\n",
     "Tested-by: Zo\xc3\xab <z@x>\n", NULL},
    {"base64 without Content-Type",
     HDR "Content-Transfer-Encoding: base64\n\naGVsbG8K\n", "hello\n", NULL},
    {"base64 koi8-r",
     HDR "Content-Type: text/plain; charset=koi8-r\n"
	 "Content-Transfer-Encoding: base64\n\n8NLJ18XUCg==\n",
     "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82\n", NULL},
    {"base64, an invalid UTF-8 byte shown as U+FFFD",
     HDR "Content-Type: text/plain; charset=utf-8\n"
	 "Content-Transfer-Encoding: base64\n\nYf9iCg==\n",
     "a\xef\xbf\xbd"
     "b\n",
     NULL},
    {"not text: nothing",
     HDR "Content-Type: application/octet-stream\n"
	 "Content-Transfer-Encoding: base64\n\naGVsbG8K\n",
     "", NULL},
    {"multipart/alternative: the text/plain part",
     HDR "Content-Type: multipart/alternative; boundary=\"b\"\n\n"
	 "--b\nContent-Type: text/plain; charset=utf-8\n"
	 "Content-Transfer-Encoding: quoted-printable\n\nZo=C3=AB\n"
	 "--b\nContent-Type: text/html\n\n<p>html</p>\n--b--\n",
     "Zo\xc3\xab\n", NULL},
    {"multipart: the message part, then the diff attached as text/x-diff",
     HDR "Content-Type: multipart/mixed; boundary=\"b\"\n\npreamble\n"
	 "--b\nContent-Type: text/plain\n\nfix it\n\nSigned-off-by: A <a@x>\n\n"
	 "--b\nContent-Type: text/x-diff\n\ndiff --git a/f b/f\n--b--\n",
     "fix it\n\nSigned-off-by: A <a@x>\n\ndiff --git a/f b/f\n", NULL},
    {"multipart: a base64 application/octet-stream part with a diff",
     HDR "Content-Type: multipart/mixed; boundary=\"b\"\n\n"
	 "--b\nContent-Type: text/plain\n\nmsg\n"
	 "--b\nContent-Type: application/octet-stream; name=fix.patch\n"
	 "Content-Transfer-Encoding: base64\n\nZGlmZiAtLWdpdCBhL2YgYi9mCg==\n"
	 "--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
	 "iVBORw0K\n--b--\n",
     "msg\ndiff --git a/f b/f\n", NULL},
    {"latin1 8bit: the message converted, the diff's bytes kept",
     HDR "Content-Type: text/plain; charset=iso-8859-1\n\ncaf\xe9\n---\n"
	 "+caf\xe9\n",
     "caf\xc3\xa9\n---\n+caf\xef\xbf\xbd\n", "caf\xc3\xa9\n---\n+caf\xe9\n"},
    {"a CR inside a line stays, CRLF ends go", HDR "\nmsg\r\n---\r\n+a\rb\r\n",
     "msg\n---\n+a\rb\n", NULL},
};

int
main(void)
{
	unsigned i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct message *m =
		    message_parse(cases[i].raw, strlen(cases[i].raw), NULL);

		tap_ok(m != NULL, "%s: parsed", cases[i].what);
		if (!m)
			continue;
		tap_is_str(message_body(m), cases[i].body, "%s", cases[i].what);
		/* a second call returns the same text */
		tap_is_str(message_body(m), cases[i].body, "%s, again",
			   cases[i].what);
		tap_is_str(message_am_body(m),
			   cases[i].am_body ? cases[i].am_body : cases[i].body,
			   "%s, as git applies it", cases[i].what);
		message_free(m);
	}
	g_mime_shutdown();
	return tap_done();
}
