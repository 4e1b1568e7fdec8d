#ifndef IMGFETCH_CPNG_SHIM_H
#define IMGFETCH_CPNG_SHIM_H
// libpng's simplified png_image_* API reports errors in the png_image struct (no longjmp into Swift).
// Its format constants and size helpers are compound macros Swift cannot import, so they are re-exported here.
#include <png.h>

static const png_uint_32 imgfetch_png_format_rgba = PNG_FORMAT_RGBA;
static inline png_alloc_size_t imgfetch_png_image_row_stride(const png_image *image) { return PNG_IMAGE_ROW_STRIDE(*image); }
static inline png_alloc_size_t imgfetch_png_image_buffer_size(const png_image *image) { return PNG_IMAGE_BUFFER_SIZE(*image, PNG_IMAGE_ROW_STRIDE(*image)); }
static inline int imgfetch_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
#endif
