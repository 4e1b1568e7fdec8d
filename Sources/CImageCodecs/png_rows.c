// PNG image data read by imgfetch itself for the transforms: the IDAT stream inflated by zlib a
// row at a time, each row unfiltered (SSE2 for 3- and 4-byte pixels) and widened to RGBA8.
//
// Why not libpng: Debian's libpng is built without its SIMD filters, and a photo's rows are nearly
// all Paeth-filtered, which libpng undoes a byte at a time. For the 122 PNGs of the benchmark
// corpus (8-bit RGB) libpng's simplified API took 1.80 s; inflating alone takes 0.65 s.
// Only 8-bit, non-interlaced gray, gray + alpha, RGB and RGBA come here (PNGImageData.swift says
// which files); libpng reads every other PNG, and every PNG outside the transforms.
#include "CImageCodecs.h"
#include "codec_group.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// From zlib.c, which loads libz.
int imgfetch_zlib_inflate_init(z_streamp stream);
int imgfetch_zlib_inflate_step(z_streamp stream, int flush);
int imgfetch_zlib_inflate_end(z_streamp stream);
unsigned long imgfetch_zlib_crc32(unsigned long crc, const uint8_t *bytes, unsigned length);

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

/// The IDAT chunks, in order, handed to zlib one after another; each chunk's CRC is checked as
/// it is reached, as libpng checks it.
struct idat_feed {
    const uint8_t *file;
    const size_t *offsets;
    size_t count, next;
};

/// Points `stream` at the next IDAT's data; 0 when none is left, -1 when its CRC is wrong.
static int feed_next(struct idat_feed *feed, z_streamp stream) {
    if (feed->next == feed->count) return 0;
    const uint8_t *chunk = feed->file + feed->offsets[feed->next++];
    uint32_t length = big_endian(chunk);
    if (imgfetch_zlib_crc32(0, chunk + 4, length + 4) != big_endian(chunk + 8 + length)) return -1;
    stream->next_in = (Bytef *)(chunk + 8);
    stream->avail_in = length;
    return 1;
}

int imgfetch_png_decode_rows(const uint8_t *file, const size_t *idat_offsets, size_t idat_count, uint32_t width,
                             uint32_t height, int channels, uint8_t *rgba, char *message, size_t message_size) {
    size_t length = (size_t)width * (size_t)channels;
    if (channels < 1 || channels > 4 || length + 1 > UINT_MAX) {
        imgfetch_copy_message(message, message_size, NULL, "the row size is out of range");
        return IMGFETCH_CODEC_FAILED;
    }
    // Two rows, each with its filter byte in front and slack behind; the first `prev` is zeros.
    uint8_t *buffers = calloc(2, length + 1 + 16);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (buffers == NULL || imgfetch_zlib_inflate_init(&stream) != Z_OK) {
        free(buffers);
        imgfetch_copy_message(message, message_size, NULL, "out of memory for the rows");
        return IMGFETCH_CODEC_FAILED;
    }
    uint8_t *row = buffers, *prev = buffers + length + 1 + 16;
    struct idat_feed feed = {file, idat_offsets, idat_count, 0};
    int status = IMGFETCH_CODEC_DECODED, ended = 0;
    for (uint32_t y = 0; y < height && status == IMGFETCH_CODEC_DECODED; y++) {
        stream.next_out = row;
        stream.avail_out = (uInt)(length + 1);
        while (stream.avail_out > 0) {
            if (stream.avail_in == 0) {
                int fed = ended ? 0 : feed_next(&feed, &stream);
                if (fed < 0) {
                    imgfetch_copy_message(message, message_size, NULL, "IDAT: CRC error");
                    status = IMGFETCH_CODEC_FAILED;
                } else if (fed == 0) {
                    imgfetch_copy_message(message, message_size, NULL, "Not enough image data");
                    status = IMGFETCH_CODEC_TRUNCATED;
                }
                if (fed <= 0) break;
            }
            int inflated = imgfetch_zlib_inflate_step(&stream, Z_NO_FLUSH);
            if (inflated == Z_STREAM_END) {
                ended = 1;
                stream.avail_in = 0;
            } else if (inflated != Z_OK && !(inflated == Z_BUF_ERROR && stream.avail_in == 0)) {
                imgfetch_copy_message(message, message_size, stream.msg, "the image data does not inflate");
                status = IMGFETCH_CODEC_FAILED;
                break;
            }
        }
        if (status != IMGFETCH_CODEC_DECODED) break;
        if (!unfilter(row[0], row + 1, prev + 1, length, channels)) {
            imgfetch_copy_message(message, message_size, NULL, "bad adaptive filter value");
            status = IMGFETCH_CODEC_FAILED;
            break;
        }
        widen(row + 1, width, channels, rgba + (size_t)y * width * 4);
        uint8_t *done = prev;
        prev = row;
        row = done;
    }
    imgfetch_zlib_inflate_end(&stream);
    free(buffers);
    return status;
}
