#ifndef C_MALLOC_STATS_H
#define C_MALLOC_STATS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not had back (glibc: mallinfo2 uordblks + hblkhd);
/// -1 where the allocator cannot say.
long long katana_bench_heap_in_use(void);

/// Asks the C allocator to return free memory to the kernel (glibc: malloc_trim(0)); no-op elsewhere.
void katana_bench_malloc_trim(void);

#endif
