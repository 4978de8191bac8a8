/*
 * mimesplit.c: a plain one-level multipart is split by hand, and gives the
 * body GMime's parser gives; every form that is not plain (a boundary
 * with trailing blanks, no closing boundary, a boundary line after it,
 * folded or repeated part headers, nested or message/ parts, flowed text,
 * uuencode, a CRLF mail, a repeated Content-Type) is left to GMime, and
 * the body is GMime's all the same.
 */
#include <gmime/gmime.h>

#include "mail/message.h"
#include "mail/mimesplit.h"
#include "mail/msgbody.h"
#include "tap.h"

#define HDR                                                                    \
	"From: A <a@example.org>\nMessage-ID: <m@x>\nSubject: s\n"             \
	"MIME-Version: 1.0\n"
#define MP "Content-Type: multipart/alternative; boundary=\"b-1\"\n"
#define TEXT "Content-Type: text/plain; charset=utf-8\n"
#define QP "Content-Transfer-Encoding: quoted-printable\n"
#define HTML "--b-1\nContent-Type: text/html\n\n<p>x</p>\n"

static const struct {
	const char *what, *raw;
	gboolean by_hand; /* mime_split_simple() takes it */
} cases[] = {
    {"text and html",
     HDR MP "\npreamble\n--b-1\n" TEXT QP "\nTested-by: Zo=C3=AB <z@x>\n"
	    "\n" HTML "--b-1--\nepilogue\n",
     TRUE},
    {"a patch attached in base64",
     HDR "Content-Type: multipart/mixed; boundary=b-1\n\n--b-1\n" TEXT
	 "\nthe message\n--b-1\nContent-Type: text/x-patch; name=\"a.patch\"\n"
	 "Content-Transfer-Encoding: base64\n"
	 "Content-Disposition: attachment\n\n"
	 "ZGlmZiAtLWdpdCBhL2YgYi9mCi0tLSBhL2YKKysrIGIvZgpAQCAtMSArMSBAQAotYQorY"
	 "go=\n"
	 "--b-1--\n",
     TRUE},
    {"latin1 8bit, an empty part, an image",
     HDR MP "\n--b-1\nContent-Type: text/plain; charset=iso-8859-1\n"
	    "Content-Transfer-Encoding: 8bit\n\ncaf\xe9\n--b-1\n" TEXT
	    "\n\n--b-1\nContent-Type: image/png\n"
	    "Content-Transfer-Encoding: base64\n\niVBORw0K\n--b-1--\n",
     TRUE},
    {"a boundary with a blank after it",
     HDR MP "\n--b-1 \n" TEXT "\nbody\n--b-1--\n", FALSE},
    {"no closing boundary", HDR MP "\n--b-1\n" TEXT "\nbody\n", FALSE},
    {"a boundary after the closing one",
     HDR MP "\n--b-1\n" TEXT "\none\n--b-1--\n--b-1\n" TEXT "\ntwo\n", FALSE},
    {"a longer line that starts like the boundary",
     HDR MP "\n--b-1\n" TEXT "\none\n--b-12\n--b-1--\n", FALSE},
    {"a folded part header",
     HDR MP "\n--b-1\nContent-Type: text/plain;\n charset=utf-8\n\nbody\n"
	    "--b-1--\n",
     FALSE},
    {"two transfer encodings",
     HDR MP "\n--b-1\n" TEXT QP "Content-Transfer-Encoding: base64\n\n"
	    "Ym9keQo=\n--b-1--\n",
     FALSE},
    {"two Content-Types in a part",
     HDR MP "\n--b-1\n" TEXT "Content-Type: text/html\n\nbody\n--b-1--\n",
     FALSE},
    {"a nested multipart",
     HDR MP "\n--b-1\nContent-Type: multipart/mixed; boundary=c\n\n--c\n" TEXT
	    "\nbody\n--c--\n--b-1--\n",
     FALSE},
    {"a message/rfc822 part",
     HDR MP "\n--b-1\nContent-Type: message/rfc822\n\n" HDR "\nbody\n"
	    "--b-1--\n",
     FALSE},
    {"flowed text",
     HDR MP "\n--b-1\nContent-Type: text/plain; format=flowed\n\nsoft \n"
	    "break\n--b-1--\n",
     FALSE},
    {"uuencode",
     HDR MP "\n--b-1\n" TEXT "Content-Transfer-Encoding: x-uue\n"
	    "\nbody\n--b-1--\n",
     FALSE},
    {"a part without headers", HDR MP "\n--b-1\n\nbody\n--b-1--\n", FALSE},
    {"headers running into the boundary", HDR MP "\n--b-1\n" TEXT "--b-1--\n",
     FALSE},
    {"a closing boundary before any part",
     HDR MP "\npreamble\n--b-1--\nepilogue\n", FALSE},
    {"an empty charset",
     HDR MP "\n--b-1\nContent-Type: text/plain; charset=\"\"\n\ncaf\xe9\n"
	    "--b-1--\n",
     FALSE},
    {"a line that is no header",
     HDR MP "\n--b-1\n" TEXT "not a header\n\nbody\n--b-1--\n", FALSE},
};

/* Cases message_body() must give as GMime does, though mime_split_simple()
 * is not asked (the message's own headers send them to GMime). */
static const struct {
	const char *what, *raw;
} to_gmime[] = {
    {"a text/plain after the multipart",
     HDR MP "Content-Type: text/plain\n\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"a multipart in base64", HDR MP
     "Content-Transfer-Encoding: base64\n\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"CRLF line ends",
     HDR "Content-Type: multipart/mixed; boundary=\"b-1\"\r\n\r\n--b-1\r\n" TEXT
	 "\r\nbody\r\n--b-1--\r\n"},
    {"no boundary",
     HDR "Content-Type: multipart/mixed\n\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    /* a header line that is no field: GMime reads no part at all when it
     * comes first (libFuzzer found it), may end the header there after a
     * Content-Type, and takes a field name we do not */
    {"a first line that is no field",
     "not a field\n" HDR MP "\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"a folded first line",
     " folded first\n" HDR MP "\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"a line that is no field",
     HDR "not a field\n" MP "\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"a line that is no field after the Content-Type",
     HDR MP "not a field\n\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"a blank in a field name",
     HDR "Subject : s\n" MP "\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    {"an 8-bit field name",
     HDR "X-\xe9t\xe9: x\n" MP "\n--b-1\n" TEXT "\nbody\n--b-1--\n"},
    /* white space in a boundary, which unfolding would change */
    {"two blanks in a boundary",
     HDR "Content-Type: multipart/mixed; boundary=\"b  1\"\n\n--b  1\n" TEXT
	 "\nbody\n--b  1--\n"},
    {"a boundary folded, boundary lines with a blank",
     HDR "Content-Type: multipart/mixed; boundary=\"b\n 1\"\n\n--b 1\n" TEXT
	 "\nbody\n--b 1--\n"},
    {"a boundary folded, boundary lines without",
     HDR "Content-Type: multipart/mixed; boundary=\"b\n 1\"\n\n--b 1\n" TEXT
	 "\nbody\n--b1\n" TEXT "\nmore\n--b1--\n--b 1--\n"},
};

/* The body of @raw by hand (where it can be) and through GMime alone.
 * message_body() decodes when first asked: each is asked under its own
 * setting. */
static void
same_as_gmime(const char *raw, const char *what)
{
	struct message *m = message_parse(raw, strlen(raw), NULL);
	struct message *g = message_parse(raw, strlen(raw), NULL);

	tap_ok(m && g, "%s: parsed", what);
	if (!m || !g)
		goto out;
	message_am_body(m);
	msgbody_gmime_only = TRUE;
	message_am_body(g);
	msgbody_gmime_only = FALSE;
	tap_is_str(message_body(m), message_body(g), "%s: GMime's body", what);
	tap_is_str(message_am_body(m), message_am_body(g),
		   "%s: GMime's am body", what);
out:
	message_free(m);
	message_free(g);
}

int
main(void)
{
	guint i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *raw = cases[i].raw, *body = strstr(raw, "\n\n") + 2;
		GArray *leaves = mime_split_simple(body, strlen(body), "b-1");

		tap_ok(!!leaves == cases[i].by_hand, "%s: %s", cases[i].what,
		       cases[i].by_hand ? "split by hand" : "left to GMime");
		if (leaves)
			g_array_unref(leaves);
		same_as_gmime(raw, cases[i].what);
	}
	for (i = 0; i < G_N_ELEMENTS(to_gmime); i++)
		same_as_gmime(to_gmime[i].raw, to_gmime[i].what);
	{
		struct message *m =
		    message_parse(cases[0].raw, strlen(cases[0].raw), NULL);

		tap_is_str(message_body(m), "Tested-by: Zo\xc3\xab <z@x>\n\n",
			   "text and html: the text part alone");
		message_free(m);
	}
	g_mime_shutdown();
	return tap_done();
}
