// CShim.System: Linux calls Swift's Glibc module does not offer. Needs only libc headers.
#ifndef FARO_SHIM_SYSTEM_H
#define FARO_SHIM_SYSTEM_H

#include <spawn.h>

/// Sets the calling thread's nice value (Linux threads each have their own): gettid() is not exported to Swift
/// and syscall() is variadic. Returns 0, or -1 with errno set.
int faro_set_thread_nice(int nice);

/// posix_spawn_file_actions_addclosefrom_np is a GNU extension Swift's Glibc module does not declare: the child
/// closes every descriptor from `from` up, so it inherits only what the file actions gave it.
int faro_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// Hands every whole free page of every malloc arena back to the system (`malloc_trim(0)`, which Swift's Glibc
/// module does not declare).
void faro_release_free_heap(void);

/// Makes every thread allocate from the main heap (`mallopt(M_ARENA_MAX, 1)`): called before the process starts
/// its threads.
void faro_malloc_one_arena(void);

#endif
