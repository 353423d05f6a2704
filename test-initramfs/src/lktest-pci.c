// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-pci: one access to a PCI device through the kernel's user
 * interfaces.
 *
 *   lktest-pci OP [--dev 0000:00:00.0] [--offset 0x3c] [--bar N]
 *              --expect ok|ENAME
 *
 *   config-read   read the first 64 bytes of sysfs .../config
 *   config-write  write back the byte read at --offset to sysfs .../config
 *   proc-read     read the first 64 bytes of /proc/bus/pci/BB/DD.F
 *   proc-write    write back the byte read at --offset there
 *   mmap          mmap one page of .../resourceN (a memory BAR; the first
 *                 one of --dev, or of the first device that has one) and
 *                 read a dword through it
 *
 * The default offset is the Interrupt Line register (0x3c): a scratch
 * register for software that the device ignores, and writing back the
 * value just read changes nothing.
 */
#include "lktest.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define SYSFS_PCI	"/sys/bus/pci/devices"
#define IORESOURCE_MEM	0x00000200

static int read_all(const char *path, unsigned char *buf, size_t len)
{
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	n = pread(fd, buf, len, 0);
	if (n != (ssize_t)len)
		err = n < 0 ? errno : EIO;
	close(fd);
	if (!err)
		printf("%s: vendor %02x%02x device %02x%02x\n", path,
		       buf[1], buf[0], buf[3], buf[2]);
	return err;
}

static int write_back(const char *path, long off)
{
	unsigned char b;
	int fd, err = 0;

	fd = open(path, O_RDWR);
	if (fd < 0) {
		err = errno;
		printf("open %s O_RDWR: %s\n", path, lk_errname(err));
		return err;
	}
	if (pread(fd, &b, 1, off) != 1) {
		err = errno ? errno : EIO;
		printf("pread %s @0x%lx: %s\n", path, off, lk_errname(err));
		goto out;
	}
	printf("pread %s @0x%lx: 0x%02x\n", path, off, b);
	if (pwrite(fd, &b, 1, off) != 1)
		err = errno ? errno : EIO;
	printf("pwrite %s @0x%lx value 0x%02x: %s\n", path, off, b, lk_errname(err));
out:
	close(fd);
	return err;
}

/* First memory BAR of DEV with a resourceN file; -1 when none. */
static int mem_bar(const char *dev)
{
	unsigned long long start, end, flags;
	char path[256];
	int bar = -1, i;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource", dev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (i = 0; i < 6 && fscanf(f, "%llx %llx %llx", &start, &end, &flags) == 3; i++) {
		snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource%d", dev, i);
		if ((flags & IORESOURCE_MEM) && end > start && !access(path, F_OK)) {
			bar = i;
			break;
		}
	}
	fclose(f);
	return bar;
}

static int find_mem_bar(char *dev, size_t len)
{
	struct dirent *de;
	int bar = -1;
	DIR *d;

	d = opendir(SYSFS_PCI);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		bar = mem_bar(de->d_name);
		if (bar >= 0) {
			snprintf(dev, len, "%s", de->d_name);
			break;
		}
	}
	closedir(d);
	return bar;
}

static int map_bar(const char *dev, int bar)
{
	volatile uint32_t *p;
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), SYSFS_PCI "/%s/resource%d", dev, bar);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		err = errno;
		printf("open %s O_RDWR: %s\n", path, lk_errname(err));
		return err;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		printf("mmap %s: %s\n", path, lk_errname(err));
	} else {
		printf("mmap %s: ok, first dword 0x%08x\n", path, p[0]);
		munmap((void *)p, 4096);
	}
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	int expect = lk_take_expect(&argc, argv);
	char dev[256] = "", path[300], what[400];
	const char *op = NULL;
	unsigned int bus, slot, fn;
	unsigned char cfg[64];
	long off = 0x3c;
	int bar = -1, i, err;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dev") && i + 1 < argc)
			snprintf(dev, sizeof(dev), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--offset") && i + 1 < argc)
			off = strtol(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--bar") && i + 1 < argc)
			bar = atoi(argv[++i]);
		else
			op = argv[i];
	}
	if (!op) {
		fprintf(stderr, "usage: %s config-read|config-write|proc-read|proc-write|mmap [--dev D] [--offset N] [--bar N] --expect ok|ENAME\n",
			argv[0]);
		return LKTEST_FAIL;
	}

	if (!strcmp(op, "mmap")) {
		if (!dev[0])
			bar = find_mem_bar(dev, sizeof(dev));
		else if (bar < 0)
			bar = mem_bar(dev);
		if (bar < 0) {
			printf("no PCI device with a memory BAR%s%s\n",
			       dev[0] ? " at " : "", dev);
			return LKTEST_FAIL;
		}
		snprintf(what, sizeof(what), "mmap %s resource%d", dev, bar);
		return lk_verdict(what, map_bar(dev, bar), expect);
	}

	if (!dev[0])
		snprintf(dev, sizeof(dev), "0000:00:00.0");
	if (!strncmp(op, "config-", 7)) {
		snprintf(path, sizeof(path), SYSFS_PCI "/%s/config", dev);
	} else if (!strncmp(op, "proc-", 5)) {
		if (sscanf(dev, "%*x:%x:%x.%x", &bus, &slot, &fn) != 3) {
			fprintf(stderr, "bad device '%s'\n", dev);
			return LKTEST_FAIL;
		}
		snprintf(path, sizeof(path), "/proc/bus/pci/%02x/%02x.%x", bus, slot, fn);
	} else {
		fprintf(stderr, "unknown operation '%s'\n", op);
		return LKTEST_FAIL;
	}

	if (strstr(op, "-read")) {
		snprintf(what, sizeof(what), "read %s", path);
		err = read_all(path, cfg, sizeof(cfg));
	} else {
		snprintf(what, sizeof(what), "write %s @0x%lx", path, off);
		err = write_back(path, off);
	}
	return lk_verdict(what, err, expect);
}
