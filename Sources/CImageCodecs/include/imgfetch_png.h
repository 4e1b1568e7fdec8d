#ifndef IMGFETCH_PNG_H
#define IMGFETCH_PNG_H
// PNG: libpng's simplified API, which decodes (png.c), and imgfetch's own reader of plain
// 8-bit image data for the transforms (png_rows.c).
#include "CImageCodecs.h"
#include <png.h>

const char *imgfetch_png_load(void);
#define IMGFETCH_PNG_LIBRARY "libpng16.so.16"

// libpng's simplified API. Its format constants and size helpers are compound macros Swift
// cannot import, so they are re-exported here.
int imgfetch_png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size);
int imgfetch_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap);
void imgfetch_png_image_free(png_imagep image);
static const png_uint_32 imgfetch_png_format_rgba = PNG_FORMAT_RGBA;

/// The image data of an 8-bit, non-interlaced PNG of `channels` samples a pixel (1 gray, 2 gray
/// and alpha, 3 RGB, 4 RGBA), read by imgfetch itself (png_rows.c) into `rgba`: `width` ×
/// `height` × 4 bytes of RGBA8, in a buffer of imgfetch_png_rows_capacity bytes (the inflated
/// rows wait at its end). `idat_offsets` are where its `idat_count` IDAT chunks start (their
/// length field), in file order, each whole within `file`. Needs imgfetch_deflate_load. Returns
/// IMGFETCH_CODEC_DECODED, or IMGFETCH_CODEC_FAILED for anything else (a wrong CRC, a stream that
/// is damaged, ends early or runs on, an unknown filter): libpng should then read the file, to
/// decode what this reader does not take or to say what is wrong.
const char *imgfetch_deflate_load(void);  // libdeflate, in png_rows.c
size_t imgfetch_png_rows_capacity(uint32_t width, uint32_t height, int channels);
int imgfetch_png_decode_rows(const uint8_t *file, const size_t *idat_offsets, size_t idat_count, uint32_t width,
                             uint32_t height, int channels, uint8_t *rgba);

#endif
