/*
 * message_parse_addr() (address.c): the forms read by hand (atoms, a name
 * that is one encoded word) give what GMime's address parser gives, and
 * the rest still goes to GMime.
 */
#include "mail/message.h"
#include "tap.h"

#include <gmime/gmime.h>
#include <string.h>

static const struct {
	const char *value, *name, *email;
} cases[] = {
    {"Ann Example <ann@example.org>", "Ann Example", "ann@example.org"},
    {"ann@example.org", "", "ann@example.org"},
    {"=?UTF-8?q?J=C3=B6rg_M=C3=BCller?= <jm@example.de>", "Jörg Müller",
     "jm@example.de"},
    {"=?utf-8?Q?Jos=C3=A9_=C3=81lvarez?= <ja@example.es>", "José Álvarez",
     "ja@example.es"},
    {"=?UTF-8?B?Wm/DqyDDmGRlZ2FhcmQ=?= <zo@example.no>", "Zoë Ødegaard",
     "zo@example.no"},
    {"=?UTF-8?q?Anne-Marie_=C3=85berg?= <am@example.se>", "Anne-Marie Åberg",
     "am@example.se"},
    {"  =?UTF-8?q?__J=C3=B6rg__?=   <jm@example.de>  ", "Jörg",
     "jm@example.de"},
    /* GMime's, not ours: each still the same as GMime says */
    {"=?ISO-8859-1?q?J=F6rg?= <jm@example.de>", "Jörg", "jm@example.de"},
    {"=?UTF-8?q?Last=2C_First?= <lf@example.org>", "Last, First",
     "lf@example.org"},
    {"=?UTF-8?q?J=c3=b6rg?= <jm@example.de>", "Jörg", "jm@example.de"},
    {"=?UTF-8?q?Ann?= =?UTF-8?q?_Ex?= <ae@example.org>", "Ann Ex",
     "ae@example.org"},
    {"=?UTF-8?q?A=22B?= <ab@example.org>", "A\"B", "ab@example.org"},
    {"=?UTF-8?q?=FF=FE?= <x@example.org>", NULL, "x@example.org"},
    {"=?UTF-8?B?QW5u?= <ann@xn--bcher-kva.example>", NULL, NULL},
    {"=?UTF-8?q?Ann?= <ann@example.org>, Bob <bob@example.org>", "Ann",
     "ann@example.org"},
};

int
main(void)
{
	guint i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *name, *email, *gname, *gemail;

		message_parse_addr(cases[i].value, &name, &email);
		message_addr_gmime_only = TRUE;
		message_parse_addr(cases[i].value, &gname, &gemail);
		message_addr_gmime_only = FALSE;
		tap_is_str(name, gname, "'%s': the name GMime reads",
			   cases[i].value);
		tap_is_str(email, gemail, "'%s': the address GMime reads",
			   cases[i].value);
		if (cases[i].name)
			tap_is_str(name, cases[i].name, "'%s': the name",
				   cases[i].value);
		if (cases[i].email)
			tap_is_str(email, cases[i].email, "'%s': the address",
				   cases[i].value);
		g_free(name);
		g_free(email);
		g_free(gname);
		g_free(gemail);
	}
	g_mime_shutdown();
	return tap_done();
}
