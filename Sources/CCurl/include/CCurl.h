#ifndef IMGFETCH_CCURL_H
#define IMGFETCH_CCURL_H
// libcurl, loaded on first use instead of linked: libcurl and the ~30 libraries it pulls in
// (TLS, Kerberos, LDAP, SSH, ...) cost several milliseconds of dynamic linking at every start,
// and a cache hit never touches the network. curl/curl.h supplies the types and constants only.
// The wrappers also give Swift typed forms of libcurl's variadic setopt/getinfo calls.
#include <stddef.h>
#include <curl/curl.h>

/// Loads libcurl once per process (thread-safe). Returns NULL on success, or a message saying
/// why it could not be loaded. Every other function here may be called only after a success.
const char *imgfetch_curl_load(void);

CURLcode imgfetch_curl_global_init(long flags);
const char *imgfetch_curl_easy_strerror(CURLcode code);

CURL *imgfetch_curl_easy_init(void);
void imgfetch_curl_easy_reset(CURL *handle);
void imgfetch_curl_easy_cleanup(CURL *handle);
CURLcode imgfetch_curl_easy_pause(CURL *handle, int bitmask);
CURLHcode imgfetch_curl_easy_header(CURL *handle, const char *name, size_t index, unsigned int origin, int request, struct curl_header **hout);

CURLM *imgfetch_curl_multi_init(void);
CURLMcode imgfetch_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode imgfetch_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode imgfetch_curl_multi_perform(CURLM *multi, int *running);
CURLMcode imgfetch_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *numfds);
CURLMcode imgfetch_curl_multi_wakeup(CURLM *multi);
CURLMcode imgfetch_curl_multi_timeout(CURLM *multi, long *timeout_ms);
CURLMsg *imgfetch_curl_multi_info_read(CURLM *multi, int *left);

// A share object: the cookie store every transfer of one downloader uses.
CURLSH *imgfetch_curl_share_init(void);
CURLSHcode imgfetch_curl_share_share(CURLSH *share, curl_lock_data data);
void imgfetch_curl_share_cleanup(CURLSH *share);

struct curl_slist *imgfetch_curl_slist_append(struct curl_slist *list, const char *line);
void imgfetch_curl_slist_free_all(struct curl_slist *list);

CURLcode imgfetch_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode imgfetch_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode imgfetch_easy_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode imgfetch_easy_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode imgfetch_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode imgfetch_easy_setopt_write_function(CURL *h, curl_write_callback f);
CURLcode imgfetch_easy_setopt_header_function(CURL *h, curl_write_callback f);
CURLcode imgfetch_easy_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f);

CURLcode imgfetch_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode imgfetch_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode imgfetch_easy_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode imgfetch_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v);
CURLcode imgfetch_easy_getinfo_slist(CURL *h, CURLINFO i, struct curl_slist **v);

CURLMcode imgfetch_multi_setopt_long(CURLM *m, CURLMoption o, long v);

#endif
