/*
 * tyout.c - the thank-you mail written or sent: g_file_set_contents()
 * (a temporary file renamed into place) for .thanks files, write/'s
 * maildir delivery, and `git send-email` on a temporary file for --send,
 * asked nothing (no prompt: the sender, the In-Reply-To and the To come
 * from the command line and the mail), sending to those the mail names
 * and nobody else (no Cc from the body, no configured To or Cc).
 */
#include "git/tyout.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "mail/message.h"
#include "write/deliver.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

char *
tyout_file(const char *dir, const char *slug, const GString *msg, GError **err)
{
	guint n;

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot make '%s': %s",
			    dir, g_strerror(errno));
		return NULL;
	}
	for (n = 1; n < 1000; n++) {
		g_autofree char *name =
		    n == 1 ? g_strdup_printf("%s.thanks", slug)
			   : g_strdup_printf("%s.%u.thanks", slug, n);
		char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			g_free(path);
			continue;
		}
		if (!g_file_set_contents(path, msg->str, msg->len, err)) {
			g_free(path);
			return NULL;
		}
		return path;
	}
	g_set_error(err, LORE_ERROR, LORE_EIO,
		    "'%s' holds a thousand thanks named %s", dir, slug);
	return NULL;
}

gboolean
tyout_stale(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	gboolean found = FALSE;

	while (d && !found && (name = g_dir_read_name(d)))
		found = g_str_has_suffix(name, ".thanks");
	if (d)
		g_dir_close(d);
	return found;
}

gboolean
tyout_maildir(const char *dir, const GString *msg, gboolean seen, GError **err)
{
	struct message *m = message_parse(msg->str, msg->len, err);
	GPtrArray *one;
	guint added = 0;
	int rc;

	if (!m)
		return FALSE;
	one = g_ptr_array_new();
	g_ptr_array_add(one, m);
	rc = deliver_maildir(dir, one, seen, &added, err);
	g_ptr_array_free(one, TRUE);
	message_free(m);
	return rc == LORE_OK;
}

/* the last line git send-email said, for the one-line error */
static char *
last_line(const GString *s)
{
	g_autofree char *copy = g_strdup(s->str);
	g_auto(GStrv) lines = g_strsplit(g_strchomp(copy), "\n", -1);
	guint n = g_strv_length(lines);

	return n ? lore_term_safe(lines[n - 1], -1)
		 : g_strdup("no reason given");
}

gboolean
tyout_send(const GString *msg, const char *from, const char *identity,
	   GError **err)
{
	g_autofree char *tmp = NULL, *fromarg = NULL, *idarg = NULL;
	g_autofree char *irt = NULL;
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	const char *h = strstr(msg->str, "\nIn-Reply-To: ");
	static const char *const suppress[] = {
	    "--suppress-cc=author", "--suppress-cc=self",
	    "--suppress-cc=sob",    "--suppress-cc=misc-by",
	    "--suppress-cc=bodycc", "--suppress-cc=body",
	    "--suppress-cc=cccmd",
	};
	const char *argv[32];
	gboolean ok = FALSE;
	guint k;
	int fd, rc, i = 0;

	fd = g_file_open_tmp("lore-am-ty-XXXXXX.eml", &tmp, err);
	if (fd < 0)
		goto out;
	if (!lore_write_all(fd, msg->str, msg->len)) {
		g_set_error(err, LORE_ERROR, LORE_EIO, "cannot write '%s': %s",
			    tmp, g_strerror(errno));
		close(fd);
		goto out;
	}
	close(fd);
	fromarg = g_strdup_printf("--from=%s", from);
	if (h)
		irt = g_strdup_printf("--in-reply-to=%.*s",
				      (int)strcspn(h + 14, "\n"), h + 14);
	argv[i++] = "send-email";
	argv[i++] = "--confirm=never";
	argv[i++] = "--quiet";
	/* the recipients are the mail's own To and Cc, nobody the body or
	 * the configuration names, and no question asked for more */
	for (k = 0; k < G_N_ELEMENTS(suppress); k++)
		argv[i++] = suppress[k];
	argv[i++] = "--no-to";
	argv[i++] = "--no-cc";
	argv[i++] = "--no-bcc";
	argv[i++] = "--to-cmd=true";
	argv[i++] = "--no-format-patch";
	/* the mail says its encoding: 8bit only when it is not ASCII */
	argv[i++] = g_str_is_ascii(msg->str) ? "--transfer-encoding=7bit"
					     : "--transfer-encoding=8bit";
	argv[i++] = fromarg;
	if (irt)
		argv[i++] = irt;
	if (identity) {
		idarg = g_strdup_printf("--identity=%s", identity);
		argv[i++] = idarg;
	}
	argv[i++] = tmp;
	argv[i] = NULL;
	rc = gitrun(NULL, argv, NULL, 0, out, e, err);
	if (rc > 0) {
		g_autofree char *why = last_line(e->len ? e : out);

		g_set_error(err, LORE_ERROR, LORE_EIO,
			    "git send-email did not send it: %s", why);
	}
	ok = rc == 0;
out:
	if (tmp)
		g_unlink(tmp);
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return ok;
}
