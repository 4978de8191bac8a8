/*
 * cmd_passthrough.c - --passthrough, the mail filter (procmail, maildrop,
 * an MDA): the mail on stdin goes to stdout unchanged whatever happens,
 * and the series is written into -o DIR on the way. run.c's
 * run_passthrough() does both.
 */
#include "cli/cmd.h"
#include "core/util.h"

#include <string.h>

gboolean
cmd_passthrough_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--passthrough"))
			return TRUE;
	return FALSE;
}

int
cmd_passthrough_refused(struct cli *c, int rc)
{
	return run_passthrough(c, rc);
}

static int
passthrough_check(struct cli *c)
{
	if (c->apply || c->range_diff) {
		lore_err("--passthrough writes the series into -o DIR: it does "
			 "not go with %s",
			 c->apply ? "--apply" : "--range-diff");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

static int
passthrough_run(struct cli *c)
{
	return run_passthrough(c, LORE_OK);
}

const struct cmd cmd_passthrough = {"passthrough", passthrough_check,
				    passthrough_run};
