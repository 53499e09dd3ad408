/* The floor for reaching the platform: libcurl POSTs to the reference
 * platform over TLS on loopback, on one reused handle or a new handle each
 * time. Prints one line per request: the wall-clock time (ns since the
 * epoch) just before it was started, to pair with the platform's arrival
 * time. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

static long long wall_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void configure(CURL *handle, const char *url, const char *ca, struct curl_slist *headers, const char *body) {
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_CAINFO, ca);
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: curl-post URL CA-FILE COUNT reuse|new\n");
        return 64;
    }
    int count = atoi(argv[3]);
    int reuse = strcmp(argv[4], "reuse") == 0;
    const char *body = "{\"actionToken\":\"dflnat_bench_floor_0000000000\",\"completedAt\":\"2026-01-01T00:00:00.000Z\"}";
    curl_global_init(CURL_GLOBAL_DEFAULT);
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    CURL *handle = curl_easy_init();
    configure(handle, argv[1], argv[2], headers, body);
    /* The first request opens the connection; it is not counted. */
    if (reuse) curl_easy_perform(handle);
    for (int i = 0; i < count; i++) {
        if (!reuse) {
            curl_easy_cleanup(handle);
            handle = curl_easy_init();
            configure(handle, argv[1], argv[2], headers, body);
        }
        printf("%lld\n", wall_ns());
        fflush(stdout);
        curl_easy_perform(handle);
    }
    curl_easy_cleanup(handle);
    curl_slist_free_all(headers);
    return 0;
}
