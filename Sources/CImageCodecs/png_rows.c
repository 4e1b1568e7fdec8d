// PNG image data read by imgfetch itself for the transforms: the IDAT stream inflated whole by
// libdeflate, each row unfiltered (SSE2 for 3- and 4-byte pixels) straight into its RGBA8 row.
//
// Why not libpng: Debian's libpng is built without its SIMD filters, and a photo's rows are nearly
// all Paeth-filtered, which libpng undoes a byte at a time; and zlib, inflating a row at a time
// for it, copies every byte again into its window. For the 122 PNGs of the benchmark corpus
// (8-bit RGB) libpng's simplified API took 1.73 s, zlib's inflate alone 0.65 s, libdeflate's 0.42 s.
// Only 8-bit, non-interlaced gray, gray + alpha, RGB and RGBA come here (PNGImageData.swift says
// which files), and only the well-formed: anything this reader does not take (a CRC or stream
// error, data that ends early or runs on) is left to libpng, which reads it or says what is wrong.
#include "imgfetch_png.h"
#include "codec_group.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// libdeflate, as (member of deflate_api, symbol).
#define DEFLATE_SYMBOLS(X)                                \
    X(alloc_decompressor, libdeflate_alloc_decompressor)  \
    X(zlib_decompress, libdeflate_zlib_decompress)        \
    X(free_decompressor, libdeflate_free_decompressor)    \
    X(crc32, libdeflate_crc32)
LIBRARY_GROUP(deflate, DEFLATE_SYMBOLS, "libdeflate.so.0", "libdeflate0")

static uint32_t big_endian(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/// Channel `c` of RGBA pixel `rgba` as a sample of a PNG pixel of `channels` samples: what the
/// row above holds once it is widened (gray is red, a gray pixel's alpha is alpha).
static inline int sample(const uint8_t *rgba, int channels, int c) {
    return channels <= 2 ? rgba[c == 0 ? 0 : 3] : rgba[c];
}

/// Row `src` (`width` pixels of `channels` samples, its filter byte before it) unfiltered into
/// `out` as RGBA8, given the row above as RGBA8 (`above`, NULL for the first row). A pixel's
/// samples are read before it is written, which the layout in imgfetch_png_decode_rows needs.
static void unfilter_row(int filter, const uint8_t *src, const uint8_t *above, uint8_t *out, uint32_t width, int channels) {
    for (uint32_t x = 0; x < width; x++, src += channels, out += 4) {
        int value[4];
        for (int c = 0; c < channels; c++) {
            int a = x > 0 ? sample(out - 4, channels, c) : 0;
            int b = above != NULL ? sample(above + 4 * x, channels, c) : 0;
            int d = above != NULL && x > 0 ? sample(above + 4 * x - 4, channels, c) : 0;
            int predictor = filter == 0 ? 0 : filter == 1 ? a : filter == 2 ? b : filter == 3 ? (a + b) >> 1 : paeth(a, b, d);
            value[c] = (src[c] + predictor) & 0xFF;
        }
        switch (channels) {
        case 1: out[0] = out[1] = out[2] = (uint8_t)value[0], out[3] = 255; break;
        case 2: out[0] = out[1] = out[2] = (uint8_t)value[0], out[3] = (uint8_t)value[1]; break;
        default:
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)value[c];
            out[3] = channels == 4 ? (uint8_t)value[3] : 255;
        }
    }
}

// Sub, Average and Paeth depend on the pixel to the left, so a row is undone pixel by pixel; with
// SSE2 one pixel's channels at a time, in 16-bit lanes (for RGB the fourth lane carries the next
// pixel's first byte along, unused).
#if defined(__SSE2__)
static inline __m128i load_pixel(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), _mm_setzero_si128());
}

static inline __m128i abs16(__m128i v) { return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v)); }

static void unfilter_row_wide(int filter, const uint8_t *src, const uint8_t *above, uint8_t *out, uint32_t width, int channels) {
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    const int32_t opaque = channels == 3 ? (int32_t)0xFF000000u : 0;
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128(), b = _mm_setzero_si128();
    for (uint32_t x = 0; x < width; x++, src += channels, out += 4) {
        __m128i value = load_pixel(src), predictor;
        if (above != NULL) b = load_pixel(above + 4 * x);
        if (filter == 0) {
            predictor = _mm_setzero_si128();
        } else if (filter == 1) {
            predictor = a;
        } else if (filter == 2) {
            predictor = b;
        } else if (filter == 3) {
            predictor = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
        } else {
            __m128i from_c_to_b = _mm_sub_epi16(b, c), from_c_to_a = _mm_sub_epi16(a, c);
            __m128i pa = abs16(from_c_to_b), pb = abs16(from_c_to_a), pc = abs16(_mm_add_epi16(from_c_to_b, from_c_to_a));
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i c_over_b = _mm_cmpgt_epi16(pb, pc);
            __m128i b_or_c = _mm_or_si128(_mm_and_si128(c_over_b, c), _mm_andnot_si128(c_over_b, b));
            predictor = _mm_or_si128(_mm_and_si128(not_a, b_or_c), _mm_andnot_si128(not_a, a));
        }
        c = b;
        a = _mm_and_si128(_mm_add_epi16(value, predictor), low_byte);
        int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(a, a)) | opaque;
        memcpy(out, &packed, 4);
    }
}
#endif

/// The IDAT chunks' data, joined (libdeflate inflates from one buffer), each chunk's CRC checked as
/// libpng checks it; NULL when one is wrong or memory runs out. `*size` is the joined length.
static uint8_t *joined_image_data(const uint8_t *file, const size_t *offsets, size_t count, size_t *size) {
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += big_endian(file + offsets[i]);
    uint8_t *joined = malloc(total > 0 ? total : 1);
    if (joined == NULL) return NULL;
    *size = 0;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *chunk = file + offsets[i];
        uint32_t length = big_endian(chunk);
        if (deflate_api.crc32(0, chunk + 4, (size_t)length + 4) != big_endian(chunk + 8 + length)) {
            free(joined);
            return NULL;
        }
        memcpy(joined + *size, chunk + 8, length);
        *size += length;
    }
    return joined;
}

/// The bytes the rows take inflated: each row's filter byte and samples.
static size_t inflated_size(uint32_t width, uint32_t height, int channels) {
    return ((size_t)width * (size_t)channels + 1) * height;
}

size_t imgfetch_png_rows_capacity(uint32_t width, uint32_t height, int channels) {
    size_t pixels = (size_t)width * height * 4, inflated = inflated_size(width, height, channels);
    return (pixels > inflated ? pixels : inflated) + 16;
}

int imgfetch_png_decode_rows(const uint8_t *file, const size_t *idat_offsets, size_t idat_count, uint32_t width,
                             uint32_t height, int channels, uint8_t *rgba) {
    if (channels < 1 || channels > 4 || width == 0 || height == 0 || (size_t)height > SIZE_MAX / 8 / ((size_t)width + 1)) {
        return IMGFETCH_CODEC_FAILED;
    }
    // The rows are inflated into the end of the output buffer (16 bytes before it ends: room for
    // the last pixel's 4-byte read), and row y is unfiltered from there into its place at
    // 4 · width · y. That place never reaches a byte of row y or a later row before it is read (a
    // row takes at most 4 · width + 1 bytes inflated, and the rows end where the pixels end, or
    // past them for RGBA), and the row above is read as it was written, in RGBA: no second buffer
    // of the image's size.
    size_t stride = (size_t)width * (size_t)channels + 1, inflated = inflated_size(width, height, channels);
    size_t start = imgfetch_png_rows_capacity(width, height, channels) - 16 - inflated;
    size_t compressed_size = 0, produced = 0;
    uint8_t *compressed = joined_image_data(file, idat_offsets, idat_count, &compressed_size);
    struct libdeflate_decompressor *decompressor = compressed != NULL ? deflate_api.alloc_decompressor() : NULL;
    int status = IMGFETCH_CODEC_FAILED;
    if (decompressor != NULL &&
        deflate_api.zlib_decompress(decompressor, compressed, compressed_size, rgba + start, inflated, &produced) == LIBDEFLATE_SUCCESS &&
        produced == inflated) {
        status = IMGFETCH_CODEC_DECODED;
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = rgba + start + (size_t)y * stride;
            const uint8_t *above = y > 0 ? rgba + (size_t)(y - 1) * width * 4 : NULL;
            if (row[0] > 4) {
                status = IMGFETCH_CODEC_FAILED;
                break;
            }
#if defined(__SSE2__)
            if (channels >= 3) {
                unfilter_row_wide(row[0], row + 1, above, rgba + (size_t)y * width * 4, width, channels);
                continue;
            }
#endif
            unfilter_row(row[0], row + 1, above, rgba + (size_t)y * width * 4, width, channels);
        }
    }
    deflate_api.free_decompressor(decompressor);
    free(compressed);
    return status;
}
