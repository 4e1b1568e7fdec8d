#ifndef IMGFETCH_HEIF_H
#define IMGFETCH_HEIF_H
// HEIC: libheif, which brings libde265 (heif.c).
#include "CImageCodecs.h"

const char *imgfetch_heif_load(void);
#define IMGFETCH_HEIF_LIBRARY "libheif.so.1"

/// The primary image, turned by its irot/imir properties; with `rgba` NULL decoded but left
/// in its coded colour space (verification).
int imgfetch_heif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size);

#endif
