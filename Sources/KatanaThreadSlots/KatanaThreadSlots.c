#include "KatanaThreadSlots.h"

// Without debug information: valgrind 3.19 (which Benchmarks/instructions-per-item.sh runs) cannot
// read what clang writes for a thread-local variable.
__attribute__((nodebug)) _Thread_local void *_Nullable katana_thread_slots[KATANA_THREAD_SLOT_COUNT];
