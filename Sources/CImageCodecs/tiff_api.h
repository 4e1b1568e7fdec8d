#ifndef IMGFETCH_TIFF_API_H
#define IMGFETCH_TIFF_API_H
// Private to tiff.c and tiff_samples.c: the libtiff functions imgfetch calls, resolved at first use.
#include <tiffio.h>

struct imgfetch_tiff_api {
    TIFFOpenOptions *(*options_alloc)(void);
    void (*options_free)(TIFFOpenOptions *);
    void (*options_set_error_handler)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    void (*options_set_warning_handler)(TIFFOpenOptions *, TIFFErrorHandlerExtR, void *);
    TIFF *(*client_open)(const char *, const char *, thandle_t, TIFFReadWriteProc, TIFFReadWriteProc, TIFFSeekProc,
                         TIFFCloseProc, TIFFSizeProc, TIFFMapFileProc, TIFFUnmapFileProc, TIFFOpenOptions *);
    void (*close)(TIFF *);
    int (*get_field_defaulted)(TIFF *, uint32_t, ...);
    int (*rgba_image_ok)(TIFF *, char[1024]);
    int (*read_rgba_image_oriented)(TIFF *, uint32_t, uint32_t, uint32_t *, int, int);
    int (*is_tiled)(TIFF *);
    uint32_t (*number_of_strips)(TIFF *);
    tmsize_t (*read_encoded_strip)(TIFF *, uint32_t, void *, tmsize_t);
    tmsize_t (*read_encoded_tile)(TIFF *, uint32_t, void *, tmsize_t);
    uint32_t (*number_of_tiles)(TIFF *);
    tmsize_t (*strip_size)(TIFF *);
    tmsize_t (*tile_size)(TIFF *);
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
