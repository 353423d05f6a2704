// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-capstate: is CAP_COMPROMISE_KERNEL (41) held, as every interface
 * that reports capabilities says?  capget() (effective, permitted,
 * inheritable), prctl(PR_CAPBSET_READ) and the five sets of
 * /proc/self/status must all agree with the expectation.
 *
 *   lktest-capstate [--userns] [--wait FIFO --before present|absent]
 *                   --expect present|absent
 *
 * present: 41 in the effective, permitted and bounding sets (the
 *          inheritable and ambient sets of root are empty anyway).
 * absent:  41 in none of the five sets, and PR_CAPBSET_READ says 0.
 * --userns unshare(CLONE_NEWUSER) first: the set a new namespace starts
 *          with.
 * --wait   check --before, make FIFO, print "ready" and block opening it
 *          for reading; check --expect once a writer sends a line.  The process
 *          then existed before whatever happened in between.
 */
#include "lktest.h"

#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#define CAP 41

enum { INH, PRM, EFF, BND, AMB, NSETS };
static const char *const set_names[NSETS] = { "inh", "prm", "eff", "bnd", "amb" };

static int bit41(uint32_t word1)
{
	return (word1 >> (CAP - 32)) & 1;
}

/* Fill has[] from /proc/self/status; 0 on success. */
static int from_status(int has[NSETS])
{
	static const char *const keys[NSETS] = {
		"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:"
	};
	char line[256];
	int i, found = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < NSETS; i++) {
			size_t n = strlen(keys[i]);

			if (!strncmp(line, keys[i], n)) {
				unsigned long long v = strtoull(line + n, NULL, 16);

				has[i] = (v >> CAP) & 1;
				found++;
			}
		}
	}
	fclose(f);
	return found == NSETS ? 0 : -1;
}

/* Report every view; return 1 when all agree with @want_present. */
static int judge(const char *when, int want_present)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	int st[NSETS], get[3], bset, i, all, any, ok;

	if (syscall(SYS_capget, &hdr, data)) {
		printf("%s: capget: %s\n", when, lk_errname(errno));
		return 0;
	}
	get[INH] = bit41(data[1].inheritable);
	get[PRM] = bit41(data[1].permitted);
	get[EFF] = bit41(data[1].effective);
	bset = prctl(PR_CAPBSET_READ, CAP, 0, 0, 0);
	if (from_status(st)) {
		printf("%s: /proc/self/status: no capability lines\n", when);
		return 0;
	}
	printf("%s: capget inh=%d prm=%d eff=%d; PR_CAPBSET_READ=%d; status",
	       when, get[INH], get[PRM], get[EFF], bset);
	for (i = 0; i < NSETS; i++)
		printf(" %s=%d", set_names[i], st[i]);
	printf("\n");

	all = get[PRM] && get[EFF] && bset == 1 && st[PRM] && st[EFF] &&
	      st[BND];
	any = get[INH] || get[PRM] || get[EFF] || bset == 1;
	for (i = 0; i < NSETS; i++)
		any = any || st[i];
	ok = want_present ? all : !any && bset == 0;
	printf("%s: capability 41 %s (expected %s): %s\n", when,
	       all ? "present" : !any ? "absent" : "in some views only",
	       want_present ? "present" : "absent", ok ? "MATCH" : "MISMATCH");
	return ok;
}

static int parse_state(const char *s)
{
	if (!strcmp(s, "present"))
		return 1;
	if (!strcmp(s, "absent"))
		return 0;
	fprintf(stderr, "expected present or absent, not '%s'\n", s);
	exit(LKTEST_FAIL);
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	int userns = 0, before = -1, expect = -1, i, fd;
	char c;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--userns"))
			userns = 1;
		else if (!strcmp(argv[i], "--wait") && i + 1 < argc)
			fifo = argv[++i];
		else if (!strcmp(argv[i], "--before") && i + 1 < argc)
			before = parse_state(argv[++i]);
		else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
			expect = parse_state(argv[++i]);
		else
			expect = -2;
	}
	if (expect < 0 || (fifo && before < 0)) {
		fprintf(stderr, "usage: %s [--userns] [--wait FIFO --before present|absent] --expect present|absent\n",
			argv[0]);
		return LKTEST_FAIL;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (userns && unshare(CLONE_NEWUSER)) {
		printf("unshare(CLONE_NEWUSER): %s\n", lk_errname(errno));
		return LKTEST_FAIL;
	}
	if (fifo) {
		if (!judge("before", before))
			return LKTEST_FAIL;
		if (mkfifo(fifo, 0600) && errno != EEXIST) {
			printf("mkfifo %s: %s\n", fifo, lk_errname(errno));
			return LKTEST_FAIL;
		}
		printf("ready\n");
		fd = open(fifo, O_RDONLY);
		if (fd < 0) {
			printf("open %s: %s\n", fifo, lk_errname(errno));
			return LKTEST_FAIL;
		}
		/* Read what the writer sends: closing first would SIGPIPE it. */
		while (read(fd, &c, 1) == 1 && c != '\n')
			;
		close(fd);
	}
	return judge(fifo ? "after" : "now", expect) ? LKTEST_MATCH : LKTEST_FAIL;
}
