// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-bench: time the operations lockdown guards, and two it does not.
 *
 *   lktest-bench [-n ITERATIONS] [-b BATCHES] OP...
 *
 *   getppid       getppid(): a bare system call (control)
 *   msr-read      pread of MSR_TSC_AUX on /dev/cpu/0/msr (control)
 *   msr-write     pwrite of the value read back to MSR_TSC_AUX
 *   ioperm        ioperm(0x80, 1, 1) then ioperm(0x80, 1, 0)
 *   iopl          iopl(3) then iopl(0)
 *   pci-write     pwrite of the byte read at 0x3c back to the procfs config
 *                 file of 0000:00:00.0 (not sysfs's: its write allocates a
 *                 buffer, which under SLOB costs what the heap's history
 *                 makes it)
 *   devport-open  open("/dev/port", O_RDWR), and close() when it opened
 *
 * Each operation runs BATCHES batches of ITERATIONS calls, each batch
 * timed with CLOCK_MONOTONIC.  Whatever the guarded call returns (allowed,
 * or refused under lockdown), that is what is timed; the result is
 * reported with the figure:
 *
 *   bench kind=syscall op=OP result=RESULT median_ns=X min_ns=Y max_ns=Z
 *         x_getppid=R batches=B iterations=N
 *
 * (one line; scripts/bench.sh collects it).  RESULT is "ok" or the errno
 * name of the guarded call, "mixed" when it changed between calls.  Right
 * before each batch, a batch of getppid() is timed too: R is the median
 * of the batches' OP/getppid ratios, a
 * figure that a host running the guest faster or slower (TCG on a busy
 * machine) changes much less than X.  Exit status 0 when every OP was measured, 1
 * when a setup step (opening a device, reading the value to write back)
 * failed.  Prints figures only: no expectation on speed.
 */
#include "lktest.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/io.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MSR_TSC_AUX	0xc0000103
#define MSR_DEV		"/dev/cpu/0/msr"
#define PCI_CONFIG	"/proc/bus/pci/00/00.0"
#define PCI_REG		0x3c
#define PORT		0x80
#define MAX_BATCHES	101
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct bench {
	int fd;			/* device the operation works on, or -1 */
	uint64_t msr;		/* value to write back */
	unsigned char byte;	/* config byte to write back */
	int first_err;		/* result of the first guarded call */
	int mixed;		/* a later call gave another result */
};

/* One guarded call: 0 or the errno it failed with. */
typedef int (*op_fn)(struct bench *b);

static int op_getppid(struct bench *b)
{
	(void)b;
	syscall(SYS_getppid);
	return 0;
}

static int op_msr_read(struct bench *b)
{
	uint64_t v;

	return pread(b->fd, &v, sizeof(v), MSR_TSC_AUX) == sizeof(v) ? 0 : errno;
}

static int op_msr_write(struct bench *b)
{
	return pwrite(b->fd, &b->msr, sizeof(b->msr), MSR_TSC_AUX) ==
		sizeof(b->msr) ? 0 : errno;
}

static int op_ioperm(struct bench *b)
{
	int err = ioperm(PORT, 1, 1) ? errno : 0;

	(void)b;
	ioperm(PORT, 1, 0);
	return err;
}

static int op_iopl(struct bench *b)
{
	int err = iopl(3) ? errno : 0;

	(void)b;
	iopl(0);
	return err;
}

static int op_pci_write(struct bench *b)
{
	return pwrite(b->fd, &b->byte, 1, PCI_REG) == 1 ? 0 : errno;
}

static int op_devport_open(struct bench *b)
{
	int fd = open("/dev/port", O_RDWR);

	(void)b;
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static const struct {
	const char *name;
	op_fn fn;
} ops[] = {
	{ "getppid", op_getppid },
	{ "msr-read", op_msr_read },
	{ "msr-write", op_msr_write },
	{ "ioperm", op_ioperm },
	{ "iopl", op_iopl },
	{ "pci-write", op_pci_write },
	{ "devport-open", op_devport_open },
};

/* Open what OP works on and read the value it writes back; 0 or errno. */
static int setup(const char *op, struct bench *b)
{
	b->fd = -1;
	if (!strncmp(op, "msr-", 4)) {
		b->fd = open(MSR_DEV, O_RDWR);
		if (b->fd < 0)
			return lk_setup_failed("open " MSR_DEV, errno);
		if (pread(b->fd, &b->msr, sizeof(b->msr), MSR_TSC_AUX) != sizeof(b->msr))
			return lk_setup_failed("pread msr 0xc0000103", errno ? errno : EIO);
	} else if (!strcmp(op, "pci-write")) {
		b->fd = open(PCI_CONFIG, O_RDWR);
		if (b->fd < 0)
			return lk_setup_failed("open " PCI_CONFIG, errno);
		if (pread(b->fd, &b->byte, 1, PCI_REG) != 1)
			return lk_setup_failed("pread config 0x3c", errno ? errno : EIO);
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int run(const char *name, op_fn fn, long iters, int batches)
{
	double per_op[MAX_BATCHES], rel[MAX_BATCHES], t0, control;
	struct bench b = { 0 };
	long i;
	int k, err;

	if (setup(name, &b))
		return LKTEST_FAIL;
	b.first_err = fn(&b);		/* also warms up caches and paths */
	for (k = 0; k < batches; k++) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			op_getppid(NULL);
		control = (now_ns() - t0) / iters;

		t0 = now_ns();
		for (i = 0; i < iters; i++) {
			err = fn(&b);
			if (err != b.first_err)
				b.mixed = 1;
		}
		per_op[k] = (now_ns() - t0) / iters;
		rel[k] = per_op[k] / control;
	}
	if (b.fd >= 0)
		close(b.fd);
	qsort(per_op, batches, sizeof(*per_op), cmp_double);
	qsort(rel, batches, sizeof(*rel), cmp_double);
	printf("bench kind=syscall op=%s result=%s median_ns=%.1f min_ns=%.1f max_ns=%.1f x_getppid=%.2f batches=%d iterations=%ld\n",
	       name, b.mixed ? "mixed" : lk_errname(b.first_err), per_op[batches / 2],
	       per_op[0], per_op[batches - 1], rel[batches / 2], batches, iters);
	return LKTEST_MATCH;
}

int main(int argc, char **argv)
{
	long iters = 2000;
	int batches = 9, opt, i, rc = LKTEST_MATCH;
	size_t j;

	while ((opt = getopt(argc, argv, "n:b:")) != -1) {
		switch (opt) {
		case 'n':
			iters = strtol(optarg, NULL, 0);
			break;
		case 'b':
			batches = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || iters < 1 || batches < 1 || batches > MAX_BATCHES)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (i = optind; i < argc; i++) {
		for (j = 0; j < ARRAY_SIZE(ops); j++)
			if (!strcmp(argv[i], ops[j].name))
				break;
		if (j == ARRAY_SIZE(ops)) {
			fprintf(stderr, "unknown operation '%s'\n", argv[i]);
			goto usage;
		}
		if (run(ops[j].name, ops[j].fn, iters, batches))
			rc = LKTEST_FAIL;
	}
	return rc;

usage:
	fprintf(stderr, "usage: %s [-n ITERATIONS] [-b BATCHES] OP...\nOP:", argv[0]);
	for (j = 0; j < ARRAY_SIZE(ops); j++)
		fprintf(stderr, " %s", ops[j].name);
	fputc('\n', stderr);
	return LKTEST_FAIL;
}
