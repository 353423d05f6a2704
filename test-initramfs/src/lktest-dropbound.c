// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-dropbound CAP... -- CMD [ARG...]
 *
 * Drop each capability number CAP from the bounding set, then run CMD:
 * "a process started without CAP_COMPROMISE_KERNEL (41)". Exits 1 when a
 * drop fails, else with CMD's status (execvp failing: 127).
 */
#include "lktest.h"

#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		char *end;
		long cap = strtol(argv[i], &end, 10);

		if (*end || cap < 0 || cap > 63) {
			fprintf(stderr, "bad capability number '%s'\n", argv[i]);
			return LKTEST_FAIL;
		}
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) {
			fprintf(stderr, "PR_CAPBSET_DROP %ld: %s\n", cap,
				lk_errname(errno));
			return LKTEST_FAIL;
		}
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: %s CAP... -- CMD [ARG...]\n", argv[0]);
		return LKTEST_FAIL;
	}
	execvp(argv[i + 1], &argv[i + 1]);
	fprintf(stderr, "%s: %s\n", argv[i + 1], lk_errname(errno));
	return 127;
}
