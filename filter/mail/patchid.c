/*
 * patchid.c - git's patch-id in --stable mode (builtin/patch-id.c): white
 * space removed, hunk headers and index lines skipped, each file's SHA-1
 * summed into the result byte-wise with carry, so file order does not matter.
 * The same reading can keep each file's bytes instead of hashing them
 * (patchid_files_new()), for comparing patches without SHA-1.
 */
#include "mail/patchid.h"
#include "core/util.h"

#include <string.h>

/* One file of a patch as its patch-id reads it: @len bytes at @off of the
 * kept bytes, and a fast hash of them. */
struct pf_file {
	guint64 hash;
	size_t off, len;
};

struct patchid_files {
	GByteArray *bytes;
	GArray *files; /* struct pf_file, sorted (pf_cmp) */
	guint64 hash;  /* the sum of the files' hashes */
};

struct pid {
	guint8 result[20];
	GChecksum *ctx;		    /* hashing; or NULL: keeping into @keep */
	struct patchid_files *keep; /* the bytes and files kept, or NULL */
	size_t file_start;	    /* where the current file's bytes began */
	gboolean any;
	/* the bytes to hash, gathered: SHA-1 is fed in large pieces, not
	 * once per line */
	guchar buf[4096];
	size_t n;
};

static void
feed(struct pid *p)
{
	if (p->n && p->ctx)
		g_checksum_update(p->ctx, p->buf, p->n);
	else if (p->n)
		g_byte_array_append(p->keep->bytes, p->buf, p->n);
	p->n = 0;
}

/* Seeded once a process: a thread whose patches were made to collide in
 * it costs comparisons, never a wrong match, and cannot be made ahead. */
static guint64
seed(void)
{
	static guint64 s;

	if (!s)
		s = ((guint64)g_random_int() << 32 | g_random_int()) | 1;
	return s;
}

/* A fast hash of @n bytes, eight at a time (not a digest: files whose
 * hashes are equal are compared byte by byte). */
static guint64
span_hash(const guchar *b, size_t n)
{
	guint64 h = seed() ^ ((guint64)n * 0x9e3779b97f4a7c15ULL), w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, b + i, n - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	}
	h ^= h >> 29;
	return h * 0xff51afd7ed558ccdULL ^ (h >> 32);
}

static void
sum_digest(guint8 result[20], const guint8 d[20])
{
	unsigned carry = 0;
	int i;

	for (i = 0; i < 20; i++) {
		carry += result[i] + d[i];
		result[i] = carry & 0xff;
		carry >>= 8;
	}
}

static void
flush_file(struct pid *p)
{
	guint8 d[20];
	gsize n = sizeof(d);

	feed(p);
	if (p->keep) {
		GByteArray *b = p->keep->bytes;
		struct pf_file f = {0, p->file_start, b->len - p->file_start};

		f.hash = span_hash(b->data + f.off, f.len);
		g_array_append_val(p->keep->files, f);
		p->file_start = b->len;
		return;
	}
	g_checksum_get_digest(p->ctx, d, &n);
	sum_digest(p->result, d);
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

/*
 * Read the diff in @text as git patch-id --stable does, each file's bytes
 * fed to @p (flush_file() at each file's end); FALSE when no line was.
 */
static gboolean
read_diff(struct pid *p, const char *text)
{
	size_t pos = 0, len = strlen(text), ll;
	const char *l;
	int before = -1, after = -1;
	gboolean started = FALSE;

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
			flush_file(p);
			before = after = -1;
		}
		if (ll && (l[0] == '-' || l[0] == ' '))
			before--;
		if (ll && (l[0] == '+' || l[0] == ' '))
			after--;
		hash_nospace(p, l, ll);
	}
	if (p->any)
		flush_file(p);
	return p->any;
}

static char *
hex_of(const guint8 result[20])
{
	static const char digits[] = "0123456789abcdef";
	char *hex = g_malloc(41);
	int i;

	for (i = 0; i < 20; i++) {
		hex[2 * i] = digits[result[i] >> 4];
		hex[2 * i + 1] = digits[result[i] & 15];
	}
	hex[40] = '\0';
	return hex;
}

char *
patchid_stable(const char *text)
{
	struct pid p = {{0}, NULL, NULL, 0, FALSE, {0}, 0};
	char *hex = NULL;

	p.ctx = g_checksum_new(G_CHECKSUM_SHA1);
	if (read_diff(&p, text))
		hex = hex_of(p.result);
	g_checksum_free(p.ctx);
	return hex;
}

/* Files in an order that depends on their bytes only: by hash, then
 * length, then the bytes themselves. */
static int
pf_cmp(const struct pf_file *a, const struct pf_file *b, const guint8 *bytes)
{
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(bytes + a->off, bytes + b->off, a->len);
}

static int
pf_sort_cmp(gconstpointer a, gconstpointer b, gpointer bytes)
{
	return pf_cmp(a, b, bytes);
}

struct patchid_files *
patchid_files_new(const char *text)
{
	struct patchid_files *f = g_new0(struct patchid_files, 1);
	struct pid p = {{0}, NULL, f, 0, FALSE, {0}, 0};
	guint i;

	f->bytes = g_byte_array_new();
	f->files = g_array_new(FALSE, FALSE, sizeof(struct pf_file));
	if (!read_diff(&p, text)) {
		patchid_files_free(f);
		return NULL;
	}
	g_array_sort_with_data(f->files, pf_sort_cmp, f->bytes->data);
	for (i = 0; i < f->files->len; i++)
		f->hash += g_array_index(f->files, struct pf_file, i).hash;
	return f;
}

void
patchid_files_free(struct patchid_files *f)
{
	if (!f)
		return;
	g_byte_array_unref(f->bytes);
	g_array_unref(f->files);
	g_free(f);
}

guint
patchid_files_hash(gconstpointer f)
{
	const struct patchid_files *pf = f;

	return (guint)(pf->hash ^ pf->hash >> 32);
}

gboolean
patchid_files_equal(gconstpointer a, gconstpointer b)
{
	const struct patchid_files *x = a, *y = b;
	guint i;

	if (x->hash != y->hash || x->files->len != y->files->len)
		return FALSE;
	for (i = 0; i < x->files->len; i++) {
		const struct pf_file *fx =
		    &g_array_index(x->files, struct pf_file, i);
		const struct pf_file *fy =
		    &g_array_index(y->files, struct pf_file, i);

		if (fx->hash != fy->hash || fx->len != fy->len ||
		    memcmp(x->bytes->data + fx->off, y->bytes->data + fy->off,
			   fx->len))
			return FALSE;
	}
	return TRUE;
}

char *
patchid_files_stable(const struct patchid_files *f)
{
	guint8 result[20] = {0}, d[20];
	GChecksum *ctx = g_checksum_new(G_CHECKSUM_SHA1);
	guint i;

	for (i = 0; i < f->files->len; i++) {
		const struct pf_file *pf =
		    &g_array_index(f->files, struct pf_file, i);
		gsize n = sizeof(d);

		g_checksum_update(ctx, f->bytes->data + pf->off, pf->len);
		g_checksum_get_digest(ctx, d, &n);
		sum_digest(result, d);
		g_checksum_reset(ctx);
	}
	g_checksum_free(ctx);
	return hex_of(result);
}
