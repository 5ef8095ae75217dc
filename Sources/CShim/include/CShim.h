// CShim: typed, prefixed C wrappers for what Swift cannot import from Faro's C libraries.
//
// Swift imports neither function-like macros nor variadic C functions, and it cannot spell some macro constants
// (SQLITE_TRANSIENT is a cast of -1 to a function pointer). Each wrapper here has exactly one C type per
// argument, carries the `faro_` prefix and a one-line reason, and does nothing but forward the call.
#ifndef FARO_CSHIM_H
#define FARO_CSHIM_H

#include <spawn.h>
#include <stdint.h>
#include <gtk/gtk.h>
#include <sqlite3.h>
#include <curl/curl.h>

// --- GObject -------------------------------------------------------------------------------------------------

/// g_signal_connect is a macro over g_signal_connect_data; this is the data form with its destroy notify, so a
/// boxed Swift closure is released by GLib when the handler goes away.
gulong faro_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data,
                             GClosureNotify destroy);

/// G_OBJECT()/g_object_unref on a gpointer: Swift sees GTK types as distinct opaque pointers, this takes any.
void faro_g_object_unref(gpointer object);

// --- SQLite ----------------------------------------------------------------------------------------------------

/// SQLITE_TRANSIENT is `((sqlite3_destructor_type)-1)`, which Swift cannot express: SQLite copies the text.
int faro_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length);

/// The same for blobs: SQLite copies the bytes before the call returns.
int faro_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length);

// --- libcurl ---------------------------------------------------------------------------------------------------

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

/// curl_easy_getinfo is variadic too: the long and string result shapes.
CURLcode faro_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode faro_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

// --- Threads ---------------------------------------------------------------------------------------------------

/// Sets the calling thread's nice value (Linux threads each have their own): gettid() is not exported to Swift
/// and syscall() is variadic. Returns 0, or -1 with errno set.
int faro_set_thread_nice(int nice);

// --- Processes -------------------------------------------------------------------------------------------------

/// posix_spawn_file_actions_addclosefrom_np is a GNU extension Swift's Glibc module does not declare: the child
/// closes every descriptor from `from` up, so it inherits only what the file actions gave it.
int faro_posix_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
