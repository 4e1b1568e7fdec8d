// The PNG encoder: libpng's full write API, which the simplified one does not let us tune.
//
// Why Paeth and zlib's run-length strategy: for the thumbnails transforms write, libpng's default
// (adaptive filtering with zlib's level 6 string matching) spent 18-28 ms on one 256-pixel photo
// while Paeth with Z_RLE took 3-4 ms and wrote files 0.2-5% larger (a flat logo came out smaller);
// measured on the benchmark corpus' photo, posterised GIF and a flat drawing (libpng 1.6.39,
// zlib 1.2.13).
#include "imgfetch_png.h"
#include "codec_group.h"

#include <setjmp.h>
#include <stdlib.h>
#include <zlib.h>

// libpng, as (member of png_encoder_api, symbol).
#define PNG_ENCODER_SYMBOLS(X)                                 \
    X(create_write_struct, png_create_write_struct)            \
    X(create_info_struct, png_create_info_struct)              \
    X(destroy_write_struct, png_destroy_write_struct)          \
    X(set_longjmp_fn, png_set_longjmp_fn)                      \
    X(set_write_fn, png_set_write_fn)                          \
    X(get_io_ptr, png_get_io_ptr)                              \
    X(set_IHDR, png_set_IHDR)                                  \
    X(set_sRGB, png_set_sRGB)                                  \
    X(set_filter, png_set_filter)                              \
    X(set_compression_strategy, png_set_compression_strategy)  \
    X(write_info, png_write_info)                              \
    X(write_row, png_write_row)                                \
    X(write_end, png_write_end)                                \
    X(set_iCCP, png_set_iCCP)                                  \
    X(set_eXIf_1, png_set_eXIf_1)
LIBRARY_GROUP(png_encoder, PNG_ENCODER_SYMBOLS, "libpng16.so.16", "libpng16-16")

/// The PNG being written: a buffer that grows as libpng hands over its output, and the first
/// error libpng reported.
struct png_output {
    uint8_t *bytes;
    size_t size, capacity;
    int out_of_memory;
    char error[200];
};

static void png_write_bytes(png_structp png, png_bytep data, size_t length) {
    struct png_output *output = png_encoder_api.get_io_ptr(png);
    if (output->size + length > output->capacity) {
        size_t capacity = output->capacity * 2 > output->size + length ? output->capacity * 2 : output->size + length;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (grown == NULL) {
            output->out_of_memory = 1;
            return;
        }
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->size, data, length);
    output->size += length;
}

static void png_flush_nothing(png_structp png) { (void)png; }

// libpng's error callback must not return: it jumps back into imgfetch_png_encode.
static void png_encode_error(png_structp png, png_const_charp text) {
    struct png_output *output = png_encoder_api.get_io_ptr(png);
    if (output != NULL) imgfetch_copy_message(output->error, sizeof output->error, text, "libpng cannot encode the image");
    longjmp(*png_encoder_api.set_longjmp_fn(png, longjmp, sizeof(jmp_buf)), 1);
}

static void png_encode_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

int imgfetch_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int has_alpha,
                        const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                        size_t message_size) {
    // volatile: they are read after the longjmp that ends a failed encode.
    struct png_output *volatile output = calloc(1, sizeof *output);
    png_structp volatile png = NULL;
    png_infop volatile info = NULL;
    if (output == NULL) {
        imgfetch_copy_message(message, message_size, NULL, "there is not enough memory for the PNG");
        return IMGFETCH_ENCODE_FAILED;
    }
    png = png_encoder_api.create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_encode_error, png_encode_warning);
    if (png != NULL) info = png_encoder_api.create_info_struct(png);
    if (png == NULL || info == NULL) {
        png_structp p = png;
        png_infop i = info;
        if (p != NULL) png_encoder_api.destroy_write_struct(&p, i != NULL ? &i : NULL);
        free(output);
        imgfetch_copy_message(message, message_size, NULL, "libpng could not create an encoder");
        return IMGFETCH_ENCODE_FAILED;
    }
    if (setjmp(*png_encoder_api.set_longjmp_fn(png, longjmp, sizeof(jmp_buf)))) {
        png_structp p = png;
        png_infop i = info;
        png_encoder_api.destroy_write_struct(&p, &i);
        imgfetch_copy_message(message, message_size, output->error, "libpng cannot encode the image");
        free(output->bytes);
        free(output);
        return IMGFETCH_ENCODE_FAILED;
    }
    size_t channels = has_alpha ? 4 : 3;
    output->capacity = (size_t)width * height * channels / 2 + 1024;
    output->bytes = malloc(output->capacity);
    if (output->bytes == NULL) output->capacity = 0;
    png_encoder_api.set_write_fn(png, output, png_write_bytes, png_flush_nothing);
    png_encoder_api.set_IHDR(png, info, width, height, 8, has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    // The pixels are sRGB (the transform converted them), unless they are in a kept profile's space.
    if (metadata != NULL && metadata->icc != NULL) {
        png_encoder_api.set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, metadata->icc,
                                 (png_uint_32)metadata->icc_size);
    } else {
        png_encoder_api.set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    }
    if (metadata != NULL && metadata->exif != NULL) {
        png_encoder_api.set_eXIf_1(png, info, (png_uint_32)metadata->exif_size, (png_bytep)metadata->exif);
    }
    png_encoder_api.set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_encoder_api.set_compression_strategy(png, Z_RLE);
    png_encoder_api.write_info(png, info);
    for (uint32_t y = 0; y < height && !output->out_of_memory; y++) {
        png_encoder_api.write_row(png, pixels + (size_t)y * width * channels);
    }
    // No info: every chunk went before IDAT (libpng 1.6.39 would write eXIf a second time after it).
    if (!output->out_of_memory) png_encoder_api.write_end(png, NULL);
    png_structp p = png;
    png_infop i = info;
    png_encoder_api.destroy_write_struct(&p, &i);
    if (output->out_of_memory) {
        free(output->bytes);
        free(output);
        imgfetch_copy_message(message, message_size, NULL, "there is not enough memory for the PNG");
        return IMGFETCH_ENCODE_FAILED;
    }
    out->bytes = output->bytes;
    out->size = output->size;
    out->free_bytes = free;
    free(output);
    return IMGFETCH_ENCODED;
}
