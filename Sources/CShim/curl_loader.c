// libcurl, loaded on first use instead of at launch.
//
// libcurl brings its TLS, SSH, LDAP and Kerberos libraries with it: linked normally, the window would map and
// relocate about twenty libraries before its first frame, for transfers that start later, if at all. Faro therefore
// does not link libcurl: each curl function it calls is defined here with the header's own prototype and forwards
// to the real one, found with dlsym in libcurl.so.4, which the first handle opens (faro_curl_load below) and which
// then stays open. The definitions are hidden, so only Faro's code binds to them, never libcurl itself. When the
// library cannot be opened, faro_curl_load says no and curl_easy_strerror names the reason.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#pragma GCC visibility push(hidden)
#include <curl/curl.h>
#pragma GCC visibility pop

#include "faro_curl.h"
#include "curl_forward.h"

// Written once, under `state_lock`, by the first faro_curl_load that succeeds; read by the forwarders below only
// after a faro_curl_load returned true, so it never changes under them.
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static void *library;
static char load_error[512];

static struct {
    __typeof__(&curl_global_init) curl_global_init;
    __typeof__(&curl_global_cleanup) curl_global_cleanup;
    __typeof__(&curl_easy_init) curl_easy_init;
    __typeof__(&curl_easy_cleanup) curl_easy_cleanup;
    __typeof__(&curl_easy_perform) curl_easy_perform;
    __typeof__(&curl_easy_strerror) curl_easy_strerror;
    __typeof__(&curl_easy_setopt) curl_easy_setopt;
    __typeof__(&curl_easy_getinfo) curl_easy_getinfo;
    __typeof__(&curl_slist_append) curl_slist_append;
    __typeof__(&curl_slist_free_all) curl_slist_free_all;
    __typeof__(&curl_multi_init) curl_multi_init;
    __typeof__(&curl_multi_cleanup) curl_multi_cleanup;
    __typeof__(&curl_multi_add_handle) curl_multi_add_handle;
    __typeof__(&curl_multi_remove_handle) curl_multi_remove_handle;
    __typeof__(&curl_multi_perform) curl_multi_perform;
    __typeof__(&curl_multi_poll) curl_multi_poll;
    __typeof__(&curl_multi_info_read) curl_multi_info_read;
} table;

// Under state_lock. Opens libcurl, finds every function and starts it; on failure nothing stays open.
static bool load_locked(void) {
    void *opened = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (opened == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl could not be loaded: %s", dlerror());
        return false;
    }
#define FARO_CURL_FIND(name)                                                                            \
    table.name = (__typeof__(table.name))dlsym(opened, #name);                                        \
    if (table.name == NULL) {                                                                           \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (libcurl 7.84 or later is needed)", #name); \
        goto missing;                                                                                   \
    }
    FARO_CURL_FIND(curl_global_init)
    FARO_CURL_FIND(curl_global_cleanup)
    FARO_CURL_FIND(curl_easy_init)
    FARO_CURL_FIND(curl_easy_cleanup)
    FARO_CURL_FIND(curl_easy_perform)
    FARO_CURL_FIND(curl_easy_strerror)
    FARO_CURL_FIND(curl_easy_setopt)
    FARO_CURL_FIND(curl_easy_getinfo)
    FARO_CURL_FIND(curl_slist_append)
    FARO_CURL_FIND(curl_slist_free_all)
    FARO_CURL_FIND(curl_multi_init)
    FARO_CURL_FIND(curl_multi_cleanup)
    FARO_CURL_FIND(curl_multi_add_handle)
    FARO_CURL_FIND(curl_multi_remove_handle)
    FARO_CURL_FIND(curl_multi_perform)
    FARO_CURL_FIND(curl_multi_poll)
    FARO_CURL_FIND(curl_multi_info_read)
#undef FARO_CURL_FIND
    CURLcode started = table.curl_global_init(CURL_GLOBAL_DEFAULT);
    if (started != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not start: %s", table.curl_easy_strerror(started));
        goto missing;
    }
    library = opened;
    load_error[0] = 0;
    return true;
missing:
    memset(&table, 0, sizeof table);
    dlclose(opened);
    return false;
}

bool faro_curl_load(void) {
    pthread_mutex_lock(&state_lock);
    bool open = library != NULL || load_locked();
    pthread_mutex_unlock(&state_lock);
    return open;
}

bool faro_curl_is_loaded(void) {
    pthread_mutex_lock(&state_lock);
    bool open = library != NULL;
    pthread_mutex_unlock(&state_lock);
    return open;
}

CURL *curl_easy_init(void) { return table.curl_easy_init ? table.curl_easy_init() : NULL; }

void curl_easy_cleanup(CURL *handle) {
    if (table.curl_easy_cleanup) table.curl_easy_cleanup(handle);
}

CURLcode curl_easy_perform(CURL *handle) {
    return table.curl_easy_perform ? table.curl_easy_perform(handle) : CURLE_FAILED_INIT;
}

// Copied, under the lock, into a buffer of the calling thread, so that a failure to load is reported the same way.
const char *curl_easy_strerror(CURLcode code) {
    static __thread char text[512];
    pthread_mutex_lock(&state_lock);
    const char *source = table.curl_easy_strerror != NULL ? table.curl_easy_strerror(code)
                         : load_error[0] != 0            ? load_error
                                                         : "libcurl is not loaded";
    snprintf(text, sizeof text, "%s", source);
    pthread_mutex_unlock(&state_lock);
    return text;
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return table.curl_slist_append ? table.curl_slist_append(list, text) : NULL;
}

void curl_slist_free_all(struct curl_slist *list) {
    if (table.curl_slist_free_all) table.curl_slist_free_all(list);
}

CURLM *curl_multi_init(void) { return table.curl_multi_init ? table.curl_multi_init() : NULL; }

CURLMcode curl_multi_cleanup(CURLM *multi) {
    return table.curl_multi_cleanup ? table.curl_multi_cleanup(multi) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return table.curl_multi_add_handle ? table.curl_multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return table.curl_multi_remove_handle ? table.curl_multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return table.curl_multi_perform ? table.curl_multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready) {
    return table.curl_multi_poll ? table.curl_multi_poll(multi, extra, count, timeout_ms, ready)
                                  : CURLM_INTERNAL_ERROR;
}

CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
    return table.curl_multi_info_read ? table.curl_multi_info_read(multi, queued) : NULL;
}

// The variadic pair, reached only through CShim's typed wrappers (curl_shim.c): one argument of a known type each.
CURLcode faro_curl_setopt_forward_long(CURL *handle, CURLoption option, long value) {
    return table.curl_easy_setopt ? table.curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_pointer(CURL *handle, CURLoption option, const void *value) {
    return table.curl_easy_setopt ? table.curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_function(CURL *handle, CURLoption option, void (*value)(void)) {
    return table.curl_easy_setopt ? table.curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_setopt_forward_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return table.curl_easy_setopt ? table.curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode faro_curl_getinfo_forward(CURL *handle, CURLINFO info, void *result) {
    return table.curl_easy_getinfo ? table.curl_easy_getinfo(handle, info, result) : CURLE_FAILED_INIT;
}
