// Bodies of CShim.Curl: one argument type per wrapper, forwarded to libcurl once it is loaded (curl_loader.c).
#include "faro_curl.h"
#include "curl_forward.h"

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

CURLcode faro_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return faro_curl_getinfo_forward(handle, info, value);
}
