// See include/CResample.h: the box pre-shrink before the Lanczos passes.
#include "CResample.h"

/// Adds one source row to the column sums: colour times alpha and alpha, or colour as it is.
static void add_row(const uint8_t *row, int width, int weigh_by_alpha, uint32_t *sums) {
    if (weigh_by_alpha) {
        for (int x = 0; x < width * 4; x += 4) {
            uint32_t alpha = row[x + 3];
            sums[x] += row[x] * alpha, sums[x + 1] += row[x + 1] * alpha, sums[x + 2] += row[x + 2] * alpha;
            sums[x + 3] += alpha;
        }
    } else {
        // Contiguous and branch-free: the compiler vectorises it.
        for (int i = 0; i < width * 4; i++) sums[i] += row[i];
    }
}

void imgfetch_box_shrink(const uint8_t *src, int width, int height, int kx, int ky, int weigh_by_alpha, uint8_t *dst,
                         uint32_t *sums) {
    int out_width = (width + kx - 1) / kx, out_height = (height + ky - 1) / ky;
    for (int oy = 0; oy < out_height; oy++) {
        int top = oy * ky, rows = height - top < ky ? height - top : ky;
        // Down the block's rows first, one pass over each source row, then across the columns.
        for (int i = 0; i < width * 4; i++) sums[i] = 0;
        for (int y = top; y < top + rows; y++) add_row(src + (size_t)y * width * 4, width, weigh_by_alpha, sums);
        uint8_t *out = dst + (size_t)oy * out_width * 4;
        for (int ox = 0; ox < out_width; ox++, out += 4) {
            int left = ox * kx, columns = width - left < kx ? width - left : kx;
            uint64_t s[4] = {0, 0, 0, 0}, count = (uint64_t)columns * rows;
            for (int x = left; x < left + columns; x++) {
                for (int c = 0; c < 4; c++) s[c] += sums[x * 4 + c];
            }
            if (weigh_by_alpha) {
                // Colour weighed by alpha, so transparent pixels lend none; straight alpha again.
                for (int c = 0; c < 3; c++) out[c] = s[3] == 0 ? 0 : (uint8_t)((s[c] + s[3] / 2) / s[3]);
                out[3] = (uint8_t)((s[3] + count / 2) / count);
            } else {
                for (int c = 0; c < 3; c++) out[c] = (uint8_t)((s[c] + count / 2) / count);
                out[3] = 255;
            }
        }
    }
}
