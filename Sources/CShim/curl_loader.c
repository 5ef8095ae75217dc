// libcurl, loaded on first use instead of at launch.
//
// libcurl brings its TLS, SSH, LDAP and Kerberos libraries with it: linked normally, the window would map and
// relocate about twenty libraries (some 6 MB resident, ~14 ms) before its first frame, for transfers that start
// later, if at all. Faro therefore does not link libcurl: each curl function it calls is defined here with the
// header's own prototype and forwards to the real one, found with dlsym in libcurl.so.4 opened (once, thread-safe)
// by the first call. The definitions are hidden, so only Faro's code binds to them, never libcurl itself.
// When the library cannot be opened, calls fail the way libcurl reports failure (NULL handles, CURLE_FAILED_INIT)
// and curl_easy_strerror names the reason.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)
#include <curl/curl.h>
#pragma GCC visibility pop

#include "faro_curl.h"
#include "curl_forward.h"

static void *library;
static char load_error[512];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

// RTLD_DEEPBIND: libcurl and the twenty-odd libraries it brings resolve their symbols among themselves first. In
// a process that already holds GTK's ~85 libraries, every one of their relocations would otherwise be looked up
// through all of those before reaching its own dependencies: that halves the load (about 10 ms to 5 ms here).
// They are plain C libraries that interpose nothing. Sanitizer runtimes refuse deep binding, so a sanitized
// build (the fuzzers) loads libcurl the ordinary way.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FARO_CURL_DEEPBIND 0
#endif
#endif
#ifndef FARO_CURL_DEEPBIND
#define FARO_CURL_DEEPBIND RTLD_DEEPBIND
#endif

static void load_library(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL | FARO_CURL_DEEPBIND);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl could not be loaded: %s", dlerror());
    }
}

static void *curl_symbol(const char *name) {
    pthread_once(&load_once, load_library);
    return library != NULL ? dlsym(library, name) : NULL;
}

// `real_NAME()`: libcurl's NAME, looked up once and kept (NULL when libcurl is missing).
#define FARO_CURL_SYMBOL(name)                                                             \
    static __typeof__(&name) real_##name(void) {                                           \
        static __typeof__(&name) cached;                                                   \
        __typeof__(&name) found = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);              \
        if (found == NULL) {                                                               \
            found = (__typeof__(&name))curl_symbol(#name);                                 \
            __atomic_store_n(&cached, found, __ATOMIC_RELEASE);                            \
        }                                                                                  \
        return found;                                                                      \
    }

FARO_CURL_SYMBOL(curl_global_init)
FARO_CURL_SYMBOL(curl_easy_init)
FARO_CURL_SYMBOL(curl_easy_cleanup)
FARO_CURL_SYMBOL(curl_easy_perform)
FARO_CURL_SYMBOL(curl_easy_strerror)
FARO_CURL_SYMBOL(curl_easy_setopt)
FARO_CURL_SYMBOL(curl_easy_getinfo)
FARO_CURL_SYMBOL(curl_slist_append)
FARO_CURL_SYMBOL(curl_slist_free_all)
FARO_CURL_SYMBOL(curl_multi_init)
FARO_CURL_SYMBOL(curl_multi_cleanup)
FARO_CURL_SYMBOL(curl_multi_add_handle)
FARO_CURL_SYMBOL(curl_multi_remove_handle)
FARO_CURL_SYMBOL(curl_multi_perform)
FARO_CURL_SYMBOL(curl_multi_poll)
FARO_CURL_SYMBOL(curl_multi_info_read)

CURLcode curl_global_init(long flags) {
    return real_curl_global_init() ? real_curl_global_init()(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init(void) { return real_curl_easy_init() ? real_curl_easy_init()() : NULL; }

void curl_easy_cleanup(CURL *handle) {
    if (real_curl_easy_cleanup()) real_curl_easy_cleanup()(handle);
}

CURLcode curl_easy_perform(CURL *handle) {
    return real_curl_easy_perform() ? real_curl_easy_perform()(handle) : CURLE_FAILED_INIT;
}

const char *curl_easy_strerror(CURLcode code) {
    return real_curl_easy_strerror() ? real_curl_easy_strerror()(code) : load_error;
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return real_curl_slist_append() ? real_curl_slist_append()(list, text) : NULL;
}

void curl_slist_free_all(struct curl_slist *list) {
    if (real_curl_slist_free_all()) real_curl_slist_free_all()(list);
}

CURLM *curl_multi_init(void) { return real_curl_multi_init() ? real_curl_multi_init()() : NULL; }

CURLMcode curl_multi_cleanup(CURLM *multi) {
    return real_curl_multi_cleanup() ? real_curl_multi_cleanup()(multi) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return real_curl_multi_add_handle() ? real_curl_multi_add_handle()(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return real_curl_multi_remove_handle() ? real_curl_multi_remove_handle()(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return real_curl_multi_perform() ? real_curl_multi_perform()(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready) {
    return real_curl_multi_poll() ? real_curl_multi_poll()(multi, extra, count, timeout_ms, ready)
                                  : CURLM_INTERNAL_ERROR;
}

CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
    return real_curl_multi_info_read() ? real_curl_multi_info_read()(multi, queued) : NULL;
}

// The variadic pair, reached only through CShim's typed wrappers (shim.c): one argument of a known type each.
CURLcode faro_curl_setopt_forward_long(CURL *handle, CURLoption option, long value) {
    return real_curl_easy_setopt() ? real_curl_easy_setopt()(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_pointer(CURL *handle, CURLoption option, const void *value) {
    return real_curl_easy_setopt() ? real_curl_easy_setopt()(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_function(CURL *handle, CURLoption option, void (*value)(void)) {
    return real_curl_easy_setopt() ? real_curl_easy_setopt()(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return real_curl_easy_setopt() ? real_curl_easy_setopt()(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_getinfo_forward(CURL *handle, CURLINFO info, void *result) {
    return real_curl_easy_getinfo() ? real_curl_easy_getinfo()(handle, info, result) : CURLE_FAILED_INIT;
}
