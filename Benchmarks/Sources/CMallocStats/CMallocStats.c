#include "CMallocStats.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc systems

#if defined(__GLIBC__)
#include <malloc.h>

long long katana_bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}

void katana_bench_malloc_trim(void) {
    malloc_trim(0);
}
#else
long long katana_bench_heap_in_use(void) {
    return -1;
}

void katana_bench_malloc_trim(void) {}
#endif
