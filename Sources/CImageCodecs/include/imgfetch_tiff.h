#ifndef IMGFETCH_TIFF_H
#define IMGFETCH_TIFF_H
// TIFF: libtiff (tiff.c, tiff_samples.c).
#include "CImageCodecs.h"

const char *imgfetch_tiff_load(void);
#define IMGFETCH_TIFF_LIBRARY "libtiff.so.6"

/// The first page, as stored (not turned by its Orientation tag), with straight alpha.
int imgfetch_tiff_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size);
/// Decodes every strip or tile of the first page through one reused chunk buffer, keeping none:
/// verification in memory bounded by one strip or tile.
int imgfetch_tiff_verify(const uint8_t *data, size_t size, char *message, size_t message_size);

#endif
