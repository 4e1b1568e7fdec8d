// See include/CResample.h. Sums start from a rounding bias, and `(sum + 8192) >> 14` keeps Q7.
#include "CResample.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define IMGFETCH_AVX2 1
#endif

enum { PRECISION = 14, ROUNDING = 1 << (PRECISION - 1), Q7_MAX = 255 << 7 };

/// A filtered Q7 value clamped to what 16 bits hold (Lanczos rings below 0 and above the input).
static inline int16_t clamp_q7(int32_t sum) {
    sum >>= PRECISION;
    return (int16_t)(sum < 0 ? 0 : sum > 32767 ? 32767 : sum);
}

/// One source row as Q7, colour premultiplied by alpha when asked: c · a · 128 / 255, rounded.
static void load_row(const uint8_t *row, int count, int premultiply, int16_t *out) {
    if (!premultiply) {
        for (int i = 0; i < count * 4; i++) out[i] = (int16_t)(row[i] << 7);
        return;
    }
    for (int i = 0; i < count * 4; i += 4) {
        uint32_t alpha = row[i + 3];
        for (int c = 0; c < 3; c++) out[i + c] = (int16_t)((row[i + c] * alpha * 128 + 127) / 255);
        out[i + 3] = (int16_t)(alpha << 7);
    }
}

#if defined(__SSE2__)

/// One output pixel of the horizontal pass: `taps` Q7 pixels from `pixel` times their weights.
static inline void filter_pixel(const int16_t *pixel, const int32_t *w, int taps, int16_t *out) {
    __m128i sum = _mm_set1_epi32(ROUNDING);
    int k = 0;
    for (; k + 1 < taps; k += 2) {
        // r0 g0 b0 a0 r1 g1 b1 a1 rearranged to r0 r1 g0 g1 b0 b1 a0 a1: one channel a lane.
        __m128i two = _mm_loadu_si128((const __m128i *)(pixel + k * 4));
        __m128i channels = _mm_unpacklo_epi16(two, _mm_srli_si128(two, 8));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(channels, _mm_set1_epi32(w[k / 2])));
    }
    if (k < taps) {
        __m128i one = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(pixel + k * 4)), _mm_setzero_si128());
        sum = _mm_add_epi32(sum, _mm_madd_epi16(one, _mm_set1_epi32(w[k / 2])));
    }
    __m128i packed = _mm_packs_epi32(_mm_srai_epi32(sum, PRECISION), _mm_setzero_si128());
    _mm_storel_epi64((__m128i *)out, _mm_max_epi16(packed, _mm_setzero_si128()));
}

/// Adds rows `a` and `b` (NULL: none) times the weights of pair `pair` to `sums` (`values` of
/// them): eight values (two pixels) per pmaddwd pair, the weights in one register for the row.
static inline void add_rows(const int16_t *a, const int16_t *b, int32_t pair, int32_t *sums, size_t values) {
    size_t blocks = values / 8 * 8;
    __m128i wk = _mm_set1_epi32(pair);
    for (size_t x = 0; x < blocks; x += 8) {
        __m128i ra = _mm_loadu_si128((const __m128i *)(a + x));
        __m128i rb = b != NULL ? _mm_loadu_si128((const __m128i *)(b + x)) : _mm_setzero_si128();
        __m128i *s = (__m128i *)(sums + x);
        _mm_storeu_si128(s, _mm_add_epi32(_mm_loadu_si128(s), _mm_madd_epi16(_mm_unpacklo_epi16(ra, rb), wk)));
        _mm_storeu_si128(s + 1, _mm_add_epi32(_mm_loadu_si128(s + 1), _mm_madd_epi16(_mm_unpackhi_epi16(ra, rb), wk)));
    }
    int32_t low = (int16_t)(pair & 0xFFFF), high = (int16_t)((uint32_t)pair >> 16);
    for (size_t x = blocks; x < values; x++) sums[x] += (int32_t)a[x] * low + (b != NULL ? (int32_t)b[x] * high : 0);
}

#else

/// Tap `k` of a pair run: the low half of pair k / 2 for even k, the high half for odd k.
static inline int32_t tap(const int32_t *pairs, int k) {
    return (int16_t)(k % 2 == 0 ? (pairs[k / 2] & 0xFFFF) : ((uint32_t)pairs[k / 2] >> 16));
}

static inline void filter_pixel(const int16_t *pixel, const int32_t *w, int taps, int16_t *out) {
    for (int c = 0; c < 4; c++) {
        int32_t sum = ROUNDING;
        for (int k = 0; k < taps; k++) sum += (int32_t)pixel[k * 4 + c] * tap(w, k);
        out[c] = clamp_q7(sum);
    }
}

static inline void add_rows(const int16_t *a, const int16_t *b, int32_t pair, int32_t *sums, size_t values) {
    int32_t low = (int16_t)(pair & 0xFFFF), high = (int16_t)((uint32_t)pair >> 16);
    for (size_t x = 0; x < values; x++) sums[x] += (int32_t)a[x] * low + (b != NULL ? (int32_t)b[x] * high : 0);
}

#endif

#if IMGFETCH_AVX2

/// filter_pixel with AVX2: four taps a pmaddwd (two pairs, one per 128-bit lane), so about half
/// the instructions; the lanes' sums are added at the end. Same integer arithmetic, so the same
/// result to the bit. Why: the horizontal pass was 17% of `prefetch --resize 256x256`'s CPU on
/// the bench corpus (perf, 200 images: PNG, GIF and WebP are not shrunk on load as JPEG is), and
/// this takes 35-38% off it (1500×1000 → 256×171: 4.4 → 2.7 ms; 512×384 → 256×192: 1.24 → 0.81
/// ms; clang -O3, best of 30).
__attribute__((target("avx2"))) static inline void filter_pixel_avx2(const int16_t *pixel, const int32_t *w, int taps,
                                                                      int16_t *out) {
    __m256i sum = _mm256_setzero_si256();
    const __m256i lanes = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    int k = 0;
    for (; k + 3 < taps; k += 4) {
        // Pixels k, k+1 in the low lane and k+2, k+3 in the high one, each lane rearranged to
        // one channel a 32-bit slot, as the SSE2 loop does for one pair.
        __m256i four = _mm256_loadu_si256((const __m256i *)(pixel + k * 4));
        __m256i channels = _mm256_unpacklo_epi16(four, _mm256_srli_si256(four, 8));
        __m256i weights = _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(w + k / 2))), lanes);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(channels, weights));
    }
    __m128i total = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1)),
                                  _mm_set1_epi32(ROUNDING));
    for (; k + 1 < taps; k += 2) {
        __m128i two = _mm_loadu_si128((const __m128i *)(pixel + k * 4));
        __m128i channels = _mm_unpacklo_epi16(two, _mm_srli_si128(two, 8));
        total = _mm_add_epi32(total, _mm_madd_epi16(channels, _mm_set1_epi32(w[k / 2])));
    }
    if (k < taps) {
        __m128i one = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(pixel + k * 4)), _mm_setzero_si128());
        total = _mm_add_epi32(total, _mm_madd_epi16(one, _mm_set1_epi32(w[k / 2])));
    }
    __m128i packed = _mm_packs_epi32(_mm_srai_epi32(total, PRECISION), _mm_setzero_si128());
    _mm_storel_epi64((__m128i *)out, _mm_max_epi16(packed, _mm_setzero_si128()));
}

__attribute__((target("avx2"))) static void filter_row_avx2(const int16_t *row, int16_t *out, int out_width,
                                                             const int32_t *starts, const int32_t *counts,
                                                             const int32_t *pairs, int pair_stride) {
    for (int x = 0; x < out_width; x++) {
        filter_pixel_avx2(row + (size_t)starts[x] * 4, pairs + (size_t)x * pair_stride, counts[x], out + x * 4);
    }
}

#endif

void imgfetch_resample_horizontal(const uint8_t *src, size_t src_stride, int premultiply, int first, int count,
                                  int16_t *dst, size_t dst_stride, int rows, int out_width, const int32_t *starts,
                                  const int32_t *counts, const int32_t *pairs, int pair_stride, int16_t *scratch) {
#if IMGFETCH_AVX2
    if (__builtin_cpu_supports("avx2")) {
        for (int y = 0; y < rows; y++) {
            load_row(src + (size_t)y * src_stride + (size_t)first * 4, count, premultiply, scratch);
            filter_row_avx2(scratch, dst + (size_t)y * dst_stride, out_width, starts, counts, pairs, pair_stride);
        }
        return;
    }
#endif
    for (int y = 0; y < rows; y++) {
        load_row(src + (size_t)y * src_stride + (size_t)first * 4, count, premultiply, scratch);
        int16_t *out = dst + (size_t)y * dst_stride;
        for (int x = 0; x < out_width; x++) {
            filter_pixel(scratch + (size_t)starts[x] * 4, pairs + (size_t)x * pair_stride, counts[x], out + x * 4);
        }
    }
}

#if IMGFETCH_AVX2

/// add_rows with AVX2: sixteen values (four pixels) a step. Each row's 64-bit quarters are put in
/// the order 0, 2, 1, 3 first, so that the in-lane unpacks give values 0-7 and 8-15 in order.
/// Same integer arithmetic, so the same result to the bit. Why: the vertical pass was 3.4% of
/// `bench resize`'s CPU; this halves its multiplies, loads and stores of the sums.
__attribute__((target("avx2"))) static inline void add_rows_avx2(const int16_t *a, const int16_t *b, int32_t pair,
                                                                  int32_t *sums, size_t values) {
    size_t blocks = values / 16 * 16;
    __m256i wk = _mm256_set1_epi32(pair);
    for (size_t x = 0; x < blocks; x += 16) {
        __m256i ra = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(a + x)), 0xD8);
        __m256i rb = b != NULL ? _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(b + x)), 0xD8)
                               : _mm256_setzero_si256();
        __m256i *s = (__m256i *)(sums + x);
        _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), _mm256_madd_epi16(_mm256_unpacklo_epi16(ra, rb), wk)));
        _mm256_storeu_si256(s + 1,
                            _mm256_add_epi32(_mm256_loadu_si256(s + 1), _mm256_madd_epi16(_mm256_unpackhi_epi16(ra, rb), wk)));
    }
    int32_t low = (int16_t)(pair & 0xFFFF), high = (int16_t)((uint32_t)pair >> 16);
    for (size_t x = blocks; x < values; x++) sums[x] += (int32_t)a[x] * low + (b != NULL ? (int32_t)b[x] * high : 0);
}

#endif

void imgfetch_resample_vertical(const int16_t *src, size_t src_stride, int16_t *dst, size_t dst_stride, int width,
                                int out_height, const int32_t *starts, const int32_t *counts, const int32_t *pairs,
                                int pair_stride, int32_t *sums) {
    size_t values = (size_t)width * 4;
    // One call per tap pair and row, over the whole row: the choice costs nothing measurable.
    void (*add)(const int16_t *, const int16_t *, int32_t, int32_t *, size_t) = add_rows;
#if IMGFETCH_AVX2
    if (__builtin_cpu_supports("avx2")) add = add_rows_avx2;
#endif
    for (int y = 0; y < out_height; y++) {
        const int16_t *top = src + (size_t)starts[y] * src_stride;
        const int32_t *w = pairs + (size_t)y * pair_stride;
        int taps = counts[y];
        for (size_t x = 0; x < values; x++) sums[x] = ROUNDING;
        // Tap pair by tap pair across the whole row: the sums stay in L1.
        for (int k = 0; k < taps; k += 2) {
            const int16_t *a = top + (size_t)k * src_stride;
            add(a, k + 1 < taps ? a + src_stride : NULL, w[k / 2], sums, values);
        }
        int16_t *out = dst + (size_t)y * dst_stride;
        for (size_t x = 0; x < values; x++) out[x] = clamp_q7(sums[x]);
    }
}

void imgfetch_resample_finish(const int16_t *src, uint8_t *dst, size_t pixels, int premultiplied) {
    size_t i = 0;
#if defined(__SSE2__)
    if (!premultiplied) {
        // Opaque images (every JPEG): (value + 64) >> 7 for sixteen values at a time.
        const __m128i half = _mm_set1_epi16(64);
        for (; i + 16 <= pixels * 4; i += 16) {
            __m128i a = _mm_srai_epi16(_mm_adds_epi16(_mm_loadu_si128((const __m128i *)(src + i)), half), 7);
            __m128i b = _mm_srai_epi16(_mm_adds_epi16(_mm_loadu_si128((const __m128i *)(src + i + 8)), half), 7);
            _mm_storeu_si128((__m128i *)(dst + i), _mm_packus_epi16(a, b));
        }
    }
#endif
    for (; i < pixels * 4; i += 4) {
        int32_t alpha = src[i + 3] > Q7_MAX ? Q7_MAX : src[i + 3];
        uint8_t a = (uint8_t)((alpha + 64) >> 7);
        dst[i + 3] = a;
        for (int c = 0; c < 3; c++) {
            int32_t value = src[i + c];
            int32_t byte;
            if (!premultiplied) {
                byte = (value + 64) >> 7;
            } else if (a == 0) {
                byte = 0;
            } else {
                // Colour was multiplied by alpha / 255: divide by it again, rounded.
                byte = (int32_t)(((int64_t)value * 255 + alpha / 2) / alpha);
            }
            dst[i + c] = (uint8_t)(byte > 255 ? 255 : byte);
        }
    }
}
