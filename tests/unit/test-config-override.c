/*
 * b4's -c NAME=VALUE (config_override()): which assignments it takes, the
 * value it sets (NAME alone: "true"; NAME=: empty), that it is above the
 * files' value for both lore-am.KEY and b4.KEY, and its bounds.
 */
#include "core/config.h"
#include "core/util.h"
#include "tap.h"

#include <string.h>

static const struct {
	const char *assign;
	gboolean taken;
} cases[] = {
    {"b4.linkmask=https://x/%s", TRUE},
    {"lore-am.gate=warn", TRUE},
    {"LORE.Fallback=http://m/", TRUE},
    {"user.name=A = B", TRUE},
    {"b4.attestation-check-dkim", TRUE},
    {"b4.sub.section.key=v", TRUE},
    {"b4.empty=", TRUE},
    {"core.editor=vi", FALSE},
    {"linkmask=x", FALSE},
    {"b4.=x", FALSE},
    {"b4.1key=x", FALSE},
    {"b4.key_x=x", FALSE},
    {".x=y", FALSE},
    {"=x", FALSE},
    {"", FALSE},
    {"b4.key=a\nb", FALSE},
    {"b4.key=a\rb", FALSE},
};

int
main(void)
{
	struct config c;
	GError *err = NULL;
	g_autofree char *big = NULL;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		gboolean got = config_override(cases[i].assign, &err);
		g_autofree char *s = g_strescape(cases[i].assign, NULL);

		tap_is_int(got, cases[i].taken, "-c '%s': %s", s,
			   cases[i].taken ? "taken" : "refused");
		tap_ok(got == !err && (!err || err->code == LORE_EUSAGE),
		       "-c '%s': an error exactly when refused, exit 2", s);
		g_clear_error(&err);
	}
	c.vals = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_hash_table_insert(c.vals, g_strdup("lore-am.linkmask"),
			    g_strdup("files"));
	g_hash_table_insert(c.vals, g_strdup("b4.midmask"), g_strdup("files"));
	g_hash_table_insert(c.vals, g_strdup("lore-am.midmask"),
			    g_strdup("own"));
	tap_is_str(config_get(&c, "linkmask", "linkmask"), "https://x/%s",
		   "-c b4.KEY is above lore-am.KEY in the files");
	tap_is_str(config_get(&c, "midmask", "midmask"), "own",
		   "no -c: lore-am.KEY above b4.KEY, as before");
	tap_is_str(config_raw(&c, "user.name"), "A = B",
		   "the value is everything after the first '='");
	tap_is_str(
	    config_get(&c, "attestation-check-dkim", "attestation-check-dkim"),
	    "true", "NAME alone: \"true\", as b4 sets it");
	tap_is_str(config_get(&c, "empty", "empty"), "", "NAME=: empty");
	tap_is_str(config_raw(&c, "lore.fallback"), "http://m/",
		   "names are read in any case, as git's");
	tap_ok(config_override("b4.linkmask=again", NULL) &&
		   !strcmp(config_get(&c, "linkmask", "linkmask"), "again"),
	       "a second -c for one NAME: the last wins");
	tap_is_str(config_raw(&c, "b4.sub.section.key"), "v",
		   "a subsection's key");

	big = g_strnfill(CONFIG_VALUE_MAX + 2, 'x');
	big[0] = '=';
	{
		g_autofree char *a = g_strconcat("b4.big", big, NULL);

		tap_ok(!config_override(a, NULL),
		       "a value past %d bytes: refused", CONFIG_VALUE_MAX);
	}
	for (i = 0; i < CONFIG_OVERRIDES_MAX; i++) {
		g_autofree char *a = g_strdup_printf("b4.k%u=v", i);

		if (!config_override(a, NULL))
			break;
	}
	tap_ok(i < CONFIG_OVERRIDES_MAX,
	       "at most %d settings: the one past them refused",
	       CONFIG_OVERRIDES_MAX);
	config_overrides_free();
	tap_is_str(config_get(&c, "linkmask", "linkmask"), "files",
		   "config_overrides_free(): the files' value again");
	g_hash_table_destroy(c.vals);
	return tap_done();
}
