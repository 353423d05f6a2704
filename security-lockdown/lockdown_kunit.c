// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the kernel lockdown core. They run on a private
 * struct lockdown_state, never on the kernel's own.
 */

#include <kunit/test.h>

#include "lockdown.h"

static const enum lockdown_reason levels[] = {
	LOCKDOWN_NONE, LOCKDOWN_INTEGRITY_MAX, LOCKDOWN_CONFIDENTIALITY_MAX
};

static struct lockdown_state *new_state(struct kunit *test)
{
	struct lockdown_state *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_init(&s->lock);
	s->level = LOCKDOWN_NONE;
	return s;
}

/* Every valid reason at every level: denied exactly from its level up. */
static void lockdown_test_levels_x_reasons(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);
	enum lockdown_reason r;
	int i;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		s->level = levels[i];
		for (r = LOCKDOWN_NONE + 1; r < LOCKDOWN_CONFIDENTIALITY_MAX; r++) {
			bool integrity = r < LOCKDOWN_INTEGRITY_MAX;
			bool denied = i == 2 || (i == 1 && integrity);

			if (!lockdown_reason_valid(r))
				continue;
			KUNIT_EXPECT_EQ_MSG(test, lockdown_check(s, r),
					    denied ? -EPERM : 0,
					    "level %s reason %s",
					    lockdown_reasons[levels[i]],
					    lockdown_reasons[r]);
		}
	}
}

/* The interfaces this project guards, by name. */
static void lockdown_test_guarded_sites(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);
	static const enum lockdown_reason guarded[] = {
		LOCKDOWN_MSR, LOCKDOWN_IOPORT, LOCKDOWN_PCI_ACCESS,
		LOCKDOWN_MODULE_SIGNATURE, LOCKDOWN_DEV_MEM,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(guarded); i++)
		KUNIT_EXPECT_EQ(test, lockdown_check(s, guarded[i]), 0);
	s->level = LOCKDOWN_INTEGRITY_MAX;
	for (i = 0; i < ARRAY_SIZE(guarded); i++)
		KUNIT_EXPECT_EQ(test, lockdown_check(s, guarded[i]), -EPERM);
	KUNIT_EXPECT_EQ(test, lockdown_check(s, LOCKDOWN_KCORE), 0);
	s->level = LOCKDOWN_CONFIDENTIALITY_MAX;
	KUNIT_EXPECT_EQ(test, lockdown_check(s, LOCKDOWN_KCORE), -EPERM);
}

/* Raise only: equal or lower levels are refused and change nothing. */
static void lockdown_test_ratchet(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);

	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "a", LOCKDOWN_NONE, 1), -EPERM);
	KUNIT_EXPECT_EQ(test, s->level, LOCKDOWN_NONE);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "b", LOCKDOWN_INTEGRITY_MAX, 2), 0);
	KUNIT_EXPECT_EQ(test, s->level, LOCKDOWN_INTEGRITY_MAX);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "c", LOCKDOWN_INTEGRITY_MAX, 3), -EPERM);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "d", LOCKDOWN_NONE, 4), -EPERM);
	KUNIT_EXPECT_EQ(test, s->level, LOCKDOWN_INTEGRITY_MAX);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "e", LOCKDOWN_CONFIDENTIALITY_MAX, 5), 0);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "f", LOCKDOWN_INTEGRITY_MAX, 6), -EPERM);
	KUNIT_EXPECT_EQ(test, s->level, LOCKDOWN_CONFIDENTIALITY_MAX);
}

/* A raise may skip a level; origins record who and when, per level. */
static void lockdown_test_origins(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);

	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "command line",
					     LOCKDOWN_CONFIDENTIALITY_MAX, 7), 0);
	KUNIT_EXPECT_NULL(test, s->origin[1].where);
	KUNIT_EXPECT_STREQ(test, s->origin[2].where, "command line");
	KUNIT_EXPECT_EQ(test, s->origin[2].when_ns, 7ULL);
	/* A refused raise leaves the record alone. */
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "securityfs",
					     LOCKDOWN_INTEGRITY_MAX, 8), -EPERM);
	KUNIT_EXPECT_NULL(test, s->origin[1].where);
	KUNIT_EXPECT_STREQ(test, s->origin[2].where, "command line");
	KUNIT_EXPECT_EQ(test, s->origin[2].when_ns, 7ULL);
}

/* Level markers and out-of-range values are not reasons, nor levels. */
static void lockdown_test_invalid(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);
	static const int bad[] = {
		-1, LOCKDOWN_NONE, LOCKDOWN_INTEGRITY_MAX,
		LOCKDOWN_CONFIDENTIALITY_MAX, LOCKDOWN_CONFIDENTIALITY_MAX + 1,
		1000,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_FALSE(test, lockdown_reason_valid(bad[i]));
		KUNIT_EXPECT_EQ(test, lockdown_check(s, bad[i]), -EINVAL);
	}
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "x", LOCKDOWN_MSR, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "x", -1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lockdown_raise(s, "x", 1000, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, s->level, LOCKDOWN_NONE);
	KUNIT_EXPECT_NULL(test, s->origin[0].where);
	KUNIT_EXPECT_EQ(test, lockdown_level_index(LOCKDOWN_NONE), 0);
	KUNIT_EXPECT_EQ(test, lockdown_level_index(LOCKDOWN_INTEGRITY_MAX), 1);
	KUNIT_EXPECT_EQ(test, lockdown_level_index(LOCKDOWN_CONFIDENTIALITY_MAX), 2);
	KUNIT_EXPECT_EQ(test, lockdown_level_index(LOCKDOWN_MSR), -EINVAL);
}

/* Each reason has its own counter. */
static void lockdown_test_counters(struct kunit *test)
{
	struct lockdown_state *s = new_state(test);
	int i;

	for (i = 0; i < 1000; i++)
		lockdown_count(s, LOCKDOWN_MSR);
	lockdown_count(s, LOCKDOWN_KCORE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->denials[LOCKDOWN_MSR]), 1000L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->denials[LOCKDOWN_KCORE]), 1L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->denials[LOCKDOWN_IOPORT]), 0L);
}

static struct kunit_case lockdown_test_cases[] = {
	KUNIT_CASE(lockdown_test_levels_x_reasons),
	KUNIT_CASE(lockdown_test_guarded_sites),
	KUNIT_CASE(lockdown_test_ratchet),
	KUNIT_CASE(lockdown_test_origins),
	KUNIT_CASE(lockdown_test_invalid),
	KUNIT_CASE(lockdown_test_counters),
	{}
};

static struct kunit_suite lockdown_test_suite = {
	.name = "lockdown",
	.test_cases = lockdown_test_cases,
};

kunit_test_suite(lockdown_test_suite);
