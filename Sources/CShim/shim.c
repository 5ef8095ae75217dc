// Bodies of the CShim wrappers: each only forwards to the macro or variadic function it is named after.
#define _GNU_SOURCE
#include "CShim.h"
#include "curl_forward.h"
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

gulong faro_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data,
                             GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

void faro_g_object_unref(gpointer object) { g_object_unref(G_OBJECT(object)); }

int faro_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

int faro_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

CURLcode faro_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return faro_curl_setopt_forward_long(handle, option, value);
}

CURLcode faro_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return faro_curl_setopt_forward_pointer(handle, option, value);
}

CURLcode faro_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return faro_curl_setopt_forward_pointer(handle, option, value);
}

CURLcode faro_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return faro_curl_setopt_forward_offset(handle, option, value);
}

CURLcode faro_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, faro_curl_data_callback callback) {
    return faro_curl_setopt_forward_function(handle, option, (void (*)(void))callback);
}

CURLcode faro_curl_easy_setopt_progress_callback(CURL *handle, faro_curl_progress_callback callback) {
    return faro_curl_setopt_forward_function(handle, CURLOPT_XFERINFOFUNCTION, (void (*)(void))callback);
}

CURLcode faro_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return faro_curl_getinfo_forward(handle, info, value);
}

CURLcode faro_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return faro_curl_getinfo_forward(handle, info, (void *)value);
}

int faro_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

int faro_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
