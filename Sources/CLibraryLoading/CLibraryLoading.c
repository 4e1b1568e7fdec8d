#include "CLibraryLoading.h"

#include <dlfcn.h>
#include <stdio.h>

int imgfetch_load_library(const char *soname, const char *note, const struct imgfetch_symbol *symbols,
                          size_t count, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
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
