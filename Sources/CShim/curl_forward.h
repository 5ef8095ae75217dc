// The two variadic libcurl calls, one argument type each, forwarded to libcurl once it is loaded
// (curl_loader.c). Private to CShim: Swift uses the typed faro_curl_* wrappers of faro_curl.h.
#ifndef FARO_CURL_FORWARD_H
#define FARO_CURL_FORWARD_H

#include <curl/curl.h>

CURLcode faro_curl_setopt_forward_long(CURL *handle, CURLoption option, long value);
CURLcode faro_curl_setopt_forward_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode faro_curl_setopt_forward_function(CURL *handle, CURLoption option, void (*value)(void));
CURLcode faro_curl_setopt_forward_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode faro_curl_getinfo_forward(CURL *handle, CURLINFO info, void *result);

#endif
