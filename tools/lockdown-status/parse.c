// SPDX-License-Identifier: GPL-2.0
/*
 * lockdown-status: parsers for the files the kernel shows lockdown in.
 *
 * Formats (security/lockdown/securityfs.c):
 *   lockdown          "none [integrity] confidentiality\n"
 *   lockdown_origin   "LEVEL SECONDS ORIGIN\n" per level reached
 *   lockdown_denials  "COUNT LEVEL REASON\n" per reason
 * and efivarfs variables: 4 bytes of attributes, then the value.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char * const level_names[LD_NR_LEVELS] = {
	[LD_NONE] = "none",
	[LD_INTEGRITY] = "integrity",
	[LD_CONFIDENTIALITY] = "confidentiality",
};

/**
 * ld_level_name - the kernel's name of a level
 * @level: the level
 *
 * Return: "none", "integrity", "confidentiality" or "?".
 */
const char *ld_level_name(enum ld_level level)
{
	if ((unsigned int)level >= LD_NR_LEVELS)
		return "?";
	return level_names[level];
}

/**
 * ld_level_from_name - look a level up by name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 * @level: where to store the level
 *
 * Return: 0, or -EINVAL when @name is no level.
 */
int ld_level_from_name(const char *name, size_t len, enum ld_level *level)
{
	unsigned int i;

	for (i = 0; i < LD_NR_LEVELS; i++) {
		if (strlen(level_names[i]) == len &&
		    !strncmp(name, level_names[i], len)) {
			*level = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Length of the line at @s, without its newline. */
static size_t line_len(const char *s)
{
	return strcspn(s, "\n");
}

/* The next line after the one at @s, or NULL at the end. */
static const char *next_line(const char *s)
{
	s += line_len(s);
	return *s ? s + 1 : NULL;
}

/**
 * ld_parse_level - parse /sys/kernel/security/lockdown
 * @buf: the file's contents, NUL-terminated
 * @level: where to store the current (bracketed) level
 *
 * The line names every level once, in order, the current one in brackets.
 *
 * Return: 0, or -EINVAL when @buf is not in that format.
 */
int ld_parse_level(const char *buf, enum ld_level *level)
{
	size_t len = line_len(buf);
	const char *p = buf, *end = buf + len;
	unsigned int i;
	int current = -1;

	if (buf[len] && buf[len + 1])
		return -EINVAL;		/* more than one line */

	for (i = 0; i < LD_NR_LEVELS; i++) {
		size_t n = strlen(level_names[i]);
		bool bracket = p < end && *p == '[';

		if (bracket)
			p++;
		if ((size_t)(end - p) < n || strncmp(p, level_names[i], n))
			return -EINVAL;
		p += n;
		if (bracket) {
			if (p == end || *p != ']' || current >= 0)
				return -EINVAL;
			p++;
			current = i;
		}
		if (i < LD_NR_LEVELS - 1) {
			if (p == end || *p != ' ')
				return -EINVAL;
			p++;
		}
	}
	if (p != end || current < 0)
		return -EINVAL;
	*level = current;
	return 0;
}

/*
 * Parse "WORD REST" at @s (one line of @len bytes): @word gets the first
 * word, @rest the remainder after one space.
 */
static int split_word(const char *s, size_t len, const char **word,
		      size_t *wlen, const char **rest, size_t *rlen)
{
	const char *sp = memchr(s, ' ', len);

	if (!sp || sp == s || sp + 1 == s + len)
		return -EINVAL;
	*word = s;
	*wlen = sp - s;
	*rest = sp + 1;
	*rlen = s + len - (sp + 1);
	return 0;
}

/* Copy @len bytes of text into @dst, truncating to fit. */
static void copy_text(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Parse an unsigned decimal of exactly @len bytes. */
static int parse_ull(const char *s, size_t len, unsigned long long *v)
{
	unsigned long long r = 0;
	size_t i;

	if (!len || len > 20)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = s[i] - '0';

		if (d > 9 || r > (~0ULL - d) / 10)
			return -EINVAL;
		r = r * 10 + d;
	}
	*v = r;
	return 0;
}

/**
 * ld_parse_origins - parse /sys/kernel/security/lockdown_origin
 * @buf: the file's contents, NUL-terminated (empty when never raised)
 * @o: array to fill, lowest level first
 * @max: its size
 *
 * Each line is "LEVEL SECONDS.MICROSECONDS ORIGIN"; ORIGIN may contain
 * spaces and is truncated to fit struct ld_origin.
 *
 * Return: the number of lines parsed, or -EINVAL on a malformed line.
 */
int ld_parse_origins(const char *buf, struct ld_origin *o, int max)
{
	const char *s;
	int n = 0;

	for (s = buf; s && *s; s = next_line(s)) {
		size_t len = line_len(s), wlen, rlen, tlen, rrlen;
		const char *word, *rest, *time, *where, *dot;
		unsigned long long usec;

		if (n >= max)
			return -EINVAL;
		if (split_word(s, len, &word, &wlen, &rest, &rlen) ||
		    ld_level_from_name(word, wlen, &o[n].level) ||
		    o[n].level == LD_NONE)
			return -EINVAL;
		if (split_word(rest, rlen, &time, &tlen, &where, &rrlen))
			return -EINVAL;
		dot = memchr(time, '.', tlen);
		if (!dot || parse_ull(time, dot - time, &o[n].sec) ||
		    time + tlen - (dot + 1) != 6 ||
		    parse_ull(dot + 1, 6, &usec))
			return -EINVAL;
		o[n].usec = (unsigned int)usec;	/* six digits */
		copy_text(o[n].where, sizeof(o[n].where), where, rrlen);
		n++;
	}
	return n;
}

/**
 * ld_parse_denials - parse /sys/kernel/security/lockdown_denials
 * @buf: the file's contents, NUL-terminated
 * @d: array to fill, in the file's order
 * @max: its size
 *
 * Each line is "COUNT LEVEL REASON"; REASON may contain spaces and is
 * truncated to fit struct ld_denial.
 *
 * Return: the number of lines parsed, or -EINVAL on a malformed line.
 */
int ld_parse_denials(const char *buf, struct ld_denial *d, int max)
{
	const char *s;
	int n = 0;

	for (s = buf; s && *s; s = next_line(s)) {
		size_t len = line_len(s), clen, rlen, wlen, rrlen;
		const char *count, *rest, *word, *reason;
		unsigned long long c;

		if (n >= max)
			return -EINVAL;
		if (split_word(s, len, &count, &clen, &rest, &rlen) ||
		    parse_ull(count, clen, &c) || c > (unsigned long)-1)
			return -EINVAL;
		if (split_word(rest, rlen, &word, &wlen, &reason, &rrlen) ||
		    ld_level_from_name(word, wlen, &d[n].level) ||
		    d[n].level == LD_NONE)
			return -EINVAL;
		d[n].count = c;
		copy_text(d[n].reason, sizeof(d[n].reason), reason, rrlen);
		n++;
	}
	return n;
}

/**
 * ld_parse_efivar - parse a one-byte efivarfs variable
 * @buf: the file's contents
 * @len: their length
 * @attr: where to store the attributes (EFI_VARIABLE_*)
 * @value: where to store the value
 *
 * Return: 0, or -EINVAL when @buf is not 4 bytes of attributes and a
 * one-byte value.
 */
int ld_parse_efivar(const unsigned char *buf, size_t len,
		    unsigned int *attr, unsigned char *value)
{
	uint32_t a;

	if (len != sizeof(a) + 1)
		return -EINVAL;
	/* efivarfs gives the attributes as a u32 in host byte order */
	memcpy(&a, buf, sizeof(a));
	*attr = a;
	*value = buf[4];
	return 0;
}

/**
 * ld_parse_bool - parse a bool module parameter such as sig_enforce
 * @buf: the file's contents, NUL-terminated
 * @value: where to store the value
 *
 * Return: 0, or -EINVAL when @buf is not "Y" or "N" (or 1 or 0).
 */
int ld_parse_bool(const char *buf, bool *value)
{
	size_t len = line_len(buf);

	if (len != 1 || (buf[1] && buf[2]))
		return -EINVAL;
	switch (buf[0]) {
	case 'Y':
	case '1':
		*value = true;
		return 0;
	case 'N':
	case '0':
		*value = false;
		return 0;
	}
	return -EINVAL;
}

/**
 * ld_parse_capbnd - find the bounding set in /proc/PID/status
 * @status: the file's contents, NUL-terminated
 * @mask: where to store the set
 *
 * Return: 0, or -EINVAL when there is no well-formed "CapBnd:" line.
 */
int ld_parse_capbnd(const char *status, unsigned long long *mask)
{
	const char *s;

	for (s = status; s && *s; s = next_line(s)) {
		size_t len = line_len(s), i;
		unsigned long long m = 0;

		if (strncmp(s, "CapBnd:", 7))
			continue;
		for (i = 7; i < len && (s[i] == '\t' || s[i] == ' '); i++)
			;
		if (i == len || len - i > 16)
			return -EINVAL;
		for (; i < len; i++) {
			char c = s[i];
			unsigned int d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return -EINVAL;
			m = m << 4 | d;
		}
		*mask = m;
		return 0;
	}
	return -EINVAL;
}

/**
 * ld_parse_uint - parse a file holding one unsigned decimal
 * @buf: the file's contents, NUL-terminated
 * @value: where to store the number
 *
 * Return: 0, or -EINVAL.
 */
int ld_parse_uint(const char *buf, unsigned int *value)
{
	unsigned long long v;
	size_t len = line_len(buf);

	if ((buf[len] && buf[len + 1]) || parse_ull(buf, len, &v) ||
	    v > ~0U)
		return -EINVAL;
	*value = (unsigned int)v;
	return 0;
}

/**
 * ld_mounted - whether /proc/self/mounts lists a file system
 * @mounts: the file's contents, NUL-terminated
 * @dir: the mount point
 * @fstype: the file system type
 *
 * Return: true when a line "SOURCE @dir @fstype ..." is present.
 */
bool ld_mounted(const char *mounts, const char *dir, const char *fstype)
{
	size_t dlen = strlen(dir), tlen = strlen(fstype);
	const char *s;

	for (s = mounts; s && *s; s = next_line(s)) {
		size_t len = line_len(s);
		const char *p = memchr(s, ' ', len);

		if (!p)
			continue;
		p++;
		len -= p - s;
		if (len > dlen + tlen + 1 && !strncmp(p, dir, dlen) &&
		    p[dlen] == ' ' && !strncmp(p + dlen + 1, fstype, tlen) &&
		    (len == dlen + 1 + tlen || p[dlen + 1 + tlen] == ' '))
			return true;
	}
	return false;
}

/* What each lockdown reason of Linux 6.1 guards, in plain words. */
static const struct {
	const char *reason;
	const char *plain;
} reasons[] = {
	{ "unsigned module loading",
	  "loading modules without a valid signature (insmod, modprobe)" },
	{ "/dev/mem,kmem,port", "opening /dev/mem and /dev/port" },
	{ "/dev/efi_test access",
	  "opening /dev/efi_test (EFI runtime service tests)" },
	{ "kexec of unsigned images",
	  "kexec_load(), and kexec_file_load() of unsigned kernels (kexec)" },
	{ "hibernation",
	  "hibernation (suspend to disk); counted each time it is offered" },
	{ "direct PCI access",
	  "PCI config space writes and BAR mappings (setpci, /sys/bus/pci)" },
	{ "raw io port access", "I/O port access through ioperm() and iopl()" },
	{ "raw MSR access", "writes to /dev/cpu/*/msr (wrmsr)" },
	{ "modifying ACPI tables",
	  "ACPI table overrides and custom methods" },
	{ "modifying device tree contents",
	  "writes to /proc/powerpc/ofdt" },
	{ "direct PCMCIA CIS storage",
	  "replacing a PCMCIA card's CIS through sysfs" },
	{ "reconfiguration of serial port IO",
	  "changing a serial port's I/O port or IRQ (setserial)" },
	{ "unsafe module parameters",
	  "module parameters that set I/O ports, IRQs or memory addresses" },
	{ "unsafe mmio", "loading the testmmiotrace module" },
	{ "debugfs access",
	  "writable or mappable files in /sys/kernel/debug" },
	{ "xmon write access", "writes from the xmon debugger" },
	{ "use of bpf to write user RAM",
	  "BPF programs calling bpf_probe_write_user()" },
	{ "use of kgdb/kdb to write kernel RAM",
	  "kgdb and kdb writing kernel memory" },
	{ "RTAS error injection", "RTAS error injection (powerpc)" },
	{ "Xen guest user action",
	  "the Xen privcmd \"unrestricted\" parameter" },
	{ "/proc/kcore access", "reading kernel memory through /proc/kcore" },
	{ "use of kprobes", "kprobe trace events" },
	{ "use of bpf to read kernel RAM",
	  "BPF programs reading kernel memory (bpf_probe_read_kernel())" },
	{ "use of kgdb/kdb to read kernel RAM",
	  "kgdb and kdb reading kernel memory" },
	{ "unsafe use of perf",
	  "perf sampling of interrupted registers (PERF_SAMPLE_REGS_INTR)" },
	{ "use of tracefs",
	  "tracing through /sys/kernel/tracing (ftrace, trace-cmd)" },
	{ "xmon read and write access", "the xmon debugger" },
	{ "xfrm SA secret", "IPsec keys in \"ip xfrm state\" (shown zeroed)" },
};

/**
 * ld_reason_plain - what a lockdown reason guards, in plain words
 * @reason: the reason text, as in lockdown_denials
 *
 * Return: a phrase, or NULL for a reason this tool does not know.
 */
const char *ld_reason_plain(const char *reason)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (!strcmp(reason, reasons[i].reason))
			return reasons[i].plain;
	return NULL;
}

/* Why the kernel is locked down, by origin, to follow "because". */
static const struct {
	const char *where;
	const char *plain;
} origins[] = {
	{ "EFI Secure Boot", "firmware Secure Boot is on" },
	{ "secureboot_enable=1",
	  "the kernel command line has secureboot_enable=1 (Secure Boot emulated)" },
	{ "command line", "the kernel command line has lockdown=" },
	{ "securityfs",
	  "a level was written to /sys/kernel/security/lockdown" },
	{ "Kernel configuration", "the kernel was built to lock down" },
};

/**
 * ld_origin_plain - why the kernel is locked down, in plain words
 * @where: the origin, as in lockdown_origin
 *
 * Return: a phrase to follow "because", or NULL for an unknown origin.
 */
const char *ld_origin_plain(const char *where)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(origins); i++)
		if (!strcmp(where, origins[i].where))
			return origins[i].plain;
	return NULL;
}
