/*
 * patchid.c - git's patch-id in --stable mode (builtin/patch-id.c): white
 * space removed, hunk headers and index lines skipped, each file's SHA-1
 * summed into the result byte-wise with carry, so file order does not matter.
 */
#include "mail/patchid.h"
#include "core/util.h"

#include <string.h>

struct pid {
	guint8 result[20];
	GChecksum *ctx;
	gboolean any;
	/* the bytes to hash, gathered: SHA-1 is fed in large pieces, not
	 * once per line */
	guchar buf[4096];
	size_t n;
};

static void
feed(struct pid *p)
{
	if (p->n)
		g_checksum_update(p->ctx, p->buf, p->n);
	p->n = 0;
}

static void
flush_file(struct pid *p)
{
	guint8 d[20];
	gsize n = sizeof(d);
	unsigned carry = 0;
	int i;

	feed(p);
	g_checksum_get_digest(p->ctx, d, &n);
	for (i = 0; i < 20; i++) {
		carry += p->result[i] + d[i];
		p->result[i] = carry & 0xff;
		carry >>= 8;
	}
	g_checksum_reset(p->ctx);
}

static void
hash_nospace(struct pid *p, const char *l, size_t n)
{
	size_t i = 0;

	while (i < n) {
		/* at most as many bytes as there is room for, each written
		 * and kept (the write pointer moved) unless it is a blank:
		 * no branch a byte */
		size_t k = MIN(sizeof(p->buf) - p->n, n - i), j;
		guchar *o = p->buf + p->n;

		for (j = 0; j < k; j++) {
			guchar c = l[i + j];

			*o = c;
			o += !g_ascii_isspace(c);
		}
		p->n = o - p->buf;
		i += k;
		if (p->n == sizeof(p->buf))
			feed(p);
	}
	p->any = TRUE;
}

/* "@@ -a[,b] +c[,d] @@": line counts, 1 when omitted */
static void
hunk_counts(const char *l, size_t n, int *before, int *after)
{
	g_autofree char *s = g_strndup(l, n);
	const char *p = s + 4;
	char *e;

	*before = *after = 1;
	strtoul(p, &e, 10);
	if (*e == ',')
		*before = strtoul(e + 1, &e, 10);
	p = strchr(e, '+');
	if (!p)
		return;
	strtoul(p + 1, &e, 10);
	if (*e == ',')
		*after = strtoul(e + 1, &e, 10);
}

char *
patchid_stable(const char *text)
{
	struct pid p = {{0}, NULL, FALSE, {0}, 0};
	size_t pos = 0, len = strlen(text), ll;
	const char *l;
	int before = -1, after = -1;
	gboolean started = FALSE;
	static const char digits[] = "0123456789abcdef";
	char *hex;
	int i;

	p.ctx = g_checksum_new(G_CHECKSUM_SHA1);
	while (lore_next_line(text, len, &pos, &l, &ll)) {
		/* "\ No newline at end of file" */
		if (ll > 12 && l[0] == '\\' && l[1] == ' ')
			continue;
		/* everything before the first "diff " line is commentary */
		if (!started && !(ll >= 5 && !memcmp(l, "diff ", 5)))
			continue;
		started = TRUE;
		if (before == -1) {
			if (ll >= 6 && !memcmp(l, "index ", 6))
				continue;
			if (ll >= 4 && !memcmp(l, "--- ", 4))
				before = after = 1;
			else if (!g_ascii_isalpha(l[0]))
				break;
		}
		if (before == 0 && after == 0) {
			if (ll >= 4 && !memcmp(l, "@@ -", 4)) {
				hunk_counts(l, ll, &before, &after);
				continue;
			}
			if (!(ll >= 5 && !memcmp(l, "diff ", 5)))
				break;
			flush_file(&p);
			before = after = -1;
		}
		if (ll && (l[0] == '-' || l[0] == ' '))
			before--;
		if (ll && (l[0] == '+' || l[0] == ' '))
			after--;
		hash_nospace(&p, l, ll);
	}
	if (!p.any) {
		g_checksum_free(p.ctx);
		return NULL;
	}
	flush_file(&p);
	g_checksum_free(p.ctx);
	hex = g_malloc(41);
	for (i = 0; i < 20; i++) {
		hex[2 * i] = digits[p.result[i] >> 4];
		hex[2 * i + 1] = digits[p.result[i] & 15];
	}
	hex[40] = '\0';
	return hex;
}
