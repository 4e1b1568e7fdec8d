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

// A library's functions are listed once, as an X-macro of (member, symbol) pairs:
//     #define ZLIB_SYMBOLS(X) X(inflate, inflate) X(inflate_end, inflateEnd)
// and both the struct of pointers and the table imgfetch_load_library fills are expanded from
// that list, so no prototype or name is written twice. Each member is typed after the library's
// own declaration (its header must be included), so a call through it is checked as a direct
// call would be:
//     static struct { ZLIB_SYMBOLS(IMGFETCH_POINTER) } zlib_api;
//     IMGFETCH_LOAD_LIBRARY(zlib_api, ZLIB_SYMBOLS, "libz.so.1", "Debian package zlib1g", error, size)
#define IMGFETCH_POINTER(member, symbol) __typeof__(&symbol) member;
#define IMGFETCH_SYMBOL_SLOT(member, symbol) {(void **)&imgfetch_api_->member, #symbol},
/// Evaluates to imgfetch_load_library's result for the functions of `LIST` in the struct `api`.
#define IMGFETCH_LOAD_LIBRARY(api, LIST, soname, note, error, error_size)                             \
    __extension__({                                                                                 \
        __typeof__(&(api)) imgfetch_api_ = &(api);                                                  \
        const struct imgfetch_symbol imgfetch_symbols_[] = {LIST(IMGFETCH_SYMBOL_SLOT)};            \
        imgfetch_load_library(soname, note, imgfetch_symbols_,                                      \
                              sizeof imgfetch_symbols_ / sizeof *imgfetch_symbols_, error, error_size); \
    })

#endif
