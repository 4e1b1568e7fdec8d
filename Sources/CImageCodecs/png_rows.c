// PNG image data read by imgfetch itself for the transforms: the IDAT stream inflated whole by
// libdeflate, each row unfiltered (SSE2 for 3- and 4-byte pixels) and widened to RGBA8.
//
// Why not libpng: Debian's libpng is built without its SIMD filters, and a photo's rows are nearly
// all Paeth-filtered, which libpng undoes a byte at a time; and zlib, inflating a row at a time
// for it, copies every byte again into its window. For the 122 PNGs of the benchmark corpus
// (8-bit RGB) libpng's simplified API took 1.73 s, zlib's inflate alone 0.65 s, libdeflate's 0.42 s.
// Only 8-bit, non-interlaced gray, gray + alpha, RGB and RGBA come here (PNGImageData.swift says
// which files), and only the well-formed: anything this reader does not take (a CRC or stream
// error, data that ends early or runs on) is left to libpng, which reads it or says what is wrong.
#include "CImageCodecs.h"
#include "codec_group.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static struct group deflate = {PTHREAD_ONCE_INIT, "", 0};
static struct {
    struct libdeflate_decompressor *(*alloc_decompressor)(void);
    enum libdeflate_result (*zlib_decompress)(struct libdeflate_decompressor *, const void *, size_t, void *, size_t, size_t *);
    void (*free_decompressor)(struct libdeflate_decompressor *);
    uint32_t (*crc32)(uint32_t, const void *, size_t);
} deflate_api;

static void load_deflate(void) {
    const struct imgfetch_symbol symbols[] = {
        {(void **)&deflate_api.alloc_decompressor, "libdeflate_alloc_decompressor"},
        {(void **)&deflate_api.zlib_decompress, "libdeflate_zlib_decompress"},
        {(void **)&deflate_api.free_decompressor, "libdeflate_free_decompressor"},
        {(void **)&deflate_api.crc32, "libdeflate_crc32"},
    };
    LOAD(deflate, "libdeflate.so.0", "libdeflate0", symbols);
    deflate.loaded = 1;
}
LOADER(deflate, deflate)

static uint32_t big_endian(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

// Sub, Average and Paeth depend on the pixel to the left, so a row is undone pixel by pixel; with
// SSE2 one pixel's channels at a time, in 16-bit lanes.
#if defined(__SSE2__)
static inline __m128i load_pixel(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);  // the row buffers have slack past their end for a 3-byte pixel's fourth byte
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), _mm_setzero_si128());
}

static inline void store_pixel(uint8_t *p, __m128i v, int bpp) {
    int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(v, v));
    memcpy(p, &packed, (size_t)bpp);
}

static inline __m128i abs16(__m128i v) { return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v)); }

static void unfilter_wide(int filter, uint8_t *row, const uint8_t *prev, size_t length, int bpp) {
    const __m128i low_byte = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i < length; i += (size_t)bpp) {
        __m128i x = load_pixel(row + i), b = load_pixel(prev + i), predictor;
        if (filter == 1) {
            predictor = a;
        } else if (filter == 3) {
            predictor = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
        } else {
            __m128i from_c_to_b = _mm_sub_epi16(b, c), from_c_to_a = _mm_sub_epi16(a, c);
            __m128i pa = abs16(from_c_to_b), pb = abs16(from_c_to_a), pc = abs16(_mm_add_epi16(from_c_to_b, from_c_to_a));
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i c_over_b = _mm_cmpgt_epi16(pb, pc);
            __m128i b_or_c = _mm_or_si128(_mm_and_si128(c_over_b, c), _mm_andnot_si128(c_over_b, b));
            predictor = _mm_or_si128(_mm_and_si128(not_a, b_or_c), _mm_andnot_si128(not_a, a));
            c = b;
        }
        a = _mm_and_si128(_mm_add_epi16(x, predictor), low_byte);
        store_pixel(row + i, a, bpp);
    }
}
#endif

/// Undoes `filter` on `row` (`length` bytes) given the row above, `prev` (zeros for the first).
static int unfilter(int filter, uint8_t *row, const uint8_t *prev, size_t length, int bpp) {
    switch (filter) {
    case 0:
        return 1;
    case 2:
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return 1;
    case 1:
    case 3:
    case 4:
        break;
    default:
        return 0;
    }
#if defined(__SSE2__)
    if (bpp >= 3) {
        unfilter_wide(filter, row, prev, length, bpp);
        return 1;
    }
#endif
    for (size_t i = 0; i < length; i++) {
        int a = i >= (size_t)bpp ? row[i - bpp] : 0, b = prev[i], c = i >= (size_t)bpp ? prev[i - bpp] : 0;
        int predictor = filter == 1 ? a : filter == 3 ? (a + b) >> 1 : paeth(a, b, c);
        row[i] = (uint8_t)(row[i] + predictor);
    }
    return 1;
}

static void widen(const uint8_t *row, uint32_t width, int channels, uint8_t *out) {
    switch (channels) {
    case 4:
        memcpy(out, row, (size_t)width * 4);
        break;
    case 3:
        for (uint32_t x = 0; x < width; x++, row += 3, out += 4) {
            out[0] = row[0], out[1] = row[1], out[2] = row[2], out[3] = 255;
        }
        break;
    case 2:
        for (uint32_t x = 0; x < width; x++, row += 2, out += 4) out[0] = out[1] = out[2] = row[0], out[3] = row[1];
        break;
    default:
        for (uint32_t x = 0; x < width; x++, row++, out += 4) out[0] = out[1] = out[2] = row[0], out[3] = 255;
    }
}

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

int imgfetch_png_decode_rows(const uint8_t *file, const size_t *idat_offsets, size_t idat_count, uint32_t width,
                             uint32_t height, int channels, uint8_t *rgba, char *message, size_t message_size) {
    size_t length = (size_t)width * (size_t)channels, stride = length + 1;
    if (channels < 1 || channels > 4 || width == 0 || (size_t)height > SIZE_MAX / 2 / stride) {
        imgfetch_copy_message(message, message_size, NULL, "the image size is out of range");
        return IMGFETCH_CODEC_FAILED;
    }
    size_t compressed_size = 0, inflated = 0;
    uint8_t *compressed = joined_image_data(file, idat_offsets, idat_count, &compressed_size);
    // Every row with its filter byte in front, and slack behind for a 3-byte pixel's fourth byte.
    uint8_t *rows = malloc(stride * height + 16);
    struct libdeflate_decompressor *decompressor = deflate_api.alloc_decompressor();
    int status = IMGFETCH_CODEC_FAILED;
    if (compressed == NULL || rows == NULL || decompressor == NULL) {
        imgfetch_copy_message(message, message_size, NULL, "a CRC is wrong, or memory ran out");
    } else if (deflate_api.zlib_decompress(decompressor, compressed, compressed_size, rows, stride * height, &inflated) !=
                   LIBDEFLATE_SUCCESS ||
               inflated != stride * height) {
        imgfetch_copy_message(message, message_size, NULL, "the image data does not inflate to the rows, exactly");
    } else {
        // The row above the first is zeros.
        uint8_t *zeros = calloc(1, length + 16);
        const uint8_t *prev = zeros;
        status = zeros == NULL ? IMGFETCH_CODEC_FAILED : IMGFETCH_CODEC_DECODED;
        for (uint32_t y = 0; y < height && status == IMGFETCH_CODEC_DECODED; y++) {
            uint8_t *row = rows + (size_t)y * stride;
            if (!unfilter(row[0], row + 1, prev, length, channels)) {
                imgfetch_copy_message(message, message_size, NULL, "bad adaptive filter value");
                status = IMGFETCH_CODEC_FAILED;
                break;
            }
            widen(row + 1, width, channels, rgba + (size_t)y * width * 4);
            prev = row + 1;
        }
        free(zeros);
    }
    deflate_api.free_decompressor(decompressor);
    free(rows);
    free(compressed);
    return status;
}
