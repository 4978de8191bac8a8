/*
 * standalone.c - a main() for the fuzz harnesses without libFuzzer: feeds
 * each file named on the command line to LLVMFuzzerTestOneInput() once, so
 * the saved crash inputs and the seed corpus run in `make check`, under the
 * sanitizers and under valgrind, with any C compiler.
 */
#include "fuzz.h"

#include <string.h>

int
main(int argc, char **argv)
{
	int i, n = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		GError *err = NULL;
		char *data;
		gsize len;

		if (!g_file_get_contents(argv[i], &data, &len, &err)) {
			fprintf(stderr, "standalone: %s\n", err->message);
			g_error_free(err);
			return 2;
		}
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		g_free(data);
		n++;
	}
	printf("%d inputs run\n", n);
	return 0;
}
