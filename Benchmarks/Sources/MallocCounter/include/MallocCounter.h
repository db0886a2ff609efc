#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdint.h>

/// Number of allocations (malloc, calloc, realloc, aligned) since the last reset.
uint64_t mc_allocations(void);
/// Bytes requested by those allocations.
uint64_t mc_bytes(void);
void mc_reset(void);
/// 1 where allocations are counted (glibc), 0 elsewhere.
int mc_is_counting(void);

#endif
