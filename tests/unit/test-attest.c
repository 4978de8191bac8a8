/*
 * The pure parts of attestation (table-driven): the TXT record read from a
 * DNS answer (RFC 1035), also when less was stored than the answer's
 * length; a DKIM key record reduced to the tags a verifier reads (RFC 6376
 * 3.6.1); the fields RFC 5322 allows once, counted while a mail is parsed.
 */
#include "attest/dkimv.h"
#include "attest/dnstxt.h"
#include "mail/message.h"
#include "tap.h"

#include <gmime/gmime.h>

/* A DNS answer: header (one question, @an answers), the question for
 * "k._domainkey.x", then @an TXT records (@rd, @rdlen each) named by a
 * pointer to the question. */
static GByteArray *
answer(guint an, const guint8 *rd, guint16 rdlen)
{
	static const guint8 head[] = {0x12, 0x34, 0x81, 0x80, 0, 1,
				      0,    0,	  0,	0,    0, 0};
	static const guint8 q[] = {1,	'k', 10,  '_', 'd', 'o', 'm',
				   'a', 'i', 'n', 'k', 'e', 'y', 1,
				   'x', 0,   0,	  16,  0,   1};
	GByteArray *b = g_byte_array_new();
	guint i;

	g_byte_array_append(b, head, sizeof(head));
	b->data[7] = an;
	g_byte_array_append(b, q, sizeof(q));
	for (i = 0; i < an; i++) {
		const guint8 rr[] = {0xc0, 12, 0, 16, 0,	  1,
				     0,	   0,  1, 0,  rdlen >> 8, rdlen & 0xff};

		g_byte_array_append(b, rr, sizeof(rr));
		g_byte_array_append(b, rd, rdlen);
	}
	return b;
}

/* dnstxt_parse() of the first @len bytes, in a buffer of that size */
static char *
parse(const GByteArray *b, size_t len)
{
	g_autofree guchar *buf = g_memdup2(b->data, len ? len : 1);

	return dnstxt_parse(buf, len);
}

static void
test_answers(void)
{
	static const guint8 two[] = "\x07v=DKIM1\x08; p=ABCD";
	static const guint8 nul[] = "\x05p=A\0B";
	static const guint8 over[] = "\xffp=ABCD";
	g_autoptr(GByteArray) a = answer(1, two, sizeof(two) - 1);
	g_autoptr(GByteArray) n = answer(1, nul, sizeof(nul) - 1);
	g_autoptr(GByteArray) o = answer(1, over, sizeof(over) - 1);
	g_autoptr(GByteArray) none = answer(0, NULL, 0);
	g_autofree char *whole = parse(a, a->len);
	g_autofree char *cut = parse(a, a->len - 1);
	g_autofree char *hdr = parse(a, 12);
	g_autofree char *past = parse(o, o->len);
	g_autofree char *withnul = parse(n, n->len);
	g_autofree char *empty = parse(none, none->len);
	g_autofree char *nothing = parse(a, 0);

	tap_is_str(whole, "v=DKIM1; p=ABCD", "the strings of a record, joined");
	tap_is_str(cut, NULL, "an answer cut short inside the record: none");
	tap_is_str(hdr, NULL, "the header alone: none");
	tap_is_str(past, "p=ABCD", "a string longer than its RDATA: cut there");
	tap_is_str(withnul, NULL, "a record holding a NUL: none");
	tap_is_str(empty, NULL, "no answer record: none");
	tap_is_str(nothing, NULL, "no bytes: none");
}

static const struct {
	const char *in, *out;
} records[] = {
    {"v=DKIM1; k=rsa; p=AB", "v=DKIM1;k=rsa;p=AB"},
    {"v=DKIM1; n=notes for people; x=unknown; p=AB", "v=DKIM1;p=AB"},
    {"  v = DKIM1 ;\t h=sha256 ; s=email:* ;t=y:s; g=*; p=A B ",
     "v = DKIM1;h=sha256;s=email:*;t=y:s;g=*;p=A B"},
    {"v=DKIM1; garbage; p=AB", "v=DKIM1;garbage;p=AB"},
    {"P=AB; K=rsa; pp=x; =y", ""},
    {";;; n=x;", ""},
    {"", ""},
    {"p=AB; p=CD", "p=AB;p=CD"},
};

static const struct {
	const char *mail;
	gboolean twice;
	const char *field; /* and how many there are */
	guint n;
} fields[] = {
    {"From: a@x\nSubject: s\n\nbody\n", FALSE, "From", 1},
    {"From: a@x\nFROM: b@x\n\nbody\n", TRUE, "From", 2},
    {"Subject: s\nTo: t@x\nsubject: t\n\n", TRUE, "Subject", 2},
    {"Sender: a@x\nSender: b@x\n\n", TRUE, "Sender", 2},
    {"Date: d\nDate: e\n\n", TRUE, "Date", 2},
    {"Message-ID: <a@x>\nMessage-Id: <b\n\n", TRUE, "Message-ID", 2},
    {"To: a@x\nTo: b@x\nTo: c@x\n\n", TRUE, "To", 3},
    {"Cc: a@x\nCC: b@x\n\n", TRUE, "Cc", 2},
    {"In-Reply-To: <a@x>\nIn-Reply-To: <b@x>\n\n", TRUE, "In-Reply-To", 2},
    {"References: <a@x>\nReferences: <b@x>\n\n", TRUE, "References", 2},
    /* fields a mail often has several of */
    {"Received: a\nReceived: b\nDKIM-Signature: x\nDKIM-Signature: y\n"
     "Reply-To: a@x\nReply-To: b@x\n\n",
     FALSE, "Received", 2},
    /* a continuation line is no field; the body is not the header */
    {"From: a@x\n From: b@x\n\nFrom: c@x\n", FALSE, "From", 1},
};

int
main(void)
{
	guint i;

	g_mime_init();
	test_answers();
	for (i = 0; i < G_N_ELEMENTS(records); i++) {
		g_autofree char *r = dkimv_key_record(records[i].in);

		tap_is_str(r, records[i].out, "key record '%s'", records[i].in);
	}
	for (i = 0; i < G_N_ELEMENTS(fields); i++) {
		const char *mail = fields[i].mail;
		struct message *m = message_parse(mail, strlen(mail), NULL);

		tap_ok(m && m->once_twice == fields[i].twice,
		       "fields %u: a once-only field twice: %s", i,
		       fields[i].twice ? "yes" : "no");
		tap_is_int(m ? message_header_count(m, fields[i].field) : 0,
			   fields[i].n, "fields %u: %s", i, fields[i].field);
		message_free(m);
	}
	return tap_done();
}
