/*
 * rusage.c - run a command N times with its stdin from a file and print, one
 * line per run, the wall time, user and system CPU time (seconds, at the
 * microsecond resolution wait4(2) gives) and the peak RSS in KB. A small C
 * parent keeps the RSS figure honest: ru_maxrss includes the image of the
 * process that forked, so a parent as large as a Python interpreter would
 * inflate it; /usr/bin/time is small too but rounds CPU to 10 ms.
 *
 * Usage: rusage N INPUT CMD [ARG...]   (output of CMD discarded)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	int runs, i;

	if (argc < 4 || (runs = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: rusage N INPUT CMD [ARG...]\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		int status;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid = fork();
		if (pid < 0) {
			perror("rusage: fork");
			return 1;
		}
		if (pid == 0) {
			int in = open(argv[2], O_RDONLY);
			int out = open("/dev/null", O_WRONLY);

			if (in < 0 || out < 0 || dup2(in, 0) < 0 ||
			    dup2(out, 1) < 0 || dup2(out, 2) < 0)
				_exit(126);
			execvp(argv[3], argv + 3);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("rusage: wait4");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "rusage: %s failed (status %d)\n",
				argv[3], status);
			return 1;
		}
		printf("%.6f %.6f %.6f %ld\n",
		       (t1.tv_sec - t0.tv_sec) +
			   (t1.tv_nsec - t0.tv_nsec) / 1e9,
		       tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss);
	}
	return 0;
}
