#include "CCrypto.h"

#include "CLibraryLoading.h"
#include <openssl/evp.h>
#include <pthread.h>

// The libcrypto entry points used, as (member of api, symbol), resolved from the shared library
// at first use (CLibraryLoading.h on the X-macro).
#define CRYPTO_SYMBOLS(X) \
    X(digest, EVP_Digest) \
    X(sha256, EVP_sha256)
static struct {
    CRYPTO_SYMBOLS(IMGFETCH_POINTER)
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load(void) {
    // OpenSSL 3, the libcrypto Debian's libcurl4 (OpenSSL flavour) itself depends on.
    loaded = IMGFETCH_LOAD_LIBRARY(api, CRYPTO_SYMBOLS, "libcrypto.so.3", "Debian package libssl3", load_error,
                                   sizeof load_error);
}

const char *imgfetch_crypto_load(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

int imgfetch_sha256(const void *data, size_t count, unsigned char *digest) {
    unsigned int size = 0;
    return api.digest(data, count, digest, &size, api.sha256(), NULL) == 1 && size == 32;
}
