/*
 * testutil.h - the unit tests' assertion helpers.
 *
 * CHECK() records a failure with file:line and carries on, so one run
 * shows every broken case; main() returns test_finish(), which is 1 if
 * anything failed.  Random tests print their seed ("Seed = N") so a
 * failure can be replayed with TEST_SEED=N.
 */
#ifndef NDD_TESTUTIL_H
#define NDD_TESTUTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

static int test_failures, test_checks;

#define CHECK(cond)                                                          \
	do {                                                                 \
		test_checks++;                                               \
		if (!(cond)) {                                               \
			test_failures++;                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                            \
		}                                                            \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                      \
	do {                                                                    \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                 \
		test_checks++;                                                  \
		if (a_ != b_) {                                                 \
			test_failures++;                                        \
			fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64       \
					" != %" PRIu64 "\n",                    \
				__FILE__, __LINE__, #a, #b, a_, b_);            \
		}                                                               \
	} while (0)

static inline uint64_t test_seed(uint64_t dflt)
{
	const char *s = getenv("TEST_SEED");
	uint64_t seed = s ? strtoull(s, NULL, 10) : dflt;
	printf("Seed = %" PRIu64 "\n", seed);
	return seed;
}

/* splitmix64: a small, good, seedable generator for tests. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Threads for the parallel regions that follow (results must not depend
 * on it); a no-op in builds without OpenMP. */
static inline void test_set_threads(int n)
{
#ifdef _OPENMP
	omp_set_num_threads(n);
#else
	(void)n;
#endif
}

static inline int test_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? 1 : 0;
}

#endif
