#ifndef IMGFETCH_CLIBRARYLOADING_H
#define IMGFETCH_CLIBRARYLOADING_H
// Loading a shared library at first use instead of linking it (CCurl, CImageCodecs): dlopen it
// and resolve the functions the wrappers forward to.
#include <stddef.h>

/// Where one function pointer goes, and the library's name for it.
struct imgfetch_symbol {
    void **slot;
    const char *name;
};

/// Opens `soname` and resolves every entry of `symbols`. Returns 1, or 0 with the reason in
/// `error` ("cannot load SONAME (NOTE): why" or "SONAME has no NAME (NOTE)"); `note` says which
/// package provides the library.
int imgfetch_load_library(const char *soname, const char *note, const struct imgfetch_symbol *symbols,
                          size_t count, char *error, size_t error_size);

#endif
