#include "CCrypto.h"

#include "CLibraryLoading.h"
#include <pthread.h>

// The two libcrypto entry points used, with OpenSSL's opaque types as void.
static struct {
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const void *, void *);
    const void *(*sha256)(void);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load(void) {
    const struct imgfetch_symbol symbols[] = {
        {(void **)&api.digest, "EVP_Digest"},
        {(void **)&api.sha256, "EVP_sha256"},
    };
    // OpenSSL 3, the libcrypto Debian's libcurl4 (OpenSSL flavour) itself depends on.
    loaded = imgfetch_load_library("libcrypto.so.3", "Debian package libssl3", symbols,
                                   sizeof symbols / sizeof *symbols, load_error, sizeof load_error);
}

const char *imgfetch_crypto_load(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

int imgfetch_sha256(const void *data, size_t count, unsigned char *digest) {
    unsigned int size = 0;
    return api.digest(data, count, digest, &size, api.sha256(), NULL) == 1 && size == 32;
}
