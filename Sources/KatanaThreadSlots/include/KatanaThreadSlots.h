#ifndef KATANA_THREAD_SLOTS_H
#define KATANA_THREAD_SLOTS_H

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Katana's per-thread slots: one pointer per slot and thread, null on every new thread.
///
/// A C thread-local array, because Swift has no thread-local storage of its own: reading a slot
/// is one load from the thread's storage, where a pthread key costs a call and a search of the
/// thread's key table (docs/PERFORMANCE.md, "Updaters: 10 pass-through interceptors"). Katana's
/// `ThreadLocal` is the only user; the numbering of the slots is `ThreadSlot`'s.

/// How many slots there are (`ThreadSlot`'s cases must stay below it).
#define KATANA_THREAD_SLOT_COUNT 8

/// The slots, defined once in KatanaThreadSlots.c.
extern _Thread_local void *_Nullable katana_thread_slots[KATANA_THREAD_SLOT_COUNT];

/// The calling thread's slots (KATANA_THREAD_SLOT_COUNT of them).
static inline void *_Nullable *_Nonnull katana_current_thread_slots(void) {
    return katana_thread_slots;
}

/// The calling thread's kernel id on Linux (what `/proc/self/task/<id>` names), 0 elsewhere: one
/// system call that returns it, where reading the link `/proc/thread-self` walks `/proc` and gives
/// a path to parse. (Inline here: compiled in KatanaThreadSlots.c with debug information, it made
/// valgrind 3.19 give up on the binary, as the slots did.)
#if defined(__linux__)
static inline int katana_current_thread_id(void) {
    return (int)syscall(SYS_gettid);
}
#else
static inline int katana_current_thread_id(void) {
    return 0;
}
#endif

#endif
