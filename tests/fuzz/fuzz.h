/*
 * fuzz.h - what every libFuzzer target in tests/fuzz/ shares: silence the
 * library's warnings (a fuzzer makes millions) and keep results alive so
 * the compiler cannot drop the reads that check the bounds.
 */
#ifndef NDD_FUZZ_H
#define NDD_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_quiet(void)
{
	log_set_level(LOG_SILENT);
}

static inline void fuzz_sink(uint64_t v)
{
	__asm__ volatile("" : : "r"(v) : "memory");
}

#endif
