// See include/CResample.h: the box pre-shrink before the Lanczos passes.
#include "CResample.h"


void imgfetch_box_shrink(const uint8_t *src, int width, int height, int kx, int ky, int weigh_by_alpha, uint8_t *dst,
                         uint64_t *sums) {
    int out_width = (width + kx - 1) / kx, out_height = (height + ky - 1) / ky;
    for (int oy = 0; oy < out_height; oy++) {
        int top = oy * ky, rows = height - top < ky ? height - top : ky;
        for (int i = 0; i < out_width * 4; i++) sums[i] = 0;
        for (int y = top; y < top + rows; y++) {
            const uint8_t *row = src + (size_t)y * width * 4;
            for (int ox = 0; ox < out_width; ox++) {
                int left = ox * kx, columns = width - left < kx ? width - left : kx;
                const uint8_t *p = row + (size_t)left * 4;
                uint64_t *s = sums + (size_t)ox * 4;
                if (weigh_by_alpha) {
                    for (int x = 0; x < columns; x++, p += 4) {
                        uint32_t alpha = p[3];
                        s[0] += p[0] * alpha, s[1] += p[1] * alpha, s[2] += p[2] * alpha, s[3] += alpha;
                    }
                } else {
                    for (int x = 0; x < columns; x++, p += 4) s[0] += p[0], s[1] += p[1], s[2] += p[2];
                }
            }
        }
        uint8_t *out = dst + (size_t)oy * out_width * 4;
        for (int ox = 0; ox < out_width; ox++, out += 4) {
            int left = ox * kx, columns = width - left < kx ? width - left : kx;
            uint64_t count = (uint64_t)columns * rows, *s = sums + (size_t)ox * 4;
            if (weigh_by_alpha) {
                // Colour weighed by alpha, so transparent pixels lend none; straight alpha again.
                uint64_t alpha = s[3];
                for (int c = 0; c < 3; c++) out[c] = alpha == 0 ? 0 : (uint8_t)((s[c] + alpha / 2) / alpha);
                out[3] = (uint8_t)((alpha + count / 2) / count);
            } else {
                for (int c = 0; c < 3; c++) out[c] = (uint8_t)((s[c] + count / 2) / count);
                out[3] = 255;
            }
        }
    }
}
