// Counts heap allocations by interposing the allocator (glibc only): the executable's own
// malloc & co. take precedence over libc's and forward to glibc's internal entry points.
#include "MallocCounter.h"
#include <stdatomic.h>
#include <stddef.h>

static _Atomic uint64_t allocations = 0;
static _Atomic uint64_t bytes = 0;

uint64_t mc_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
uint64_t mc_bytes(void) { return atomic_load_explicit(&bytes, memory_order_relaxed); }
void mc_reset(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&bytes, 0, memory_order_relaxed);
}

#if defined(__linux__) && defined(__GLIBC__)
int mc_is_counting(void) { return 1; }

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static inline void count(size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, size, memory_order_relaxed);
}

void *malloc(size_t size) { count(size); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(n * size); return __libc_calloc(n, size); }
void *realloc(void *pointer, size_t size) { count(size); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count(size); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(size); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12; /* ENOMEM */
    count(size);
    *out = pointer;
    return 0;
}
#else
int mc_is_counting(void) { return 0; }
#endif
