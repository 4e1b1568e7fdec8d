#include "CCurl.h"

#include "CLibraryLoading.h"
#include <locale.h>
#include <pthread.h>
#include <string.h>

// The libcurl entry points imgfetch uses, as (member of api, symbol), resolved from the shared
// library at first use (CLibraryLoading.h on the X-macro).
#define CURL_SYMBOLS(X)                           \
    X(global_init, curl_global_init)              \
    X(easy_strerror, curl_easy_strerror)          \
    X(easy_init, curl_easy_init)                  \
    X(easy_reset, curl_easy_reset)                \
    X(easy_cleanup, curl_easy_cleanup)            \
    X(easy_pause, curl_easy_pause)                \
    X(easy_setopt, curl_easy_setopt)              \
    X(easy_getinfo, curl_easy_getinfo)            \
    X(easy_header, curl_easy_header)              \
    X(multi_init, curl_multi_init)                \
    X(multi_add_handle, curl_multi_add_handle)    \
    X(multi_remove_handle, curl_multi_remove_handle) \
    X(multi_perform, curl_multi_perform)          \
    X(multi_poll, curl_multi_poll)                \
    X(multi_timeout, curl_multi_timeout)          \
    X(multi_wakeup, curl_multi_wakeup)            \
    X(multi_info_read, curl_multi_info_read)      \
    X(multi_setopt, curl_multi_setopt)            \
    X(slist_append, curl_slist_append)            \
    X(slist_free_all, curl_slist_free_all)        \
    X(share_init, curl_share_init)                \
    X(share_setopt, curl_share_setopt)            \
    X(share_cleanup, curl_share_cleanup)
static struct {
    CURL_SYMBOLS(IMGFETCH_POINTER)
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load(void) {
    // The soname of Debian's libcurl4 (OpenSSL flavour), the package scripts/deps installs;
    // curl_easy_header needs 7.84.
    loaded = IMGFETCH_LOAD_LIBRARY(api, CURL_SYMBOLS, "libcurl.so.4", "Debian package libcurl4, libcurl 7.84 or later",
                                   load_error, sizeof load_error);
    // libcurl converts an internationalised host name with libidn2's idn2_lookup_ul, which reads
    // the name in the locale's character set; imgfetch hands it UTF-8, and a process starts in
    // the "C" locale, where every non-ASCII byte is invalid ("URL using bad/illegal format").
    // Character classification only (LC_CTYPE), only if no locale was chosen, and here, once,
    // before any transfer: only a fetch pays for it.
    const char *current = setlocale(LC_CTYPE, NULL);
    if (loaded && current && (strcmp(current, "C") == 0 || strcmp(current, "POSIX") == 0)) {
        setlocale(LC_CTYPE, "C.UTF-8");
    }
}

const char *imgfetch_curl_load(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

CURLcode imgfetch_curl_global_init(long flags) { return api.global_init(flags); }
const char *imgfetch_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURL *imgfetch_curl_easy_init(void) { return api.easy_init(); }
void imgfetch_curl_easy_reset(CURL *handle) { api.easy_reset(handle); }
void imgfetch_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode imgfetch_curl_easy_pause(CURL *handle, int bitmask) { return api.easy_pause(handle, bitmask); }
CURLHcode imgfetch_curl_easy_header(CURL *handle, const char *name, size_t index, unsigned int origin, int request, struct curl_header **hout) {
    return api.easy_header(handle, name, index, origin, request, hout);
}

CURLM *imgfetch_curl_multi_init(void) { return api.multi_init(); }
CURLMcode imgfetch_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode imgfetch_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode imgfetch_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode imgfetch_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *numfds) {
    return api.multi_poll(multi, extra, count, timeout_ms, numfds);
}
CURLMcode imgfetch_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMcode imgfetch_curl_multi_timeout(CURLM *multi, long *timeout_ms) { return api.multi_timeout(multi, timeout_ms); }
CURLMsg *imgfetch_curl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }

CURLSH *imgfetch_curl_share_init(void) { return api.share_init(); }
CURLSHcode imgfetch_curl_share_share(CURLSH *share, curl_lock_data data) { return api.share_setopt(share, CURLSHOPT_SHARE, data); }
void imgfetch_curl_share_cleanup(CURLSH *share) { api.share_cleanup(share); }

struct curl_slist *imgfetch_curl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void imgfetch_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode imgfetch_easy_setopt_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode imgfetch_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return api.easy_setopt(h, o, v); }
CURLcode imgfetch_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return api.easy_setopt(h, o, v); }
CURLcode imgfetch_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return api.easy_setopt(h, o, v); }
CURLcode imgfetch_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return api.easy_setopt(h, o, v); }
CURLcode imgfetch_easy_setopt_write_function(CURL *h, curl_write_callback f) { return api.easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode imgfetch_easy_setopt_header_function(CURL *h, curl_write_callback f) { return api.easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
CURLcode imgfetch_easy_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f) { return api.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }

CURLcode imgfetch_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return api.easy_getinfo(h, i, v); }
CURLcode imgfetch_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return api.easy_getinfo(h, i, v); }
CURLcode imgfetch_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return api.easy_getinfo(h, i, v); }
CURLcode imgfetch_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return api.easy_getinfo(h, i, v); }
CURLcode imgfetch_easy_getinfo_slist(CURL *h, CURLINFO i, struct curl_slist **v) { return api.easy_getinfo(h, i, v); }

CURLMcode imgfetch_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return api.multi_setopt(m, o, v); }
