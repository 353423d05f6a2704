// SPDX-License-Identifier: GPL-2.0
/*
 * lktest-race: guarded operations racing a lockdown raise, and securityfs
 * writers racing each other.
 *
 *   lktest-race raise [--delay-ms N] [--after-ms N] [--modules DIR]
 *   lktest-race writers [-n N]
 *
 * raise: the kernel must be open.  One process per kind hammers a guarded
 * operation: an MSR written back with its own value (MSR_TSC_AUX through
 * /dev/cpu/0/msr), PCI config register 0x3c of 0000:00:00.0 written back
 * through sysfs, ioperm() on and off, and finit_module() + delete_module()
 * of a signed and of an unsigned test module.  Once every worker runs,
 * after --delay-ms, this process writes "integrity" to the lockdown file.
 * Every operation is recorded (CLOCK_MONOTONIC start and end, result).
 * The MSR worker reads the level before each write, and a watcher on its
 * own CPU reads it in a tight loop and writes the MSR once as soon as it
 * reads the kernel locked: that write must be refused.
 * Verified: no operation succeeded that started after the write returned,
 * nor an MSR write made after its worker read the level as locked;
 * every failure is the kind's exact errno (EPERM; a signed module never
 * fails) and ended after the write started; lockdown_denials grew per
 * reason by exactly the failures counted; the level ends at integrity.
 *
 * writers: N processes each write "integrity", "confidentiality" and a
 * garbage payload to the lockdown file at once, while one process writes
 * the MSR.  Verified: garbage gets EINVAL; a level write succeeds only
 * when it raises the level at that point (at most once per level, in
 * increasing order) and gets EPERM otherwise; the level ends at the
 * highest valid one requested; no MSR write that started after the first
 * level write returned succeeds.
 *
 * Both print "lktest-ops: MODE KIND=COUNT ..." for the host's summary.
 */
#include "lktest.h"

#include <sched.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#define LOCKDOWN	"/sys/kernel/security/lockdown"
#define DENIALS		"/sys/kernel/security/lockdown_denials"
#define MSR_TSC_AUX	0xc0000103
#define PCI_CONFIG	"/sys/bus/pci/devices/0000:00:00.0/config"
#define PCI_REG		0x3c
#define IO_PORT		0x80
#define MODDIR		"/usr/lib/lktest/modules"

#define MAX_OPS		(1L << 18)	/* records per worker */
#define MIN_OPS		3		/* before and after the raise */
#define WAIT_NS		(60LL * 1000000000)	/* for MIN_OPS, at most */
#define SHOW_MAX	5		/* violations shown per worker */

/* One recorded operation. */
struct op {
	int64_t start, end;	/* CLOCK_MONOTONIC, ns */
	int err;		/* 0 or the errno */
	int seen;		/* the level read as locked right before */
};

/* What a worker shares with the parent (MAP_SHARED). */
struct wstate {
	long n;			/* operations recorded */
	long after;		/* of them, started after the raise returned */
	int setup_err;		/* setup failed with this errno */
	int aux_err;		/* undo step (ioperm off, unload) failed */
	long aux_fails;
	struct op ops[MAX_OPS];
};

struct shared {
	int stop;
	int watch;			/* the watcher may start spinning */
	int64_t raise_start, raise_end;	/* 0 until known */
};

/*
 * The watcher: on the last CPU, ahead of every worker (SCHED_FIFO), it
 * reads the level in a tight loop and writes the MSR the moment it reads
 * the kernel locked down. A raise that publishes the level before it has
 * closed the open fast path lets that write through.
 */
struct watch {
	int setup_err;
	int cpu;
	long reads;		/* level reads, all but the last "[none]" */
	int err;		/* of its one MSR write; -1: never made */
	int64_t start;		/* of that write */
	pid_t pid;
};

struct worker {
	const char *kind;
	const char *reason;	/* its lockdown_denials reason, or NULL */
	int expect;		/* errno once locked down; 0: never refused */
	int (*setup)(struct worker *w);
	int (*op)(struct worker *w);
	const char *module;	/* module workers: file name */
	const char *modname;
	int fd;
	int lockfd;		/* msr: the lockdown file, read before each op */
	int seen;		/* set by an op that read the level as locked */
	uint64_t val;
	struct wstate *st;
	pid_t pid;
};

static struct shared *sh;
static const char *moddir = MODDIR;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int64_t load64(const int64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void *shared_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* --- the operations -------------------------------------------------- */

static int msr_setup(struct worker *w)
{
	char path[64];
	const char *step;

	w->lockfd = open(LOCKDOWN, O_RDONLY | O_CLOEXEC);
	if (w->lockfd < 0)
		return errno;
	w->fd = lk_open_msr(0, MSR_TSC_AUX, &w->val, path, sizeof(path), &step);
	return w->fd < 0 ? errno : 0;
}

/*
 * Read the level, then write the MSR: once any reader can see the kernel
 * locked down, no guarded site may still let a write through (a raise
 * must close the open fast path before it publishes the level).
 */
static int msr_op(struct worker *w)
{
	char buf[64];
	ssize_t n = pread(w->lockfd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	w->seen = n > 0 && !strstr(buf, "[none]");
	return pwrite(w->fd, &w->val, 8, MSR_TSC_AUX) == 8 ? 0 : errno;
}

static int pci_setup(struct worker *w)
{
	uint8_t v;

	w->fd = open(PCI_CONFIG, O_RDWR | O_CLOEXEC);
	if (w->fd < 0)
		return errno;
	if (pread(w->fd, &v, 1, PCI_REG) != 1)
		return errno ? errno : EIO;
	w->val = v;
	return 0;
}

static int pci_op(struct worker *w)
{
	uint8_t v = w->val;

	return pwrite(w->fd, &v, 1, PCI_REG) == 1 ? 0 : errno;
}

static int no_setup(struct worker *w)
{
	(void)w;
	return 0;
}

static void aux_failed(struct worker *w, int err)
{
	w->st->aux_fails++;
	if (!w->st->aux_err)
		w->st->aux_err = err;
}

/* ioperm on; when granted, off again, which must always work. */
static int ioperm_op(struct worker *w)
{
	int err = ioperm(IO_PORT, 1, 1) ? errno : 0;

	if (!err && ioperm(IO_PORT, 1, 0))
		aux_failed(w, errno);
	return err;
}

static int module_setup(struct worker *w)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", moddir, w->module);
	w->fd = open(path, O_RDONLY | O_CLOEXEC);
	return w->fd < 0 ? errno : 0;
}

/* finit_module; when loaded, delete_module, which must always work. */
static int module_op(struct worker *w)
{
	int err = syscall(SYS_finit_module, w->fd, "", 0) ? errno : 0;

	if (!err && syscall(SYS_delete_module, w->modname, O_NONBLOCK))
		aux_failed(w, errno);
	return err;
}

static struct worker workers[] = {
	{ .kind = "msr", .reason = "raw MSR access", .expect = EPERM,
	  .setup = msr_setup, .op = msr_op },
	{ .kind = "pci", .reason = "direct PCI access", .expect = EPERM,
	  .setup = pci_setup, .op = pci_op },
	{ .kind = "ioperm", .reason = "raw io port access", .expect = EPERM,
	  .setup = no_setup, .op = ioperm_op },
	{ .kind = "module_signed", .expect = 0,
	  .setup = module_setup, .op = module_op,
	  .module = "lktest_signed.ko", .modname = "lktest_signed" },
	{ .kind = "module_unsigned", .reason = "unsigned module loading",
	  .expect = EPERM, .setup = module_setup, .op = module_op,
	  .module = "lktest_unsigned.ko", .modname = "lktest_unsigned" },
};

#define NR_WORKERS (sizeof(workers) / sizeof(workers[0]))

/*
 * Wait for the go (EOF on GO), then run W's operation until the parent
 * says stop or the record is full.
 */
static void worker_run(struct worker *w, int go)
{
	struct wstate *st = w->st;
	char c;

	st->setup_err = w->setup(w);
	if (read(go, &c, 1) < 0 || st->setup_err)
		_exit(0);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE) && st->n < MAX_OPS) {
		struct op *o = &st->ops[st->n];
		int64_t raised;

		o->start = now_ns();
		o->err = w->op(w);
		o->end = now_ns();
		o->seen = w->seen;
		w->seen = 0;
		raised = load64(&sh->raise_end);
		if (raised && o->start > raised)
			__atomic_store_n(&st->after, st->after + 1, __ATOMIC_RELEASE);
		__atomic_store_n(&st->n, st->n + 1, __ATOMIC_RELEASE);
		/* Interleave with the others operation by operation. */
		sched_yield();
	}
	_exit(0);
}

/* Start every worker; each waits until *go_w, the go pipe, is closed. */
static int start_workers(struct worker *ws, size_t nr, int *go_w)
{
	int go[2];
	size_t i;

	if (pipe(go))
		return errno;
	for (i = 0; i < nr; i++) {
		ws[i].st = shared_alloc(sizeof(*ws[i].st));
		if (!ws[i].st)
			return ENOMEM;
		ws[i].pid = fork();
		if (ws[i].pid < 0)
			return errno;
		if (!ws[i].pid) {
			close(go[1]);
			worker_run(&ws[i], go[0]);
		}
	}
	close(go[0]);
	*go_w = go[1];
	return 0;
}

/* Wait until every worker has FIELD (n or after) >= MIN_OPS, or time out. */
static int wait_ops(struct worker *ws, size_t nr, int after)
{
	int64_t limit = now_ns() + WAIT_NS;
	size_t i;

	for (;;) {
		int all = 1;

		for (i = 0; i < nr; i++) {
			long *f = after ? &ws[i].st->after : &ws[i].st->n;

			if (!ws[i].st->setup_err &&
			    __atomic_load_n(f, __ATOMIC_ACQUIRE) < MIN_OPS &&
			    ws[i].st->n < MAX_OPS)
				all = 0;
		}
		if (all)
			return 0;
		if (now_ns() > limit)
			return ETIMEDOUT;
		sleep_ms(1);
	}
}

static void stop_workers(struct worker *ws, size_t nr)
{
	size_t i;

	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nr; i++)
		if (ws[i].pid > 0)
			waitpid(ws[i].pid, NULL, 0);
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* best effort */
}

static void watcher_run(struct watch *wt)
{
	struct sched_param prio = { .sched_priority = 1 };
	char path[64], buf[64];
	const char *step;
	int lockfd, msrfd;
	uint64_t val;

	pin_to(wt->cpu);
	/* Ahead of the workers on its CPU: it must see the raise at once. */
	sched_setscheduler(0, SCHED_FIFO, &prio);
	lockfd = open(LOCKDOWN, O_RDONLY | O_CLOEXEC);
	msrfd = lk_open_msr(0, MSR_TSC_AUX, &val, path, sizeof(path), &step);
	if (lockfd < 0 || msrfd < 0) {
		wt->setup_err = errno ? errno : EIO;
		_exit(0);
	}
	while (!__atomic_load_n(&sh->watch, __ATOMIC_ACQUIRE))
		sleep_ms(1);
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
		ssize_t n = pread(lockfd, buf, sizeof(buf) - 1, 0);

		wt->reads++;
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (strstr(buf, "[none]"))
			continue;
		wt->start = now_ns();
		wt->err = pwrite(msrfd, &val, 8, MSR_TSC_AUX) == 8 ? 0 : errno;
		break;
	}
	_exit(0);
}

static long judge_watcher(const struct watch *wt)
{
	printf("watcher (CPU %d): %ld level reads; ", wt->cpu, wt->reads);
	if (wt->setup_err) {
		printf("setup failed: %s\n", lk_errname(wt->setup_err));
		return 1;
	}
	if (wt->err < 0) {
		printf("never read the level as locked\n");
		return 1;
	}
	printf("MSR write right after reading it locked, %+.3f ms from the raise: %s (expected EPERM)%s\n",
	       (wt->start - sh->raise_start) / 1e6, lk_errname(wt->err),
	       wt->err == EPERM ? "" : ": the open fast path was still taken");
	return wt->err != EPERM;
}

/* --- the state files ------------------------------------------------- */

/* The level: 0 none, 1 integrity, 2 confidentiality; -1 unreadable. */
static int read_level(void)
{
	static const char * const names[] = {
		"[none]", "[integrity]", "[confidentiality]"
	};
	char buf[128] = "";
	FILE *f = fopen(LOCKDOWN, "r");
	int i;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (i = 0; i < 3; i++)
		if (strstr(buf, names[i]))
			return i;
	return -1;
}

static const char *level_name(int level)
{
	static const char * const names[] = {
		"none", "integrity", "confidentiality"
	};

	return level >= 0 && level < 3 ? names[level] : "?";
}

/* The lockdown_denials count of REASON; -1 when it is not listed. */
static long read_denials(const char *reason)
{
	char line[256], *r;
	long count, found = -1;
	FILE *f = fopen(DENIALS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* "COUNT LEVEL REASON" */
		count = strtol(line, &r, 10);
		r = strchr(r + 1, ' ');
		if (r && !strcmp(r + 1, reason))
			found = count;
	}
	fclose(f);
	return found;
}

/* write(2) of BUF to the lockdown file; 0 or the errno. */
static int lockdown_write(const char *buf, size_t len)
{
	int fd = open(LOCKDOWN, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0)
		return errno;
	err = write(fd, buf, len) == (ssize_t)len ? 0 : errno;
	close(fd);
	return err;
}

/* --- raise ----------------------------------------------------------- */

/* Check one worker's record against the raise; returns the violations. */
static long judge_worker(struct worker *w, long denial_delta)
{
	struct wstate *st = w->st;
	int64_t rs = sh->raise_start, re = sh->raise_end;
	long i, bad = 0, ok = 0, refused = 0, before = 0, during = 0;
	long after = 0, ok_before = 0, ok_after = 0, seen = 0;

	for (i = 0; i < st->n; i++) {
		struct op *o = &st->ops[i];
		const char *why = NULL;

		if (o->end < rs)
			before++;
		else if (o->start > re)
			after++;
		else
			during++;
		seen += o->seen;
		if (!o->err) {
			ok++;
			ok_before += o->end < rs;
			ok_after += o->start > re;
			if (o->seen && w->expect)
				why = "succeeded after the level read as locked";
			else if (o->start > re && w->expect)
				why = "succeeded, started after the raise returned";
		} else {
			refused++;
			if (o->err != w->expect)
				why = "unexpected errno";
			else if (o->end < rs)
				why = "refused before the raise started";
		}
		if (why && ++bad <= SHOW_MAX)
			printf("  %s op %ld: %s, %+.3f..%+.3f ms from the raise (%.3f ms long): %s\n",
			       w->kind, i, lk_errname(o->err),
			       (o->start - rs) / 1e6, (o->end - rs) / 1e6,
			       (re - rs) / 1e6, why);
	}
	printf("%s: %ld ops (%ld before the raise, %ld during, %ld after): %ld ok, %ld %s",
	       w->kind, st->n, before, during, after, ok, refused,
	       lk_errname(w->expect ? w->expect : EPERM));
	if (w->reason)
		printf("; lockdown_denials '%s' +%ld", w->reason, denial_delta);
	if (seen)
		printf("; %ld after reading the level as locked", seen);
	printf("\n");

	if (st->setup_err) {
		printf("  %s: setup failed: %s\n", w->kind, lk_errname(st->setup_err));
		bad++;
	}
	if (st->aux_fails) {
		printf("  %s: %ld undo steps failed, first with %s\n", w->kind,
		       st->aux_fails, lk_errname(st->aux_err));
		bad++;
	}
	if (st->n >= MAX_OPS) {
		printf("  %s: record full (%ld ops)\n", w->kind, st->n);
		bad++;
	}
	if (ok_before < 1) {
		printf("  %s: no success before the raise: nothing raced\n", w->kind);
		bad++;
	}
	if (w->expect && refused < 1) {
		printf("  %s: never refused after the raise\n", w->kind);
		bad++;
	}
	if (!w->expect && ok_after < 1) {
		printf("  %s: no success after the raise\n", w->kind);
		bad++;
	}
	if (w->reason && denial_delta != refused) {
		printf("  %s: lockdown_denials '%s' grew by %ld, %ld refusals counted\n",
		       w->kind, w->reason, denial_delta, refused);
		bad++;
	}
	return bad;
}

static int do_raise(long delay_ms, long after_ms)
{
	long d0[NR_WORKERS], bad = 0;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct watch *wt;
	int go, err, level;
	size_t i;

	level = read_level();
	if (level != 0) {
		printf("level is %s, this test needs an open kernel\n", level_name(level));
		return LKTEST_FAIL;
	}
	for (i = 0; i < NR_WORKERS; i++)
		d0[i] = workers[i].reason ? read_denials(workers[i].reason) : 0;

	err = start_workers(workers, NR_WORKERS, &go);
	if (err)
		return lk_setup_failed("start workers", err);
	close(go);
	wt = shared_alloc(sizeof(*wt));
	if (!wt)
		return lk_setup_failed("mmap", errno);
	wt->err = -1;
	wt->cpu = ncpu > 1 ? ncpu - 1 : 0;
	wt->pid = fork();
	if (wt->pid < 0)
		return lk_setup_failed("fork", errno);
	if (!wt->pid)
		watcher_run(wt);
	err = wait_ops(workers, NR_WORKERS, 0);
	if (err)
		printf("not every worker reached %d operations before the raise\n", MIN_OPS);
	/* The raise from CPU 0, the watcher spinning on another. */
	if (ncpu > 1)
		pin_to(0);
	__atomic_store_n(&sh->watch, 1, __ATOMIC_RELEASE);
	sleep_ms(delay_ms);

	__atomic_store_n(&sh->raise_start, now_ns(), __ATOMIC_RELEASE);
	err = lockdown_write("integrity\n", 10);
	__atomic_store_n(&sh->raise_end, now_ns(), __ATOMIC_RELEASE);

	sleep_ms(after_ms);
	if (wait_ops(workers, NR_WORKERS, 1))
		printf("not every worker reached %d operations after the raise\n", MIN_OPS);
	stop_workers(workers, NR_WORKERS);
	waitpid(wt->pid, NULL, 0);

	printf("raise: write 'integrity' to %s: %s, took %.3f ms\n", LOCKDOWN,
	       lk_errname(err), (sh->raise_end - sh->raise_start) / 1e6);
	if (err)
		bad++;
	bad += judge_watcher(wt);
	for (i = 0; i < NR_WORKERS; i++) {
		long d = workers[i].reason ?
			 read_denials(workers[i].reason) - d0[i] : 0;

		/* The watcher's refusal counts under the same reason. */
		if (!strcmp(workers[i].kind, "msr") && wt->err == EPERM)
			d--;

		bad += judge_worker(&workers[i], d);
	}
	level = read_level();
	printf("level after: %s (expected integrity)\n", level_name(level));
	if (level != 1)
		bad++;

	printf("lktest-ops: race");
	for (i = 0; i < NR_WORKERS; i++)
		printf(" %s=%ld", workers[i].kind, workers[i].st->n);
	printf("\n");
	printf("race: %ld violations: %s\n", bad, bad ? "FAIL" : "PASS");
	return bad ? LKTEST_FAIL : LKTEST_MATCH;
}

/* --- writers --------------------------------------------------------- */

struct write_rec {
	int level;		/* 1, 2; -1 for garbage */
	int err;
	int64_t start, end;
};

static const char * const garbage[] = {
	"integrityX", "confidentialit", "\0integrity", "none\n\n",
	"INTEGRITY", "integrity confidentiality",
};

#define NR_GARBAGE (sizeof(garbage) / sizeof(garbage[0]))

static void writer_run(struct write_rec *r, int idx, int go)
{
	char buf[64];
	size_t len;
	int fd;
	char c;

	if (r->level > 0) {
		len = snprintf(buf, sizeof(buf), "%s\n", level_name(r->level));
	} else {
		const char *g = garbage[idx % NR_GARBAGE];

		len = g[0] ? strlen(g) : 1 + strlen(g + 1);
		memcpy(buf, g, len);
	}
	fd = open(LOCKDOWN, O_WRONLY | O_CLOEXEC);
	if (read(go, &c, 1) < 0)
		_exit(1);
	r->start = now_ns();
	if (fd < 0)
		r->err = errno;
	else
		r->err = write(fd, buf, len) == (ssize_t)len ? 0 : errno;
	r->end = now_ns();
	_exit(0);
}

static long judge_writes(struct write_rec *w, int nr, int level0, int *want)
{
	long bad = 0;
	int i, j, top = level0;

	for (i = 0; i < nr; i++)
		if (w[i].level > top)
			top = w[i].level;
	*want = top;

	for (i = 0; i < nr; i++) {
		const char *why = NULL;
		int raised_by_other = level0 >= w[i].level;

		if (w[i].level < 0) {
			if (w[i].err != EINVAL)
				why = "garbage not refused with EINVAL";
			goto show;
		}
		for (j = 0; j < nr; j++)
			if (j != i && !w[j].err && w[j].level >= w[i].level &&
			    w[j].start < w[i].end)
				raised_by_other = 1;
		if (w[i].err == EPERM) {
			if (!raised_by_other)
				why = "EPERM, but nothing had reached that level";
		} else if (w[i].err) {
			why = "unexpected errno";
		} else {
			if (level0 >= w[i].level)
				why = "succeeded, but the level was already that high";
			for (j = 0; j < nr; j++)
				if (j != i && !w[j].err && w[j].level >= w[i].level &&
				    w[j].end < w[i].start)
					why = "succeeded after an equal or higher level was set";
		}
show:
		printf("  write %d '%s': %s, %.3f..%.3f ms%s%s\n", i,
		       w[i].level < 0 ? "garbage" : level_name(w[i].level),
		       lk_errname(w[i].err), (w[i].start - w[0].start) / 1e6,
		       (w[i].end - w[0].start) / 1e6, why ? ": " : "", why ?: "");
		if (why)
			bad++;
	}
	for (i = 1; i <= 2; i++) {
		int wins = 0;

		for (j = 0; j < nr; j++)
			wins += w[j].level == i && !w[j].err;
		if (wins > 1 || (i == top && top > level0 && wins != 1)) {
			printf("  %d writes of '%s' succeeded\n", wins, level_name(i));
			bad++;
		}
	}
	return bad;
}

static int do_writers(int n)
{
	struct worker *msr = &workers[0];
	int nr = 3 * n, i, go[2], msr_go, level0, level, want, err;
	int64_t first_end = INT64_MAX, first_start = INT64_MAX;
	long bad = 0, refused = 0, d0, k, late = 0;
	struct write_rec *w;
	pid_t *pids;

	level0 = read_level();
	if (level0 < 0)
		return lk_setup_failed("read " LOCKDOWN, errno ? errno : EIO);
	d0 = read_denials(msr->reason);
	w = shared_alloc(nr * sizeof(*w));
	pids = calloc(nr, sizeof(*pids));
	if (!w || !pids)
		return lk_setup_failed("allocate", ENOMEM);
	/* The MSR watcher: its own go pipe, released first. */
	err = start_workers(msr, 1, &msr_go);
	if (err)
		return lk_setup_failed("start the MSR watcher", err);
	/* After the fork: the watcher must not hold the writers' go. */
	if (pipe(go))
		return lk_setup_failed("pipe", errno);
	for (i = 0; i < nr; i++) {
		w[i].level = i % 3 == 2 ? -1 : i % 3 + 1;
		pids[i] = fork();
		if (pids[i] < 0)
			return lk_setup_failed("fork", errno);
		if (!pids[i]) {
			close(go[1]);
			close(msr_go);
			writer_run(&w[i], i / 3, go[0]);
		}
	}
	close(go[0]);
	close(msr_go);
	wait_ops(msr, 1, 0);
	close(go[1]);
	for (i = 0; i < nr; i++)
		waitpid(pids[i], NULL, 0);
	for (i = 0; i < nr; i++) {
		if (w[i].level < 0 || (w[i].err && w[i].err != EPERM))
			continue;
		if (w[i].end < first_end)
			first_end = w[i].end;
		if (w[i].start < first_start)
			first_start = w[i].start;
	}
	/* The watcher goes on until it has MIN_OPS after the first return. */
	__atomic_store_n(&sh->raise_end, first_end, __ATOMIC_RELEASE);
	wait_ops(msr, 1, 1);
	stop_workers(msr, 1);

	printf("%d writers from level %s: %d integrity, %d confidentiality, %d garbage\n",
	       nr, level_name(level0), n, n, n);
	bad += judge_writes(w, nr, level0, &want);

	for (k = 0; k < msr->st->n; k++) {
		struct op *o = &msr->st->ops[k];
		const char *why = NULL;

		if (!o->err && o->seen)
			why = "MSR write succeeded after the level read as locked";
		else if (!o->err && (level0 > 0 || o->start > first_end))
			why = "MSR write succeeded after a level write returned";
		else if (o->err && o->err != EPERM)
			why = "MSR write: unexpected errno";
		else if (o->err && level0 == 0 && o->end < first_start)
			why = "MSR write refused before any level write";
		refused += !!o->err;
		late += o->start > first_end;
		if (why && ++bad <= SHOW_MAX)
			printf("  msr op %ld: %s, %+.3f..%+.3f ms from the first level write's return: %s\n",
			       k, lk_errname(o->err), (o->start - first_end) / 1e6,
			       (o->end - first_end) / 1e6, why);
	}
	d0 = read_denials(msr->reason) - d0;
	printf("msr watcher: %ld ops, %.3f..%.3f ms, %ld EPERM; lockdown_denials '%s' +%ld\n",
	       msr->st->n, msr->st->n ? (msr->st->ops[0].start - w[0].start) / 1e6 : 0,
	       msr->st->n ? (msr->st->ops[msr->st->n - 1].end - w[0].start) / 1e6 : 0,
	       refused, msr->reason, d0);
	if (msr->st->setup_err || d0 != refused || late < MIN_OPS ||
	    msr->st->n >= MAX_OPS) {
		printf("  msr watcher: setup %s, %ld ops (%ld after the first level write returned, record of %ld), denials +%ld for %ld refusals\n",
		       lk_errname(msr->st->setup_err), msr->st->n, late, MAX_OPS,
		       d0, refused);
		bad++;
	}

	level = read_level();
	printf("level after: %s (expected %s)\n", level_name(level), level_name(want));
	if (level != want)
		bad++;
	printf("lktest-ops: writers integrity=%d confidentiality=%d garbage=%d msr=%ld\n",
	       n, n, n, msr->st->n);
	printf("writers: %ld violations: %s\n", bad, bad ? "FAIL" : "PASS");
	return bad ? LKTEST_FAIL : LKTEST_MATCH;
}

int main(int argc, char **argv)
{
	long delay_ms = 200, after_ms = 200;
	const char *mode = NULL;
	int i, n = 4;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--delay-ms") && i + 1 < argc)
			delay_ms = strtol(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--after-ms") && i + 1 < argc)
			after_ms = strtol(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--modules") && i + 1 < argc)
			moddir = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else
			mode = argv[i];
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sh = shared_alloc(sizeof(*sh));
	if (!sh)
		return lk_setup_failed("mmap", errno);
	if (mode && !strcmp(mode, "raise"))
		return do_raise(delay_ms, after_ms);
	if (mode && !strcmp(mode, "writers") && n > 0)
		return do_writers(n);
	fprintf(stderr, "usage: %s raise [--delay-ms N] [--after-ms N] [--modules DIR] | writers [-n N]\n",
		argv[0]);
	return LKTEST_FAIL;
}
