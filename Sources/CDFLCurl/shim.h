#ifndef CDFLCURL_SHIM_H
#define CDFLCURL_SHIM_H

#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic,
 * which Swift cannot call. One typed wrapper per argument kind, so that a
 * wrong kind is a compile error instead of undefined behaviour. */

static inline CURLcode dfl_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode dfl_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode dfl_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode dfl_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode dfl_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
typedef size_t (*dfl_curl_data_callback)(char *data, size_t size, size_t count, void *user_data);

static inline CURLcode dfl_curl_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                                          dfl_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode dfl_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode dfl_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode dfl_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode dfl_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode dfl_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

/* The multi interface's socket and timer callbacks, which drive transfers
 * from the agent's own event loop instead of a thread of curl's. */
typedef int (*dfl_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what,
                                        void *user_data, void *socket_data);
typedef int (*dfl_curl_timer_callback)(CURLM *multi, long timeout_ms, void *user_data);

static inline CURLMcode dfl_curl_multi_setopt_socket_callback(CURLM *multi, dfl_curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

static inline CURLMcode dfl_curl_multi_setopt_timer_callback(CURLM *multi, dfl_curl_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

#endif
