#ifndef IMGFETCH_CRESAMPLE_H
#define IMGFETCH_CRESAMPLE_H
// The transform resampler's two separable passes in fixed point. Pixels travel as 16-bit values,
// each channel times 128 (Q7) and, for an image with transparency, colour premultiplied by alpha:
// 15 bits of precision, so a flat or one-pixel image comes back exactly and a transparent pixel
// lends no colour. Weights are Q14 16-bit integers (16384 = 1.0) given in pairs: `pairs[j]` holds
// taps 2j (low half) and 2j + 1 (high half; 0 past the last tap), `pair_stride` pairs per output
// pixel; output pixel `i` sums `counts[i]` inputs from `starts[i]` on, each times its weight.
//
// SSE2's pmaddwd multiplies eight 16-bit values by eight weights and adds them in pairs: two taps
// of four channels in one instruction (as Pillow-SIMD does); on a CPU with AVX2 (checked at run
// time) the horizontal pass does four taps an instruction and the vertical pass four pixels a step.
// SSE2 is in every x86-64 CPU; elsewhere
// the same integer arithmetic runs one value at a time.
#include <stddef.h>
#include <stdint.h>

/// Filters `rows` rows of `src` (RGBA8, `src_stride` bytes a row) along x into `dst` (`out_width`
/// Q7 pixels a row, `dst_stride` 16-bit values a row). Only source columns `first` ..< `first +
/// count` are read, and `starts` count from `first`. `scratch` holds `count * 4` 16-bit values.
/// With `premultiply`, colour is multiplied by alpha on the way in.
void imgfetch_resample_horizontal(const uint8_t *src, size_t src_stride, int premultiply, int first, int count,
                                  int16_t *dst, size_t dst_stride, int rows, int out_width, const int32_t *starts,
                                  const int32_t *counts, const int32_t *pairs, int pair_stride, int16_t *scratch);

/// Filters along y: output row `i` of `dst` (`width` Q7 pixels, `dst_stride` 16-bit values a row)
/// from rows `starts[i]` … of `src` (`src_stride` 16-bit values a row), for `out_height` rows.
/// `sums` holds `width * 4` 32-bit values.
void imgfetch_resample_vertical(const int16_t *src, size_t src_stride, int16_t *dst, size_t dst_stride, int width,
                                int out_height, const int32_t *starts, const int32_t *counts, const int32_t *pairs,
                                int pair_stride, int32_t *sums);

/// `pixels` Q7 pixels back to RGBA8, rounded and clamped; with `premultiplied`, colour is divided
/// by alpha again (a pixel whose alpha rounds to 0 becomes 0, 0, 0, 0).
void imgfetch_resample_finish(const int16_t *src, uint8_t *dst, size_t pixels, int premultiplied);

/// `src` (RGBA8, `width` × `height`) averaged over blocks of `kx` × `ky` pixels into `dst`, which
/// holds ⌈width / kx⌉ × ⌈height / ky⌉ pixels; blocks at the right and bottom edges average the
/// pixels they have. With `weigh_by_alpha`, colour is weighed by alpha (a transparent pixel lends
/// none) and comes out straight; without, every pixel is taken as opaque. `sums` holds
/// `width * 4` values; `ky` must be at most 65536 (a column's sum of colour times alpha fits).
void imgfetch_box_shrink(const uint8_t *src, int width, int height, int kx, int ky, int weigh_by_alpha, uint8_t *dst,
                         uint32_t *sums);

/// Whether any of `pixels` RGBA8 pixels has an alpha below 255.
int imgfetch_has_transparency(const uint8_t *rgba, size_t pixels);

#endif
