// libpng's simplified API: PNG decoding.
#include "imgfetch_png.h"
#include "codec_group.h"

// libpng, as (member of png_api, symbol).
#define PNG_SYMBOLS(X)                                           \
    X(begin_read_from_memory, png_image_begin_read_from_memory)  \
    X(finish_read, png_image_finish_read)                        \
    X(image_free, png_image_free)
LIBRARY_GROUP(png, PNG_SYMBOLS, IMGFETCH_PNG_LIBRARY, "libpng16-16")

int imgfetch_png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    return png_api.begin_read_from_memory(image, memory, size);
}
int imgfetch_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap) {
    return png_api.finish_read(image, background, buffer, row_stride, colormap);
}
void imgfetch_png_image_free(png_imagep image) { png_api.image_free(image); }
