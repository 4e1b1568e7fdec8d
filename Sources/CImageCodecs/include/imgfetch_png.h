#ifndef IMGFETCH_PNG_H
#define IMGFETCH_PNG_H
// PNG: libpng's simplified API, which decodes (png.c).
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

#endif
