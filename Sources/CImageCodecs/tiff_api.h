#ifndef IMGFETCH_TIFF_API_H
#define IMGFETCH_TIFF_API_H
// Private to tiff.c and tiff_samples.c: the libtiff functions imgfetch calls, resolved at first use.
#include "CLibraryLoading.h"
#include <tiffio.h>

// libtiff, as (member of tiff_api, symbol).
#define TIFF_SYMBOLS(X)                                                   \
    X(options_alloc, TIFFOpenOptionsAlloc)                                \
    X(options_free, TIFFOpenOptionsFree)                                  \
    X(options_set_error_handler, TIFFOpenOptionsSetErrorHandlerExtR)      \
    X(options_set_warning_handler, TIFFOpenOptionsSetWarningHandlerExtR)  \
    X(client_open, TIFFClientOpenExt)                                     \
    X(close, TIFFClose)                                                   \
    X(get_field_defaulted, TIFFGetFieldDefaulted)                         \
    X(rgba_image_ok, TIFFRGBAImageOK)                                     \
    X(read_rgba_image_oriented, TIFFReadRGBAImageOriented)                \
    X(is_tiled, TIFFIsTiled)                                              \
    X(number_of_strips, TIFFNumberOfStrips)                               \
    X(read_encoded_strip, TIFFReadEncodedStrip)                           \
    X(read_encoded_tile, TIFFReadEncodedTile)                             \
    X(number_of_tiles, TIFFNumberOfTiles)                                 \
    X(strip_size, TIFFStripSize)                                          \
    X(tile_size, TIFFTileSize)
struct imgfetch_tiff_api {
    TIFF_SYMBOLS(IMGFETCH_POINTER)
};
extern struct imgfetch_tiff_api tiff_api;

/// Whether `read_tiff_samples` takes this page: gray or RGB (with at most one alpha and other extra
/// samples), integer samples of 1 to 32 bits or float samples of 16, 32 or 64 bits, contiguous or
/// in planes, in strips or tiles.
int tiff_samples_readable(TIFF *file);
/// The page's samples scaled to 8 bits into `rgba` (straight alpha), as stored (no orientation);
/// 0 when a strip or tile cannot be decoded (libtiff's message says why).
int read_tiff_samples(TIFF *file, uint8_t *rgba, uint32_t width, uint32_t height);
/// Straight alpha from premultiplied, in place.
void tiff_unpremultiply(uint8_t *rgba, size_t pixels);

#endif
