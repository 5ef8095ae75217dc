// CShim.Curl: typed forms of libcurl's variadic calls. Needs only curl/curl.h (libcurl itself is opened on first
// use, see curl_loader.c).
#ifndef FARO_SHIM_CURL_H
#define FARO_SHIM_CURL_H

#include <curl/curl.h>

#include <stdbool.h>

/// libcurl is open while a lease is held (curl_loader.c). Every easy or multi handle takes one before it is made and
/// gives it back after it is cleaned up. False when libcurl cannot be opened or started (curl_easy_strerror says
/// why); libcurl's functions may be called only while holding a lease.
bool faro_curl_acquire(void);
void faro_curl_release(void);
/// How long libcurl stays open with no lease before it is closed (default 60 s; negative: never closed).
void faro_curl_set_idle_unload(double seconds);
/// Whether libcurl is open now, and how many times it was opened so far.
bool faro_curl_is_loaded(void);
unsigned long faro_curl_load_count(void);

/// curl_easy_setopt is variadic: one typed wrapper per argument shape (long, pointer/string, off_t, callback).
CURLcode faro_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode faro_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode faro_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode faro_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
typedef size_t (*faro_curl_data_callback)(char *data, size_t size, size_t count, void *user);
CURLcode faro_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, faro_curl_data_callback callback);
typedef int (*faro_curl_progress_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                           curl_off_t ulnow);
CURLcode faro_curl_easy_setopt_progress_callback(CURL *handle, faro_curl_progress_callback callback);

/// curl_easy_getinfo is variadic too: the long, string and curl_off_t result shapes.
CURLcode faro_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode faro_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode faro_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
