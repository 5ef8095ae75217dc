// Bodies of CShim.System.
#define _GNU_SOURCE
#include "faro_system.h"
#include <sys/resource.h>
#include <sys/syscall.h>
#include <malloc.h>
#include <unistd.h>

int faro_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

int faro_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

void faro_release_free_heap(void) {
    malloc_trim(0);
}

void faro_malloc_one_arena(void) {
    mallopt(M_ARENA_MAX, 1);
}
